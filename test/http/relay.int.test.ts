/**
 * The relay (`createRelay`): fetch, limited, for requests someone else makes and retries. Against
 * the reference service over real HTTP, on the harness's manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GENERATED_HEADER, MemoryStore, SENT_HEADER, TollgateArgumentError, createRelay } from '../../src/index.ts';
import { E2E_TOKEN, startE2E, type E2E } from '../support/e2e.ts';

const CHANNEL = '81384788765712384';
const OTHER_CHANNEL = '81384788765712385';

let e2e: E2E;
afterEach(async () => {
  await e2e.stop();
});

const root = () => e2e.service.baseUrl.replace(/\/v10$/, '');
const messagesOf = (channel: string) => `${root()}/v10/channels/${channel}/messages`;
const post = (content: string, token: string | null = E2E_TOKEN, signal?: AbortSignal): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token !== null && { authorization: token }) },
  body: JSON.stringify({ content }),
  ...(signal && { signal }),
});
const statuses = () => e2e.service.requests.map((request) => request.status);

describe('a relay', () => {
  it('sends a burst within the limits: one probe, then at most Limit per window, zero 429s', async () => {
    e2e = await startE2E({ defaultLimit: { limit: 5, windowMs: 1000 } });
    const relay = e2e.newRelay();
    const results = await e2e.drive(Array.from({ length: 20 }, (_, i) => relay(messagesOf(CHANNEL), post(`#${i}`))));
    const answers = results.map((result) => (result.status === 'fulfilled' ? result.value.status : 0));
    expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
    expect(statuses().filter((status) => status === 429)).toEqual([]);
    const [counted] = new Set(e2e.service.requests.map((request) => request.bucketKey));
    expect(e2e.service.maxPerWindow(counted!)).toBe(5);
    // The body went as it was sent: the service made the message from it.
    expect(e2e.service.messages.map((message) => message.content).sort()).toContain('#19');
  });

  it("hands the service's own 429 back as it came, sent once; V10: the next request waits out a shared one", async () => {
    e2e = await startE2E({ defaultLimit: { limit: 5, windowMs: 1000 } });
    const relay = e2e.newRelay();
    e2e.service.inject({ fault: { kind: 'shared', retryAfterMs: 3000 } });
    const [first] = await e2e.drive([relay(messagesOf(CHANNEL), post('a'))]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { status: 429 } });
    const answer = (first as PromiseFulfilledResult<Response>).value;
    expect(answer.headers.get(GENERATED_HEADER)).toBeNull();
    expect(answer.headers.get('x-ratelimit-scope')).toBe('shared');
    // Its body too, though the limiter read the 429's body to judge it.
    expect(await answer.json()).toMatchObject({ message: 'The resource is being rate limited.' });
    expect(e2e.service.requests).toHaveLength(1);
    const sentAt = e2e.clock.now();
    const [second] = await e2e.drive([relay(messagesOf(CHANNEL), post('b'))]);
    expect(second).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(e2e.service.requests.at(-1)!.at - sentAt).toBeGreaterThanOrEqual(3000);
  });

  it("V11: a sublimit's 429 goes back to the relayer to wait; the bucket's other requests go on", async () => {
    e2e = await startE2E({ defaultLimit: { limit: 5, windowMs: 1000 } });
    const relay = e2e.newRelay();
    e2e.service.inject({ fault: { kind: 'sublimit', retryAfterMs: 3000 } });
    const [first] = await e2e.drive([relay(messagesOf(CHANNEL), post('a'))]);
    expect((first as PromiseFulfilledResult<Response>).value.status).toBe(429);
    const sentAt = e2e.clock.now();
    const [second] = await e2e.drive([relay(messagesOf(CHANNEL), post('b'))]);
    expect((second as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(e2e.service.requests.at(-1)!.at - sentAt).toBeLessThan(1000);
  });

  it("V12: hands a global 429 back, and holds the token's other requests for its wait", async () => {
    e2e = await startE2E({ defaultLimit: { limit: 5, windowMs: 1000 } });
    const relay = e2e.newRelay();
    e2e.service.inject({ fault: { kind: 'global', retryAfterMs: 1000 } });
    const [first] = await e2e.drive([relay(messagesOf(CHANNEL), post('a'))]);
    const answer = (first as PromiseFulfilledResult<Response>).value;
    expect(answer.status).toBe(429);
    expect(answer.headers.get(GENERATED_HEADER)).toBeNull();
    expect(answer.headers.get('x-ratelimit-global')).toBe('true');
    const { retry_after: retryAfter } = (await answer.json()) as { retry_after: number };
    expect(retryAfter).toBeGreaterThan(0);
    const [second] = await e2e.drive([relay(messagesOf(OTHER_CHANNEL), post('b'))]);
    expect((second as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(e2e.service.requests[1]!.at - e2e.service.requests[0]!.at).toBeGreaterThanOrEqual(retryAfter * 1000);
  });

  it('sends once: a 5xx comes back as it came, and a dropped connection fails, neither sent again', async () => {
    e2e = await startE2E();
    const relay = e2e.newRelay();
    e2e.service.inject({ fault: { kind: 'status', status: 502 } });
    const [failed] = await e2e.drive([
      relay(`${root()}/v10/channels/${CHANNEL}`, { headers: { authorization: E2E_TOKEN } }),
    ]);
    expect((failed as PromiseFulfilledResult<Response>).value.status).toBe(502);
    e2e.service.inject({ fault: { kind: 'drop' } });
    const [dropped] = await e2e.drive([
      relay(`${root()}/v10/channels/${CHANNEL}`, { headers: { authorization: E2E_TOKEN } }),
    ]);
    expect(dropped).toMatchObject({ status: 'rejected', reason: { name: 'NetworkError' } });
    expect(statuses()).toEqual([502, 0]);
  });

  it('answers a wait longer than maxWait at once with a 429 of its own, marked, and sends nothing', async () => {
    e2e = await startE2E({ defaultLimit: { limit: 1, windowMs: 10_000 } });
    const relay = e2e.newRelay({ maxWait: 2000 });
    await e2e.drive([relay(messagesOf(CHANNEL), post('a'))]);
    const [refused] = await e2e.drive([relay(messagesOf(CHANNEL), post('b'))]);
    const answer = (refused as PromiseFulfilledResult<Response>).value;
    expect(answer.status).toBe(429);
    expect(answer.headers.get(GENERATED_HEADER)).toBe('RATE_LIMIT_WAIT');
    expect(answer.headers.get(SENT_HEADER)).toBe('0');
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(2);
    expect(retryAfter).toBeLessThanOrEqual(11);
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Math.ceil(Number(answer.headers.get('x-ratelimit-reset-after')))).toBe(retryAfter);
    expect(await answer.json()).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(e2e.service.requests).toHaveLength(1);
  });

  it('hands a 401 back, then answers for a token known dead without sending', async () => {
    e2e = await startE2E({ validTokens: [E2E_TOKEN] });
    const relay = e2e.newRelay();
    const [rejected] = await e2e.drive([relay(messagesOf(CHANNEL), post('a', 'Bot revoked-token-1'))]);
    expect((rejected as PromiseFulfilledResult<Response>).value.status).toBe(401);
    const [again] = await e2e.drive([relay(messagesOf(CHANNEL), post('b', 'Bot revoked-token-1'))]);
    const answer = (again as PromiseFulfilledResult<Response>).value;
    expect(answer.status).toBe(401);
    expect(answer.headers.get(GENERATED_HEADER)).toBe('TOKEN_INVALID');
    expect(await answer.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    // Another token has a lane of its own, untouched.
    const [valid] = await e2e.drive([relay(messagesOf(CHANNEL), post('c'))]);
    expect((valid as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(statuses()).toEqual([401, 200]);
  });

  it('V16: a 401 from a route that turns bot tokens away leaves the token good for every other route', async () => {
    e2e = await startE2E();
    const relay = e2e.newRelay();
    const roleConnection = `${root()}/v10/users/%40me/applications/81384788765712390/role-connection`;
    const [refused] = await e2e.drive([relay(roleConnection, { headers: { authorization: E2E_TOKEN } })]);
    expect((refused as PromiseFulfilledResult<Response>).value.status).toBe(401);
    const [sent] = await e2e.drive([relay(messagesOf(CHANNEL), post('still good'))]);
    expect((sent as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(statuses()).toEqual([401, 200]);
    // It was an invalid request all the same (V15).
    expect(e2e.service.invalidRequests).toBe(1);
  });

  it('hands a deleted webhook 404 back, then answers for it without sending', async () => {
    e2e = await startE2E({ deletedWebhooks: ['223704706495545344'] });
    const relay = e2e.newRelay();
    const url = `${root()}/v10/webhooks/223704706495545344/secret-token?wait=true`;
    const send = () => relay(url, post('hello', null));
    const [gone] = await e2e.drive([send()]);
    expect((gone as PromiseFulfilledResult<Response>).value.status).toBe(404);
    const [again] = await e2e.drive([send()]);
    const answer = (again as PromiseFulfilledResult<Response>).value;
    expect(answer.status).toBe(404);
    expect(answer.headers.get(GENERATED_HEADER)).toBe('WEBHOOK_GONE');
    expect(await answer.json()).toEqual({ message: 'Unknown Webhook', code: 10015 });
    expect(statuses()).toEqual([404]);
  });

  it('keeps a lane per token: two tokens each get their own global budget', async () => {
    const tokens = ['Bot token-one-aaaa', 'Bot token-two-bbbb'];
    e2e = await startE2E({ global: { limit: 5, windowMs: 1000 }, defaultLimit: { limit: 50, windowMs: 1000 } });
    const relay = e2e.newRelay({ globalLimit: 5 });
    const start = e2e.clock.now();
    const calls = tokens.flatMap((token) =>
      Array.from({ length: 10 }, (_, i) => relay(messagesOf(i % 2 ? CHANNEL : OTHER_CHANNEL), post(`${i}`, token))),
    );
    const results = await e2e.drive(calls, 50);
    expect(results.every((result) => result.status === 'fulfilled' && result.value.status === 200)).toBe(true);
    expect(statuses().filter((status) => status === 429)).toEqual([]);
    // 10 a token at 5 a second each: about 1 s, not the 3 s one shared budget of 5 would take.
    expect(e2e.service.requests.at(-1)!.at - start).toBeLessThan(2000);
  });

  it('gives the place back when its caller aborts the wait: nothing is sent, and the next one goes', async () => {
    e2e = await startE2E({ defaultLimit: { limit: 1, windowMs: 2000 } });
    const relay = e2e.newRelay({ maxWait: 60_000 });
    await e2e.drive([relay(messagesOf(CHANNEL), post('a'))]);
    const controller = new AbortController();
    const waiting = relay(messagesOf(CHANNEL), post('b', E2E_TOKEN, controller.signal));
    const failed = expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await e2e.clock.advance(500);
    controller.abort();
    await failed;
    const [next] = await e2e.drive([relay(messagesOf(CHANNEL), post('c'))]);
    expect((next as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(e2e.service.messages.map((message) => message.content)).toEqual(['a', 'c']);
  });

  it('streams a body through as it is', async () => {
    e2e = await startE2E();
    const relay = e2e.newRelay();
    const text = JSON.stringify({ content: 'streamed' });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        controller.enqueue(bytes.subarray(0, 5));
        controller.enqueue(bytes.subarray(5));
        controller.close();
      },
    });
    const init = { method: 'POST', headers: { authorization: E2E_TOKEN, 'content-type': 'application/json' }, body };
    const [sent] = await e2e.drive([relay(messagesOf(CHANNEL), init)]);
    expect((sent as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(e2e.service.messages.map((message) => message.content)).toEqual(['streamed']);
  });

  it('sends to the version asked for, query and all', async () => {
    e2e = await startE2E();
    const relay = e2e.newRelay();
    const [other] = await e2e.drive([
      relay(`${root()}/v6/channels/${CHANNEL}`, { headers: { authorization: E2E_TOKEN } }),
    ]);
    // The service speaks v8 to v10: the v6 request reached it as v6.
    expect((other as PromiseFulfilledResult<Response>).value.status).toBe(404);
    const [listed] = await e2e.drive([
      relay(`${messagesOf(CHANNEL)}?limit=2`, { headers: { authorization: E2E_TOKEN } }),
    ]);
    expect((listed as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(statuses()).toEqual([404, 200]);
  });

  it("passes the caller's headers on, but never X-RateLimit-Precision (V22)", async () => {
    const seen: Headers[] = [];
    e2e = await startE2E({}, (input, init) => {
      seen.push(new Request(input, init).headers);
      return fetch(input, init);
    });
    const relay = e2e.newRelay();
    const headers = { authorization: E2E_TOKEN, 'x-ratelimit-precision': 'millisecond', 'x-audit-log-reason': 'kept' };
    const [sent] = await e2e.drive([relay(`${root()}/v10/channels/${CHANNEL}`, { headers })]);
    expect((sent as PromiseFulfilledResult<Response>).value.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.get('x-ratelimit-precision')).toBeNull();
    expect(seen[0]!.get('x-audit-log-reason')).toBe('kept');
    expect(seen[0]!.get('authorization')).toBe(E2E_TOKEN);
  });

  it('classifies a path as fetch sends it: dot segments resolved, so a detour through a webhook counts where it lands', async () => {
    e2e = await startE2E({ defaultLimit: { limit: 1, windowMs: 10_000 } });
    const relay = e2e.newRelay({ maxWait: 2000 });
    await e2e.drive([relay(messagesOf(CHANNEL), post('first'))]);
    const detour = `${root()}/v10/webhooks/223704706495545344/x/../../../channels/${CHANNEL}/messages`;
    const [refused] = await e2e.drive([relay(detour, post('second'))]);
    expect((refused as PromiseFulfilledResult<Response>).value.headers.get(GENERATED_HEADER)).toBe('RATE_LIMIT_WAIT');
    expect(e2e.service.requests).toHaveLength(1);
  });

  it('keeps at most maxTokens lanes, and a token whose lane went still gets one', async () => {
    e2e = await startE2E();
    const relay = e2e.newRelay({ maxTokens: 2 });
    for (const token of ['Bot aaaa-1', 'Bot bbbb-2', 'Bot cccc-3', 'Bot aaaa-1']) {
      const [sent] = await e2e.drive([relay(messagesOf(CHANNEL), post(token, token))]);
      expect((sent as PromiseFulfilledResult<Response>).value.status).toBe(200);
    }
  });

  it('many tokens in turn: the store lets go of a token whose lane went, once its limits are over', async () => {
    e2e = await startE2E();
    const store = new MemoryStore();
    const relay = e2e.newRelay({ maxTokens: 2, store });
    let most = 0;
    for (let index = 0; index < 30; index++) {
      const token = `Bot token-${index}`;
      const [sent] = await e2e.drive([relay(messagesOf(CHANNEL), post(token, token))]);
      expect((sent as PromiseFulfilledResult<Response>).value.status).toBe(200);
      most = Math.max(most, store.viewCount);
      await e2e.clock.advance(700);
    }
    // 30 tokens and the IP's lane went through; held: the two lanes, the IP's, and what a window still runs for.
    expect(most).toBeLessThanOrEqual(8);
  });

  it('refuses a URL outside its API root, a bad method and bad options, with clear errors', async () => {
    e2e = await startE2E();
    const relay = e2e.newRelay();
    await expect(
      relay('https://example.com/api/v10/users/@me', { headers: { authorization: E2E_TOKEN } }),
    ).rejects.toThrow(
      new TollgateArgumentError(
        `relay: https://example.com/api/v10/users/@me is not under the API root ${root()} (set apiRoot to relay to another)`,
      ),
    );
    await expect(relay(`${root()}-evil/v10/users/@me`)).rejects.toBeInstanceOf(TollgateArgumentError);
    await expect(relay(messagesOf(CHANNEL), { method: 'GE T' })).rejects.toThrow(/is not a method/);
    expect(() => createRelay({ maxWait: -1 })).toThrow(/createRelay: maxWait must not be negative/);
    expect(() => createRelay({ apiRoot: 'https://discord.com/api/v10' })).toThrow(/must not name a version/);
    expect(() => createRelay({ maxTokens: 0 } as never)).toThrow(/maxTokens must be at least 1/);
    expect(() => createRelay({ token: 'Bot x' } as never)).toThrow(/createRelay: Unrecognized key/);
    expect(e2e.service.requests).toEqual([]);
  });
});
