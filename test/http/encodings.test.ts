/**
 * Bodies that are not JSON and results that are not JSON: `form-data` (stickers, invite target
 * users), `urlencoded` (OAuth2's token endpoints), binary results (the widget image, the target
 * users CSV), and links (the OAuth2 authorization page), which send nothing.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, HttpError, TollgateArgumentError } from '../../src/index.ts';

const BASE = 'http://encodings.test/api/v10';
const TOKEN = 'Bot encodings';
interface Received {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | null;
  readonly authorization: string | null;
  readonly search: string;
  readonly form?: FormData;
  readonly text?: string;
}
const received: Received[] = [];
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]);
const server = setupServer(
  http.get(`${BASE}/guilds/:guild/widget.png`, ({ params }) =>
    params.guild === '404'
      ? HttpResponse.json({ message: 'Unknown Guild', code: 10004 }, { status: 404 })
      : new HttpResponse(PNG, { headers: { 'content-type': 'image/png' } }),
  ),
  http.all(`${BASE}/*`, async ({ request }) => {
    const contentType = request.headers.get('content-type');
    const base = {
      method: request.method,
      path: new URL(request.url).pathname,
      contentType,
      authorization: request.headers.get('authorization'),
      search: new URL(request.url).search,
    };
    if (contentType?.startsWith('multipart/form-data')) received.push({ ...base, form: await request.formData() });
    else received.push({ ...base, text: await request.text() });
    return HttpResponse.json({ access_token: 'a', token_type: 'Bearer', expires_in: 1, scope: 'identify' });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => void received.splice(0));
afterAll(() => server.close());

const client = createClient({ baseUrl: BASE, token: TOKEN });
const GUILD = '41771983423143937';

describe('form-data: one part per field', () => {
  it('sends a sticker as text fields and its file as a file part', async () => {
    await client.guilds.stickers.create(
      GUILD,
      {
        name: 'tollgate',
        description: 'a gate',
        tags: 'gate',
        file: { name: 'sticker.png', data: PNG, contentType: 'image/png' },
      },
      { reason: 'new sticker' },
    );
    const [request] = received;
    expect(request!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = request!.form!;
    expect([form.get('name'), form.get('description'), form.get('tags')]).toEqual(['tollgate', 'a gate', 'gate']);
    expect(form.has('payload_json')).toBe(false);
    const file = form.get('file') as File;
    expect([file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]]).toEqual([
      'sticker.png',
      'image/png',
      [...PNG],
    ]);
  });

  it("sends an invite's target users as a CSV file", async () => {
    await client.invites.targetUsers.replace('0vCdhLbwjZZTWZLD', {
      target_users_file: { name: 'users.csv', data: 'user_id\n80351110224678912\n', contentType: 'text/csv' },
    });
    const file = received[0]!.form!.get('target_users_file') as File;
    expect([received[0]!.method, received[0]!.path]).toEqual(['PUT', '/api/v10/invites/0vCdhLbwjZZTWZLD/target-users']);
    expect([file.name, await file.text()]).toEqual(['users.csv', 'user_id\n80351110224678912\n']);
  });

  it.each([
    ['a nested object', { name: 'n', description: 'd', tags: 't', file: { nested: true } }, /body\.file must be/],
    ['a file without a name', { name: 'n', description: 'd', tags: 't', file: { data: 'x' } }, /body\.file\.name/],
    ['an array', [{ name: 'n' }], /an object of fields, not an array/],
  ])('refuses %s before sending', async (_, body, message) => {
    await expect(client.guilds.stickers.create(GUILD, body as never)).rejects.toThrow(message);
    expect(received).toEqual([]);
  });
});

describe('urlencoded: OAuth2 token endpoints', () => {
  it('sends the grant form-encoded, without the bot token', async () => {
    const token = await client.oauth2.token.create({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: 'https://app.example/callback?x=1',
      client_id: '1',
      client_secret: 's3cret&=',
    });
    expect(token.access_token).toBe('a');
    const [request] = received;
    expect(request!.contentType).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(request!.authorization).toBeNull();
    expect(Object.fromEntries(new URLSearchParams(request!.text))).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: 'https://app.example/callback?x=1',
      client_id: '1',
      client_secret: 's3cret&=',
    });
  });

  it('takes HTTP Basic credentials in headers, and revokes', async () => {
    const basic = `Basic ${btoa('1:s3cret')}`;
    await client.oauth2.token.revoke(
      { token: 'access', token_type_hint: 'access_token' },
      { headers: { authorization: basic } },
    );
    expect(received[0]).toMatchObject({ path: '/api/v10/oauth2/token/revoke', authorization: basic });
    expect(received[0]!.text).toBe('token=access&token_type_hint=access_token');
  });

  it('refuses a field that is not a scalar, and FormData', async () => {
    await expect(
      client.oauth2.token.create({ grant_type: 'client_credentials', scope: ['identify'] } as never),
    ).rejects.toThrow(/oauth2\.token\.create: body\.scope must be a string/);
    await expect(client.oauth2.token.create(new FormData() as never)).rejects.toThrow(
      /form-encoded body, not FormData/,
    );
    expect(received).toEqual([]);
  });
});

describe('binary results', () => {
  it('returns the bytes as an ArrayBuffer', async () => {
    const image = await client.guilds.widgetImage.get(GUILD, { style: 'banner2' as never });
    expect(image).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(image)]).toEqual([...PNG]);
  });

  it('an error is still read as JSON', async () => {
    const error = await client.guilds.widgetImage.get('404').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).body).toEqual({ message: 'Unknown Guild', code: 10004 });
    expect((error as HttpError).error).toEqual({ message: 'Unknown Guild', code: 10004 });
    expect((error as HttpError).message).toBe(
      'guilds.widgetImage.get (GET /guilds/{guild_id}/widget.png) failed with status 404: Unknown Guild (code 10004)',
    );
  });
});

/** The gateway call, as errors name it. */
const GATEWAY = { method: 'GET', route: 'GET Gateway', routeKey: 'Gateway', bucketKey: 'Gateway', resource: '' };

it("an error body that is not the service's JSON error leaves `error` unset", () => {
  const error = new HttpError(GATEWAY, new Response(null, { status: 502 }), '<html>Bad gateway</html>');
  expect([error.error, error.message]).toEqual([undefined, 'GET Gateway failed with status 502']);
  const long = new HttpError(GATEWAY, new Response(null, { status: 400 }), {
    code: 50035,
    message: 'x'.repeat(500),
  });
  expect(long.message).toHaveLength('GET Gateway failed with status 400: '.length + 200 + ' (code 50035)'.length);
});

describe('queries', () => {
  it('a list repeats its parameter (message search by several channels)', async () => {
    await client.guilds.messages.search(GUILD, { channel_id: ['1', '2'], content: 'toll gate', limit: 5 });
    expect(received[0]).toMatchObject({
      path: `/api/v10/guilds/${GUILD}/messages/search`,
      search: '?channel_id=1&channel_id=2&content=toll+gate&limit=5',
    });
    const search = await client.request('GET', `/guilds/${GUILD}/messages/search`, { query: { a: [1, 2n, true] } });
    expect(search.ok).toBe(true);
    expect(received[1]!.search).toBe('?a=1&a=2&a=true');
  });

  it('a read whose query has required parameters fails unsent without one', async () => {
    await expect(client.guilds.members.search(GUILD, undefined as never)).rejects.toThrow(
      /guilds\.members\.search needs a query/,
    );
    expect(received).toEqual([]);
  });

  it('refuses a list holding something else than scalars', async () => {
    await expect(client.guilds.messages.search(GUILD, { channel_id: [{ id: '1' }] } as never)).rejects.toThrow(
      /query parameter "channel_id" must be a string, number, bigint or boolean, or a list of them/,
    );
    expect(received).toEqual([]);
  });
});

describe('links', () => {
  it('builds the authorization URL on the base URL and sends nothing', () => {
    const url = client.oauth2.authorization.url({
      client_id: 157730590492196864n,
      scope: 'bot applications.commands',
      permissions: '8',
      guild_id: GUILD,
      disable_guild_select: true,
    });
    expect(url).toBe(
      `${BASE}/oauth2/authorize?client_id=157730590492196864&scope=bot+applications.commands&permissions=8&guild_id=${GUILD}&disable_guild_select=true`,
    );
    expect(received).toEqual([]);
  });

  it('refuses a query value that is not a scalar', () => {
    expect(() => client.oauth2.authorization.url({ client_id: '1', scope: { bad: true } } as never)).toThrow(
      TollgateArgumentError,
    );
  });
});
