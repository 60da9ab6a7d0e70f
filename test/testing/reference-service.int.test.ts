/**
 * The reference service's own conformance over real HTTP: it fails where the service would (404,
 * 405, 401 without a token), answers a message create with the message made, honours
 * enforce_nonce, and serves its own API version only. (The SDK against it: test/e2e/.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_TOKEN, startE2E, type E2E } from '../support/e2e.ts';

const CHANNELS = ['81384788765712384', '81384788765712385', '81384788765712386'];
let e2e: E2E;

afterEach(async () => {
  await e2e?.stop();
});

describe('the reference service fails where the service would', () => {
  const NOT_FOUND = { message: '404: Not Found', code: 0 };
  const METHOD_NOT_ALLOWED = { message: '405: Method Not Allowed', code: 0 };
  const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };
  const auth = { authorization: E2E_TOKEN };
  const origin = () => new URL(e2e.service.baseUrl).origin;
  /** A raw request over HTTP: its status, body (JSON, text, or null when empty) and headers. */
  const call = async (method: string, url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { method, ...init });
    const text = await response.text();
    let body: unknown = text === '' ? null : text;
    if (response.headers.get('content-type')?.startsWith('application/json')) body = JSON.parse(text);
    return { status: response.status, body, headers: response.headers };
  };

  describe('v10: a call without Authorization is a 401, except where the service serves it without one', () => {
    it('a route that needs a token: 401 with the service body, counted as an invalid request', async () => {
      e2e = await startE2E({ api: 'v10' });
      const { baseUrl } = e2e.service;
      const refused = await call('GET', `${baseUrl}/users/@me`);
      expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
      expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
      expect(e2e.service.invalidRequests).toBe(1);
      const sent = await call('POST', `${baseUrl}/channels/${CHANNELS[0]}/messages`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'x' }),
      });
      expect(sent.status).toBe(401);
      expect(e2e.service.messages).toEqual([]);
      expect((await call('GET', `${baseUrl}/users/@me`, { headers: auth })).status).toBe(200);
      expect(e2e.service.requests.map((r) => r.status)).toEqual([401, 401, 200]);
    });

    it.each([
      ['POST', '/interactions/81384788765712384/interaction-token/callback', 204],
      ['POST', '/webhooks/5/hook-token', 204],
      ['GET', '/webhooks/5/hook-token/messages/@original', 200],
      ['GET', '/guilds/41771983423143937/widget.json', 200],
      ['GET', '/guilds/41771983423143937/widget.png', 200],
      ['GET', '/gateway', 200],
      ['GET', '/invites/0vCdhLbwjZZTWZLD', 200],
    ])('%s %s is served without one', async (method, path, status) => {
      e2e = await startE2E({ api: 'v10' });
      const body = method === 'POST' ? JSON.stringify({ type: 1, content: 'x' }) : undefined;
      const answer = await call(method, `${e2e.service.baseUrl}${path}`, {
        ...(body && { body, headers: { 'content-type': 'application/json' } }),
      });
      expect(answer.status).toBe(status);
      expect(e2e.service.invalidRequests).toBe(0);
    });

    it("the OAuth2 token endpoint is served without one (the SDK's typed call sends none)", async () => {
      e2e = await startE2E({ api: 'v10' });
      await expect(
        e2e.client.oauth2.token.create({ grant_type: 'client_credentials', scope: 'identify' }),
      ).resolves.toMatchObject({
        token_type: 'Bearer',
      });
      const raw = await call('POST', `${e2e.service.baseUrl}/oauth2/token`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&scope=identify',
      });
      expect(raw.status).toBe(200);
    });

    it('a client without a token gets the 401 as an HttpError; v6 asks for none', async () => {
      e2e = await startE2E({ api: 'v10' });
      const anonymous = e2e.newClient({ token: undefined });
      await expect(anonymous.users.me.get()).rejects.toMatchObject({ name: 'HttpError', status: 401 });
      await e2e.stop();
      e2e = await startE2E({ api: 'v6' });
      expect((await call('GET', `${e2e.service.baseUrl}/users/@me`)).status).toBe(200);
    });
  });

  describe.each(['v6', 'v10'] as const)('%s: unknown routes are 404, unknown methods 405', (api) => {
    it('with the service bodies, no rate-limit headers, recorded, and no fault drawn', async () => {
      e2e = await startE2E({ api });
      const { baseUrl } = e2e.service;
      e2e.service.inject({ fault: { kind: 'status', status: 502 } });
      const unknown = await call('GET', `${baseUrl}/nowhere/at/all`, { headers: auth });
      expect([unknown.status, unknown.body]).toEqual([404, NOT_FOUND]);
      expect(unknown.headers.get('x-ratelimit-limit')).toBeNull();
      const badId = await call('GET', `${baseUrl}/channels/not-an-id`, { headers: auth });
      expect([badId.status, badId.body]).toEqual([404, NOT_FOUND]);
      const malformed = await call('GET', `${baseUrl}/invites/%E0%A4%A`, { headers: auth });
      expect([malformed.status, malformed.body]).toEqual([404, NOT_FOUND]);
      const wrongMethod = await call('POST', `${baseUrl}/gateway`, { headers: auth });
      expect([wrongMethod.status, wrongMethod.body]).toEqual([405, METHOD_NOT_ALLOWED]);
      const noDelete = await call('DELETE', `${baseUrl}/channels/${CHANNELS[0]}/messages`, { headers: auth });
      expect([noDelete.status, noDelete.body]).toEqual([405, METHOD_NOT_ALLOWED]);
      expect(e2e.service.requests.map((r) => r.status)).toEqual([404, 404, 404, 405, 405]);
      // The fault is still there for the first call the service serves.
      expect((await call('GET', `${baseUrl}/gateway`, { headers: auth })).status).toBe(502);
      // A scripted status can carry the service's own error body.
      e2e.service.inject({ fault: { kind: 'status', status: 404, body: { message: 'Unknown Role', code: 10011 } } });
      const scripted = await call('GET', `${baseUrl}/gateway`, { headers: auth });
      expect([scripted.status, scripted.body]).toEqual([404, { message: 'Unknown Role', code: 10011 }]);
      expect(e2e.service.invalidRequests).toBe(0);
    });

    it('the SDK sees them as HttpError with the status and the body', async () => {
      e2e = await startE2E({ api });
      const response = await e2e.client.request('GET', '/nowhere');
      expect([response.status, await response.json()]).toEqual([404, NOT_FOUND]);
    });
  });

  it("v6: v10's own routes (catalog operations, Route None there) are still served, without headers", async () => {
    e2e = await startE2E({ api: 'v6' });
    const answer = await call('GET', `${e2e.service.baseUrl}/oauth2/applications/@me`, { headers: auth });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: expect.any(String) });
    expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
  });

  describe('a message create answers the message made from what was sent', () => {
    it('JSON: content, embeds and nonce echoed, a fresh id from the service clock each time', async () => {
      e2e = await startE2E({ api: 'v10' });
      const embeds = [{ title: 'Report', description: 'all good', color: 0x00ff00 }];
      const first = await e2e.client.channels.messages.create(CHANNELS[0]!, { content: 'hello', embeds, nonce: 'n-1' });
      const second = await e2e.client.channels.messages.create(CHANNELS[0]!, { content: 'again' });
      expect(first).toMatchObject({
        channel_id: CHANNELS[0],
        content: 'hello',
        embeds: [{ type: 'rich', ...embeds[0] }],
        attachments: [],
        nonce: 'n-1',
        author: { username: 'tollgate' },
      });
      expect(second).toMatchObject({ content: 'again', embeds: [] });
      expect(first.id).toMatch(/^\d+$/);
      expect(first.id).not.toBe(second.id);
      // A snowflake of the service's time: ms since 2015 in the upper bits.
      expect(Number(BigInt(first.id) >> 22n) + 1_420_070_400_000).toBe(e2e.clock.now());
      expect(first.timestamp).toBe(new Date(e2e.clock.now()).toISOString());
      expect(e2e.service.createdMessages(CHANNELS[0]!).map((message) => message.id)).toEqual([first.id, second.id]);
    });

    it('multipart: attachments named after the uploaded files (a listed filename first), with size and type', async () => {
      e2e = await startE2E({ api: 'v6' });
      const message = await e2e.client.channels.messages.create(CHANNELS[1]!, {
        content: 'two files',
        files: [
          { name: 'notes.txt', data: 'hello' },
          { name: 'image.png', data: new Uint8Array([137, 80, 78, 71]), contentType: 'image/png' },
        ],
      });
      expect(message.content).toBe('two files');
      expect(message.attachments.map(({ filename, size, content_type }) => [filename, size, content_type])).toEqual([
        ['notes.txt', 5, expect.any(String)],
        ['image.png', 4, 'image/png'],
      ]);
      expect(message.attachments[0]!.url).toMatch(/\/attachments\/81384788765712385\/\d+\/notes\.txt$/);
      // The payload's own attachments name the files (and describe them).
      const form = new FormData();
      form.set(
        'payload_json',
        JSON.stringify({ attachments: [{ id: 0, filename: 'renamed.csv', description: 'numbers' }] }),
      );
      form.set('files[0]', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'upload.csv');
      const raw = await call('POST', `${e2e.service.baseUrl}/channels/${CHANNELS[1]}/messages`, {
        headers: auth,
        body: form,
      });
      expect(raw.status).toBe(200);
      expect(raw.body).toMatchObject({
        content: '',
        attachments: [{ filename: 'renamed.csv', description: 'numbers', size: 8, content_type: 'text/csv' }],
      });
      expect(e2e.service.messages).toHaveLength(2);
    });

    it.each([
      ['an empty message', '{}', { code: 50006, message: 'Cannot send an empty message' }],
      ['a blank one', '{"content":"   "}', { code: 50006 }],
      ['a body that is not JSON', '{"content":', { code: 50109 }],
      [
        'content over 2000 characters',
        JSON.stringify({ content: 'x'.repeat(2001) }),
        { code: 50035, errors: { content: {} } },
      ],
      ['a nonce over 25 characters', JSON.stringify({ content: 'x', nonce: 'n'.repeat(26) }), { code: 50035 }],
      [
        'more than 10 embeds',
        JSON.stringify({ embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }),
        { code: 50035 },
      ],
    ])('%s is a 400 and makes no message', async (_name, body, error) => {
      e2e = await startE2E({ api: 'v10' });
      const answer = await call('POST', `${e2e.service.baseUrl}/channels/${CHANNELS[0]}/messages`, {
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject(error);
      expect(e2e.service.messages).toEqual([]);
      expect(e2e.service.requests.map((r) => r.status)).toEqual([400]);
    });
  });

  describe('enforce_nonce: a nonce used again within a few minutes answers the message made, and makes none', () => {
    it('same channel, caller and nonce: the same message; another channel, caller or nonce: a new one', async () => {
      e2e = await startE2E({ api: 'v10' });
      const { client } = e2e;
      const send = (channel: string, nonce: string, sender = client) =>
        sender.channels.messages.create(channel, { content: `nonce ${nonce}`, nonce, enforce_nonce: true });
      const first = await send(CHANNELS[0]!, 'abc');
      const again = await send(CHANNELS[0]!, 'abc');
      expect(again).toEqual(first);
      expect(e2e.service.createdMessages(CHANNELS[0]!)).toHaveLength(1);
      const elsewhere = await send(CHANNELS[1]!, 'abc');
      const otherNonce = await send(CHANNELS[0]!, 'abd');
      const otherCaller = await send(CHANNELS[0]!, 'abc', e2e.newClient({ token: 'Bot another-caller' }));
      const ids = new Set([first.id, elsewhere.id, otherNonce.id, otherCaller.id]);
      expect(ids.size).toBe(4);
      expect(e2e.service.messages).toHaveLength(4);
      // Every request was answered and counted: the service answered 5 creates, made 4 messages.
      expect(e2e.service.requests.filter((r) => r.method === 'POST' && r.status === 200)).toHaveLength(5);
    });

    it('with enforce_nonce false the same nonce makes another message; a later enforce_nonce finds the last', async () => {
      e2e = await startE2E({ api: 'v10' });
      const create = (enforce_nonce: boolean) =>
        e2e.client.channels.messages.create(CHANNELS[0]!, { content: 'x', nonce: 42, enforce_nonce });
      const first = await create(false);
      const second = await create(false);
      expect(second.id).not.toBe(first.id);
      expect((await create(true)).id).toBe(second.id);
      expect(e2e.service.messages.map((message) => message.nonce)).toEqual([42, 42]);
    });

    it('after the window the nonce is free again', async () => {
      e2e = await startE2E({ api: 'v10' });
      const send = () =>
        e2e.client.channels.messages.create(CHANNELS[0]!, { content: 'x', nonce: 'late', enforce_nonce: true });
      const first = await send();
      await e2e.clock.advance(4 * 60 * 1000);
      expect((await send()).id).toBe(first.id);
      await e2e.clock.advance(60 * 1000 + 1);
      expect((await send()).id).not.toBe(first.id);
      expect(e2e.service.messages).toHaveLength(2);
    });
  });

  describe('each service serves its own API version only', () => {
    const status = async (path: string) => (await call('GET', `${origin()}${path}`, { headers: auth })).status;

    it('without api it speaks v10, as a client without api does', async () => {
      e2e = await startE2E();
      expect(e2e.service.baseUrl).toBe(`${origin()}/api/v10`);
      expect(e2e.client.api).toBe('v10');
      expect(await status('/api/v10/gateway')).toBe(200);
      expect(await status('/api/v6/gateway')).toBe(404);
    });

    it('v6: /api/v6 and /api alone; not /api/v10, another version, or a path outside /api', async () => {
      e2e = await startE2E({ api: 'v6' });
      expect(await status('/api/v6/gateway')).toBe(200);
      expect(await status('/api/gateway')).toBe(200);
      for (const path of ['/api/v10/gateway', '/api/v9/gateway', '/api/v7/gateway', '/gateway', '/api/v6/v10/gateway'])
        expect([path, await status(path)]).toEqual([path, 404]);
      const refused = await call('GET', `${origin()}/api/v10/gateway`, { headers: auth });
      expect(refused.body).toEqual(NOT_FOUND);
    });

    it('v10: /api/v10 (and v8, v9); not /api/v6, /api alone, or another version', async () => {
      e2e = await startE2E({ api: 'v10' });
      expect(await status('/api/v10/gateway')).toBe(200);
      expect(await status('/api/v9/gateway')).toBe(200);
      for (const path of ['/api/v6/gateway', '/api/gateway', '/api/v7/gateway', '/api/v11/gateway', '/v10/gateway'])
        expect([path, await status(path)]).toEqual([path, 404]);
      expect((await call('GET', `${origin()}/api/v6/gateway`, { headers: auth })).body).toEqual(NOT_FOUND);
    });

    it('a v6 client against a v10 service: its calls fail with 404, as they would against the service', async () => {
      e2e = await startE2E({ api: 'v10' });
      const v6 = e2e.newClient({ api: 'v6', baseUrl: `${origin()}/api/v6` });
      await expect(v6.gateway.get()).rejects.toMatchObject({ name: 'HttpError', status: 404 });
    });

    it('a configured basePath is served too', async () => {
      e2e = await startE2E({ api: 'v6', basePath: '' });
      expect(e2e.service.baseUrl).toBe(origin());
      expect(await status('/gateway')).toBe(200);
      expect(await status('/api/v6/gateway')).toBe(200);
      expect(await status('/api/v10/gateway')).toBe(404);
    });
  });
});
