/**
 * A typed method's refusal through the real client: the HttpError names the method called and
 * its path as Discord's documentation writes it (under v6 too, where the call's route is a route
 * key), with Discord's field errors or OAuth2's error; a webhook's token never shows.
 */
import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, HttpError } from '../../src/index.ts';

const HOST = 'http://http-error.test';
const CHANNEL = '81384788765712384';
const WEBHOOK = '223704706495545344';
const WEBHOOK_TOKEN = 'wh-s3cret-t0ken-9f8e7d';

/** What the reference service answers a message over 2000 characters (src/testing/messages.ts). */
const CONTENT_TOO_LONG = {
  message: 'Invalid Form Body',
  code: 50035,
  errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
};
const EMBED_FIELD_REQUIRED = {
  code: 50035,
  message: 'Invalid Form Body',
  errors: {
    embeds: {
      '0': {
        fields: { '2': { value: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } } },
      },
    },
  },
};

const server = setupServer(
  http.post(`${HOST}/*/channels/:channel/messages`, () => HttpResponse.json(CONTENT_TOO_LONG, { status: 400 })),
  http.post(`${HOST}/api/v10/webhooks/:id/:token`, () => HttpResponse.json(EMBED_FIELD_REQUIRED, { status: 400 })),
  http.post(`${HOST}/api/v10/oauth2/token`, () =>
    HttpResponse.json({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' }, { status: 400 }),
  ),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const v10 = createClient({ baseUrl: `${HOST}/api/v10`, token: 'Bot http-error' });
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable('the call should have been refused'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(HttpError);
      return error as HttpError;
    },
  );

describe('an HttpError through the client', () => {
  it("names the method called and its path, then Discord's field errors", async () => {
    const error = await refusal(v10.channels.messages.create(CHANNEL, { content: 'x'.repeat(2001) }));
    expect(error.message).toBe(
      [
        'channels.messages.create (POST /channels/{channel_id}/messages) failed with status 400: Invalid Form Body (code 50035)',
        '  content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)',
      ].join('\n'),
    );
    expect([error.operation, error.discordCode, error.route]).toEqual([
      'channels.messages.create',
      50035,
      'POST /channels/:id/messages',
    ]);
  });

  it('under v6 too: the path, not the route key', async () => {
    const v6 = createClient({ api: 'v6', baseUrl: `${HOST}/api`, token: 'Bot http-error' });
    const error = await refusal(v6.channels.messages.create(CHANNEL, { content: 'x'.repeat(2001) }));
    expect(error.message.split('\n')[0]).toBe(
      'channels.messages.create (POST /channels/{channel_id}/messages) failed with status 400: Invalid Form Body (code 50035)',
    );
    expect(error.routeKey).toBe('ChannelsIdMessages');
    await v6.close();
  });

  it("a webhook's token shows nowhere: the path names its placeholder", async () => {
    const error = await refusal(v10.webhooks.execute(WEBHOOK, WEBHOOK_TOKEN, { embeds: [{ fields: [] }] }));
    expect(error.message).toBe(
      [
        'webhooks.execute (POST /webhooks/{webhook_id}/{webhook_token}) failed with status 400: Invalid Form Body (code 50035)',
        '  embeds[0].fields[2].value: This field is required (BASE_TYPE_REQUIRED)',
      ].join('\n'),
    );
    expect(`${String(error)}\n${error.stack}\n${inspect(error, { depth: 5 })}`).not.toContain(WEBHOOK_TOKEN);
  });

  it("OAuth2's error", async () => {
    const error = await refusal(
      v10.oauth2.token.create({ grant_type: 'authorization_code', code: 'stale', redirect_uri: 'http://x.test' }),
    );
    expect(error.message).toBe(
      'oauth2.token.create (POST /oauth2/token) failed with status 400: Invalid "code" in request. (OAuth2 error invalid_grant)',
    );
    expect(error.oauth2Error).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
  });
});

afterAll(() => v10.close());
