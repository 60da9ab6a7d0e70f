/**
 * Retries that cannot duplicate, and errors that say what happened: which calls are sent again
 * after an attempt that may have reached the service (docs/migrating.md, "Retries and duplicates"), the
 * nonce that makes a message create safe to resend, the caller's abort against the client's
 * timeout, and the per-call `timeout` and `transportRetries`. A scripted fetch plays the service.
 */
import { describe, expect, it } from 'vitest';
import {
  createClient,
  HttpError,
  NetworkError,
  RequestTimeoutError,
  TollgateArgumentError,
  type ClientOptions,
} from '../../src/index.ts';
import { freePorts } from '../support/redis-processes.ts';

const BASE = 'http://127.0.0.1:1/api/v10';
const CHANNEL = '81384788765712384';
const GUILD = '41771983423143937';

type Answer = 'hang' | 'reset' | number;

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/** A client whose fetch answers each attempt with the next scripted answer (then 200 with a message). */
function scripted(answers: Answer[], options: Partial<ClientOptions> = {}) {
  const sent: Sent[] = [];
  const client = createClient({
    baseUrl: BASE,
    token: 'Bot resend',
    timeout: 100,
    ...options,
    fetch: async (input) => {
      const request = input as Request;
      sent.push({ method: request.method, path: new URL(request.url).pathname, body: await request.text() });
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') {
        // Until ky's timeout (or the caller's signal) aborts the attempt.
        return new Promise<Response>((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }),
        );
      }
      if (answer === 'reset') throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      return new Response(JSON.stringify({ id: '1', content: 'ok' }), {
        status: answer,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { client, sent };
}

const noncesOf = (sent: readonly Sent[]) =>
  sent.map((request) => (JSON.parse(request.body) as { nonce?: unknown }).nonce);

describe('a message create is made safe to resend', () => {
  it('gets a nonce the service enforces, and after a timed-out attempt is resent with the same one', async () => {
    const { client, sent } = scripted(['hang']);
    await expect(client.channels.messages.create(CHANNEL, { content: 'once' })).resolves.toMatchObject({ id: '1' });
    expect(sent).toHaveLength(2);
    const [first, again] = sent.map((request) => JSON.parse(request.body) as Record<string, unknown>);
    expect(first).toEqual({ content: 'once', nonce: expect.stringMatching(/^\d{1,25}$/), enforce_nonce: true });
    expect(again).toEqual(first);
    await client.close();
  });

  it.each([['reset' as const], [502], [503], [504]])('is resent after %s', async (answer) => {
    const { client, sent } = scripted([answer]);
    await expect(client.channels.messages.create(CHANNEL, { content: 'x' })).resolves.toMatchObject({ id: '1' });
    expect(sent).toHaveLength(2);
    expect(new Set(noncesOf(sent)).size).toBe(1);
    await client.close();
  });

  it('is not resent after a 500: the service may have made the message and failed after', async () => {
    const { client, sent } = scripted([500]);
    await expect(client.channels.messages.create(CHANNEL, { content: 'x' })).rejects.toBeInstanceOf(HttpError);
    expect(sent).toHaveLength(1);
    await client.close();
  });

  it("keeps the caller's own nonce, and is not resent when the caller turned enforcement off", async () => {
    const own = scripted([]);
    await own.client.channels.messages.create(CHANNEL, { content: 'x', nonce: 'mine-1' });
    expect(JSON.parse(own.sent[0]!.body)).toEqual({ content: 'x', nonce: 'mine-1', enforce_nonce: true });
    await own.client.close();
    const off = scripted(['hang']);
    await expect(
      off.client.channels.messages.create(CHANNEL, { content: 'x', nonce: 'mine-2', enforce_nonce: false }),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(off.sent).toHaveLength(1);
    await off.client.close();
  });

  it('under v6 (no enforce_nonce there) a create is sent as given and never resent', async () => {
    const { client, sent } = scripted(['hang'], { baseUrl: 'http://127.0.0.1:1/api/v6' });
    await expect(client.channels.messages.create(CHANNEL, { content: 'x' })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    expect(sent.map((request) => request.body)).toEqual(['{"content":"x"}']);
    await client.close();
  });
});

describe('which calls are resent after an attempt that may have reached the service', () => {
  it('a POST that is not nonce-safe is never resent (timeout, reset, 503)', async () => {
    for (const answer of ['hang', 'reset', 503] as const) {
      const { client, sent } = scripted([answer]);
      await expect(client.guilds.roles.create(GUILD, { name: 'r' })).rejects.toBeDefined();
      expect(sent).toHaveLength(1);
      await client.close();
    }
  });

  it('a PATCH is never resent', async () => {
    const { client, sent } = scripted(['hang']);
    await expect(client.channels.edit(CHANNEL, { name: 'n' })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(sent).toHaveLength(1);
    await client.close();
  });

  it('GET, PUT and DELETE are resent after a timeout, within transportRetries', async () => {
    const get = scripted(['hang', 'hang']);
    await expect(get.client.channels.get(CHANNEL)).resolves.toMatchObject({ id: '1' });
    expect(get.sent).toHaveLength(3);
    await get.client.close();
    const remove = scripted(['hang', 'hang', 'hang']);
    await expect(remove.client.channels.messages.delete(CHANNEL, '1')).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(remove.sent).toHaveLength(3); // 1 + transportRetries (2)
    await remove.client.close();
  });
});

describe('per-call timeout and transportRetries; aborts are not timeouts', () => {
  it("a call's own timeout and transportRetries override the client's", async () => {
    const { client, sent } = scripted(['hang'], { timeout: 60_000 });
    const error = await client.channels
      .get(CHANNEL, undefined, { timeout: 50, transportRetries: 0 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).timeoutMs).toBe(50);
    expect(sent).toHaveLength(1);
    await client.close();
  });

  it("the caller's AbortSignal.timeout rejects with its TimeoutError, not the client's RequestTimeoutError", async () => {
    const { client, sent } = scripted(['hang'], { timeout: 60_000 });
    const error = await client.channels
      .get(CHANNEL, undefined, { signal: AbortSignal.timeout(30) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect(error).not.toBeInstanceOf(RequestTimeoutError);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(sent).toHaveLength(1);
    await client.close();
  });

  it("the caller's abort rejects with the signal's reason", async () => {
    const { client } = scripted(['hang'], { timeout: 60_000 });
    const controller = new AbortController();
    const call = client.channels.get(CHANNEL, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await client.close();
  });

  it('bad per-call values state the allowed range', async () => {
    const { client, sent } = scripted([]);
    await expect(client.channels.get(CHANNEL, undefined, { timeout: -5 })).rejects.toThrow(
      /timeout must be at least 1 \(a number of milliseconds from 1 to 2147483647, or false for none\)/,
    );
    await expect(client.channels.get(CHANNEL, undefined, { transportRetries: 101 })).rejects.toThrow(
      /transportRetries must be at most 100 \(a whole number from 0 to 100\)/,
    );
    expect(sent).toEqual([]);
    await client.close();
  });
});

describe('errors that say what went wrong', () => {
  it('a network error names the method, the route template, host:port and the cause', async () => {
    const port = (await freePorts(1))[0]!;
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/api/v10`, token: 'Bot r', transportRetries: 0 });
    const error = await client.channels.get(CHANNEL).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(
      `GET /channels/:id to 127.0.0.1:${port} (connection refused: ECONNREFUSED) failed on the network`,
    );
    expect(error).toMatchObject({
      code: 'NETWORK',
      transportCode: 'ECONNREFUSED',
      host: `127.0.0.1:${port}`,
      routeKey: 'ChannelsId',
    });
    await client.close();
  });

  it("a body that breaks off mid-read (connection reset) is a NetworkError too, not the transport's TypeError", async () => {
    const client = createClient({
      baseUrl: BASE,
      token: 'Bot resend',
      fetch: async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"id":'));
              controller.error(Object.assign(new TypeError('terminated'), { cause: { code: 'ECONNRESET' } }));
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    });
    const error = await client.channels.get(CHANNEL).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'NETWORK', transportCode: 'ECONNRESET', routeKey: 'ChannelsId' });
    await client.close();
  });

  it('a body that cannot be JSON (a cycle, a bigint) is refused unsent, naming the method and the field', async () => {
    const { client, sent } = scripted([]);
    const cyclic: Record<string, unknown> = { title: 't' };
    cyclic.self = cyclic;
    await expect(client.channels.messages.create(CHANNEL, { content: 'x', embeds: [cyclic] })).rejects.toThrow(
      /^channels\.messages\.create: body\.embeds\[0\]\.self cannot be sent as JSON: it contains itself \(a cycle\)$/,
    );
    await expect(client.guilds.roles.create(GUILD, { name: 'r', permissions: 8n as never })).rejects.toThrow(
      /^guilds\.roles\.create: body\.permissions cannot be sent as JSON: it is a bigint \(send it as a string\)$/,
    );
    await expect(client.request('POST', '/gateway', { json: { n: 1n } })).rejects.toThrow(TollgateArgumentError);
    expect(sent).toEqual([]);
    await client.close();
  });
});
