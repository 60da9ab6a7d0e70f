/**
 * HttpError's message and fields on Discord's real error bodies (test/fixtures): the method and
 * path the call was, the status, Discord's message and code, a line per field error; OAuth2's
 * error; and the bounds a hostile body meets.
 */
import { describe, expect, it } from 'vitest';
import { HttpError, type CallIdentity, type HttpErrorOptions } from '../../src/index.ts';
import { MAX_ERRORS_DEPTH, MAX_FIELD_ERRORS, MAX_HTTP_ERROR_MESSAGE } from '../../src/error-body.ts';
import {
  DISCORDJS_EMBED_FIELDS,
  DISCORDJS_NESTED_ERRORS,
  DISCORDJS_OAUTH2_INVALID_CODE,
  DISCORDJS_UNAUTHORIZED,
  DISCORDJS_USERNAME,
  DOCS_ARRAY_ERROR,
  DOCS_OBJECT_ERROR,
  DOCS_REQUEST_ERROR,
} from '../fixtures/discord-error-bodies.ts';

/** A typed method as the client names it to HttpError: its call identity and its options. */
interface Named {
  readonly call: CallIdentity;
  readonly options: HttpErrorOptions;
}

const named = (method: string, route: string, operation: string, pathTemplate: string): Named => ({
  call: { method, route: `${method} ${route}`, routeKey: 'RouteKey', bucketKey: 'bucket', resource: '' },
  options: { operation, pathTemplate },
});
const CREATE_MESSAGE = named(
  'POST',
  '/channels/:id/messages',
  'channels.messages.create',
  '/channels/{channel_id}/messages',
);
const UPDATE_ME = named('PATCH', '/users/@me', 'users.me.update', '/users/@me');
const CREATE_COMMAND = named(
  'POST',
  '/applications/:id/commands',
  'applications.commands.create',
  '/applications/{application_id}/commands',
);
const UPDATE_GUILD = named('PATCH', '/guilds/:id', 'guilds.update', '/guilds/{guild_id}');
const TOKEN = named('POST', '/oauth2/token', 'oauth2.token.create', '/oauth2/token');

const httpError = ({ call, options }: Named, status: number, body: unknown) =>
  new HttpError(call, new Response(null, { status }), body, options);

describe("Discord's documented error bodies", () => {
  it('an array error: an index shows as [n], each field error a line', () => {
    const error = httpError(CREATE_MESSAGE, 400, DOCS_ARRAY_ERROR);
    expect(error.message).toBe(
      [
        'channels.messages.create (POST /channels/{channel_id}/messages) failed with status 400: Invalid Form Body (code 50035)',
        "  activities[0].platform: Value must be one of ('desktop', 'android', 'ios'). (BASE_TYPE_CHOICES)",
        '  activities[0].type: Value must be one of (0, 1, 2, 3, 4, 5). (BASE_TYPE_CHOICES)',
      ].join('\n'),
    );
    expect(error.fieldErrors).toEqual([
      {
        path: 'activities[0].platform',
        code: 'BASE_TYPE_CHOICES',
        message: "Value must be one of ('desktop', 'android', 'ios').",
      },
      { path: 'activities[0].type', code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1, 2, 3, 4, 5).' },
    ]);
    expect([error.discordCode, error.oauth2Error, error.operation]).toEqual([
      50035,
      undefined,
      'channels.messages.create',
    ]);
  });

  it('an object error', () => {
    const error = httpError(TOKEN, 400, DOCS_OBJECT_ERROR);
    expect(error.message).toBe(
      [
        'oauth2.token.create (POST /oauth2/token) failed with status 400: Invalid Form Body (code 50035)',
        '  access_token: This field is required (BASE_TYPE_REQUIRED)',
      ].join('\n'),
    );
    expect(error.fieldErrors).toEqual([
      { path: 'access_token', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
    ]);
  });

  it('a request error: `_errors` at the top level is the request as a whole, path ""', () => {
    const error = httpError(CREATE_COMMAND, 400, DOCS_REQUEST_ERROR);
    expect(error.message).toBe(
      [
        'applications.commands.create (POST /applications/{application_id}/commands) failed with status 400: Invalid Form Body (code 50035)',
        '  (request): Command exceeds maximum size (8000) (APPLICATION_COMMAND_TOO_LARGE)',
      ].join('\n'),
    );
    expect(error.fieldErrors).toEqual([
      { path: '', code: 'APPLICATION_COMMAND_TOO_LARGE', message: 'Command exceeds maximum size (8000)' },
    ]);
  });
});

describe("the bodies of discord.js's DiscordAPIError tests", () => {
  it.each([
    [
      'a JSON error without field errors',
      UPDATE_GUILD,
      401,
      DISCORDJS_UNAUTHORIZED,
      ['guilds.update (PATCH /guilds/{guild_id}) failed with status 401: 401: Unauthorized (code 0)'],
      [],
    ],
    [
      'a field of the body',
      UPDATE_ME,
      400,
      DISCORDJS_USERNAME,
      [
        'users.me.update (PATCH /users/@me) failed with status 400: Invalid Form Body (code 50035)',
        '  username: Must be between 2 and 32 in length. (BASE_TYPE_BAD_LENGTH)',
      ],
      [{ path: 'username', code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 2 and 32 in length.' }],
    ],
    [
      'a field of an array item of a field',
      CREATE_MESSAGE,
      400,
      DISCORDJS_EMBED_FIELDS,
      [
        'channels.messages.create (POST /channels/{channel_id}/messages) failed with status 400: Invalid Form Body (code 50035)',
        '  embed.fields[0].value: This field is required (BASE_TYPE_REQUIRED)',
      ],
      [{ path: 'embed.fields[0].value', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }],
    ],
    [
      '`_errors` within `_errors`: still the errors of the field they sit in',
      UPDATE_GUILD,
      400,
      DISCORDJS_NESTED_ERRORS,
      [
        'guilds.update (PATCH /guilds/{guild_id}) failed with status 400: Invalid Form Body (code 50035)',
        '  form_fields.label: This field is required (BASE_TYPE_REQUIRED)',
      ],
      [{ path: 'form_fields.label', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }],
    ],
  ])('%s', (_, operation, status, body, lines, fieldErrors) => {
    const error = httpError(operation, status, body);
    expect(error.message).toBe(lines.join('\n'));
    expect(error.fieldErrors).toEqual(fieldErrors);
    expect(error.discordCode).toBe(body.code);
    expect(error.error).toBe(body);
    expect(error.code).toBe('HTTP_ERROR');
  });
});

describe("OAuth2's errors", () => {
  it('show their description and error, and are typed in `oauth2Error`', () => {
    const error = httpError(TOKEN, 400, DISCORDJS_OAUTH2_INVALID_CODE);
    expect(error.message).toBe(
      'oauth2.token.create (POST /oauth2/token) failed with status 400: Invalid "code" in request. (OAuth2 error invalid_request)',
    );
    expect(error.oauth2Error).toEqual({ error: 'invalid_request', error_description: 'Invalid "code" in request.' });
    expect([error.error, error.discordCode, error.fieldErrors]).toEqual([undefined, undefined, []]);
  });

  it('without a description, the error alone; only string fields are kept', () => {
    const error = httpError(TOKEN, 401, {
      error: 'invalid_client',
      error_description: 42,
      error_uri: 'https://x.test/e',
    });
    expect(error.message).toBe(
      'oauth2.token.create (POST /oauth2/token) failed with status 401: OAuth2 error invalid_client',
    );
    expect(error.oauth2Error).toEqual({ error: 'invalid_client', error_uri: 'https://x.test/e' });
  });

  it('a body whose `error` is not a string is not one', () => {
    expect(httpError(TOKEN, 400, { error: { code: 1 } }).oauth2Error).toBeUndefined();
    expect(httpError(TOKEN, 400, ['invalid_grant']).oauth2Error).toBeUndefined();
  });
});

describe('what the message names', () => {
  it('without an operation (a constructor call of its own), the route of the call', () => {
    const error = new HttpError(CREATE_MESSAGE.call, new Response(null, { status: 400 }), DOCS_OBJECT_ERROR);
    expect(error.message.split('\n')[0]).toBe(
      'POST /channels/:id/messages failed with status 400: Invalid Form Body (code 50035)',
    );
    expect(error.operation).toBeUndefined();
  });

  it('an operation without a path template: its name and the route', () => {
    const error = new HttpError(CREATE_MESSAGE.call, new Response(null, { status: 404 }), undefined, {
      operation: 'channels.messages.create',
    });
    expect(error.message).toBe('channels.messages.create (POST /channels/:id/messages) failed with status 404');
  });

  it('a body that is neither error: the status alone', () => {
    for (const body of [undefined, '<html>Bad gateway</html>', null, 7, [], { message: 'no code' }]) {
      expect(httpError(CREATE_MESSAGE, 502, body).message).toBe(
        'channels.messages.create (POST /channels/{channel_id}/messages) failed with status 502',
      );
    }
  });

  it('a bare string in `errors` is a field error without a code', () => {
    const error = httpError(CREATE_MESSAGE, 400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: { nonce: 'Too long' },
    });
    expect(error.message.split('\n').slice(1)).toEqual(['  nonce: Too long']);
    expect(error.fieldErrors).toEqual([{ path: 'nonce', code: '', message: 'Too long' }]);
  });
});

/** A JSON error whose `errors` names `count` fields, `components[i].label` each. */
const manyFieldErrors = (count: number) => ({
  code: 50035,
  message: 'Invalid Form Body',
  errors: {
    components: Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        String(index),
        { label: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } },
      ]),
    ),
  },
});

describe('bounds', () => {
  it('shows the first 10 field errors, and counts the rest; `fieldErrors` holds them all', () => {
    const error = httpError(CREATE_MESSAGE, 400, manyFieldErrors(17));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(1 + 10 + 1);
    expect(lines[10]).toBe('  components[9].label: This field is required (BASE_TYPE_REQUIRED)');
    expect(lines[11]).toBe('  … and 7 more');
    expect(error.fieldErrors.map((fieldError) => fieldError.path)).toEqual(
      Array.from({ length: 17 }, (_, index) => `components[${index}].label`),
    );
  });

  it(`keeps at most ${MAX_FIELD_ERRORS} field errors, and says the rest were not read`, () => {
    const error = httpError(CREATE_MESSAGE, 400, manyFieldErrors(5000));
    expect(error.fieldErrors).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.message.split('\n').at(-1)).toBe(
      `  … and ${MAX_FIELD_ERRORS - 10} more (the errors object was not read whole)`,
    );
  });

  it(`reads a field error ${MAX_ERRORS_DEPTH} keys deep; deeper nesting neither throws nor is read`, () => {
    const nested = (depth: number, leaf: unknown) => {
      let errors = leaf;
      for (let level = 0; level < depth; level++) errors = { a: errors };
      return { code: 50035, message: 'Invalid Form Body', errors };
    };
    const leaf = { _errors: [{ code: 'DEEP', message: 'deep' }] };
    expect(httpError(CREATE_MESSAGE, 400, nested(MAX_ERRORS_DEPTH, leaf)).fieldErrors).toEqual([
      { path: Array(MAX_ERRORS_DEPTH).fill('a').join('.'), code: 'DEEP', message: 'deep' },
    ]);
    expect(httpError(CREATE_MESSAGE, 400, nested(MAX_ERRORS_DEPTH + 1, leaf)).fieldErrors).toEqual([]);

    const deep = httpError(CREATE_MESSAGE, 400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: { near: leaf, far: nested(200_000, leaf).errors },
    });
    expect(deep.fieldErrors).toEqual([{ path: 'near', code: 'DEEP', message: 'deep' }]);
    expect(deep.message.split('\n').slice(1)).toEqual([
      '  near: deep (DEEP)',
      '  … (the errors object was not read whole)',
    ]);
  });

  it('cuts long texts, and keeps them whole in `fieldErrors`', () => {
    const long = 'x'.repeat(5000);
    const error = httpError(CREATE_MESSAGE, 400, {
      code: 50035,
      message: long,
      errors: { [long]: { _errors: [{ code: long, message: long }] } },
    });
    const [head, line] = error.message.split('\n');
    expect(head).toBe(
      `channels.messages.create (POST /channels/{channel_id}/messages) failed with status 400: ${'x'.repeat(199)}… (code 50035)`,
    );
    // A key is cut to 64 characters, the shown path to 200, a message to 200 and a code to 64.
    expect(line).toBe(`  ${'x'.repeat(63)}…: ${'x'.repeat(199)}… (${'x'.repeat(63)}…)`);
    expect(error.fieldErrors[0]!.message).toBe(long);
    expect(error.message.length).toBeLessThan(MAX_HTTP_ERROR_MESSAGE);
  });

  it('a newline in the body cannot forge a line; an odd key is quoted, not taken for a path', () => {
    const error = httpError(CREATE_MESSAGE, 400, {
      code: 50035,
      message: 'Invalid\nForm Body',
      errors: {
        'a.b\n  c': { _errors: [{ code: 'X\nY', message: 'one\r\n  forged: line\u2028' }] },
      },
    });
    expect(error.message.split('\n')).toEqual([
      'channels.messages.create (POST /channels/{channel_id}/messages) failed with status 400: Invalid Form Body (code 50035)',
      '  ["a.b\\n  c"]: one    forged: line  (X Y)',
    ]);
  });
});
