/**
 * The proxy (`createProxy`) over real HTTP: plain fetch clients, as a bot in another language
 * would send, through the proxy to the reference service speaking Discord's headers.
 */
import type * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createProxy, type Proxy, type ProxyOptions } from '../../src/proxy/index.ts';
import { ReferenceService, type ReferenceServiceOptions } from '../../src/testing/index.ts';

/**
 * crypto.timingSafeEqual, watched: each comparison is recorded, and `verdict` (when set) stands in
 * for its answer, so a test sees whether the proxy's decision is the constant-time comparison's.
 */
const safeEqual = vi.hoisted(() => ({ calls: [] as [string, string][], verdict: undefined as boolean | undefined }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      const text = (view: NodeJS.ArrayBufferView) =>
        Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('latin1');
      safeEqual.calls.push([text(a), text(b)]);
      return safeEqual.verdict ?? actual.timingSafeEqual(a, b);
    },
  };
});

const TOKEN = 'Bot ODAzNTExMTAyMjQ2Nzg5MTI.proxy.test-token';
const CHANNEL = '81384788765712384';
const SECRET = 'a-proxy-secret-of-32-characters!';

interface Running {
  readonly service: ReferenceService;
  readonly proxy: Proxy;
  readonly logs: string[];
}

const running: Running[] = [];
afterEach(async () => {
  for (const { proxy, service } of running.splice(0)) {
    await proxy.close();
    await service.stop();
  }
});

async function start(options: Partial<ProxyOptions> = {}, limits: Omit<ReferenceServiceOptions, 'dialect'> = {}) {
  const service = await new ReferenceService({ dialect: 'discord', ...limits }).start();
  const logs: string[] = [];
  const proxy = await createProxy({
    port: 0,
    upstream: new URL(service.baseUrl).origin,
    logLevel: 'debug',
    log: (line) => logs.push(line),
    ...options,
  });
  const started = { service, proxy, logs };
  running.push(started);
  return started;
}

const messages = (proxy: Proxy, channel = CHANNEL) => `${proxy.url}/api/v10/channels/${channel}/messages`;
const post = (content: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { authorization: TOKEN, 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ content }),
});

/** Sends raw bytes (then hangs up, with `hangUp`) and reads until the proxy closes or answers a status line. */
async function raw(url: string, text: string, hangUp = false): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => (hangUp ? socket.end(text) : socket.write(text)));
    let answer = '';
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer: ${answer}`)));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) socket.end();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('what a bot sees', () => {
  it('a burst goes through within the limits: zero 429s, answers as the service sent them', async () => {
    const { service, proxy } = await start({}, { defaultLimit: { limit: 3, windowMs: 1000 } });
    const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => fetch(messages(proxy), post(`#${i}`))));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 7 }, () => 200));
    expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
    const last = answers.at(-1)!;
    expect(last.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]+$/);
    expect(last.headers.get('x-tollgate-proxy')).toBeNull();
    expect(((await last.json()) as { content: string }).content).toMatch(/^#\d$/);
    expect(service.messages).toHaveLength(7);
  });

  it('X-Tollgate-Max-Wait: a longer wait is answered at once with a marked 429, and nothing is sent', async () => {
    const { service, proxy } = await start({}, { defaultLimit: { limit: 1, windowMs: 10_000 } });
    expect((await fetch(messages(proxy), post('first'))).status).toBe(200);
    const refused = await fetch(messages(proxy), post('second', { 'x-tollgate-max-wait': '100' }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-tollgate-proxy')).toBe('generated');
    expect(refused.headers.get('x-tollgate-sent')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(service.requests).toHaveLength(1);
    const malformed = await fetch(messages(proxy), post('third', { 'x-tollgate-max-wait': 'soon' }));
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-tollgate-proxy')).toBe('generated');
    expect(service.requests).toHaveLength(1);
  });

  it('its own bound on waits (maxWait) holds for a bot that names none', async () => {
    const { service, proxy } = await start({ maxWait: 200 }, { defaultLimit: { limit: 1, windowMs: 10_000 } });
    await fetch(messages(proxy), post('first'));
    expect((await fetch(messages(proxy), post('second'))).status).toBe(429);
    expect(service.requests).toHaveLength(1);
  });

  it('a bot that hangs up while it waits gives its place back, and nothing is sent', async () => {
    const { service, proxy } = await start({}, { defaultLimit: { limit: 1, windowMs: 1500 } });
    await fetch(messages(proxy), post('first'));
    const controller = new AbortController();
    const waiting = fetch(messages(proxy), { ...post('gone'), signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect((await fetch(messages(proxy), post('next'))).status).toBe(200);
    expect(service.messages.map((message) => message.content)).toEqual(['first', 'next']);
  });

  it('exempt interaction callbacks go at once, without the global pace, while the token has spent it', async () => {
    const { service, proxy } = await start({ globalLimit: 2 }, { global: { limit: 2, windowMs: 1000 } });
    for (const answer of await Promise.all(
      [0, 1].map(() => fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, { headers: { authorization: TOKEN } })),
    )) {
      expect(answer.status).toBe(200);
    }
    const spentAt = Date.now();
    const callbacks = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        fetch(`${proxy.url}/api/v10/interactions/${81384788765712390n + BigInt(i)}/interaction-token-${i}/callback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 4, data: { content: 'pong' } }),
        }),
      ),
    );
    expect(callbacks.map((answer) => answer.status)).toEqual(Array.from({ length: 7 }, () => 204));
    // Held by the pace, seven at 2 a second would take 3 s and more.
    expect(Date.now() - spentAt).toBeLessThan(2000);
    expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
  });

  it("a bot's own global limit (botGlobalLimits): its requests go as its limit allows, another bot's and a Bearer token's as the default", async () => {
    // Every request is held upstream until the end, so each counts in its token's pace at once: a
    // request its limit has no place for is refused on the spot (a bound of 0), whatever the time.
    const sent: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { proxy } = await start({
      globalLimit: 1,
      botGlobalLimits: { '80351110224678912': 3 },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push(request.headers.get('authorization')!);
        await held;
        return fetch(request);
      },
    });
    const other = 'Bot MTc1OTI4ODQ3Mjk5MTE3MDYz.proxy.other-bot';
    // A user's token that opens as the bot's does: overrides are a bot's, never a Bearer token's.
    const user = `Bearer ${TOKEN.split(' ')[1]}`;
    const tokens = [TOKEN, TOKEN, TOKEN, other, other, user, user];
    const answers = tokens.map((authorization, i) =>
      fetch(
        messages(proxy, String(81384788765712384n + BigInt(i))),
        post(`#${i}`, { authorization, 'x-tollgate-max-wait': '0' }),
      ),
    );
    // Released whatever happens: nothing stays held for the proxy's close.
    onTestFinished(release);
    const refused = await Promise.all([answers[4]!, answers[6]!]);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get('x-tollgate-generated')).toBe('RATE_LIMIT_WAIT');
      expect(answer.headers.get('x-ratelimit-global')).toBe('true');
    }
    for (let attempt = 0; attempt < 200 && sent.length < 5; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent.sort()).toEqual([user, other, TOKEN, TOKEN, TOKEN].sort());
    release();
    // The service's own answers (a Bearer token may not post: its 401), none the proxy's.
    const generated = await Promise.all(
      answers.map(async (answer) => (await answer).headers.has('x-tollgate-generated')),
    );
    expect(generated).toEqual([false, false, false, false, true, false, true]);
  });

  it("a revoked token: the service's 401, then the proxy's own, marked, without sending", async () => {
    const { service, proxy } = await start({}, { validTokens: ['Bot someone-else'] });
    expect((await fetch(messages(proxy), post('a'))).status).toBe(401);
    const again = await fetch(messages(proxy), post('b'));
    expect(again.status).toBe(401);
    expect(again.headers.get('x-tollgate-proxy')).toBe('generated');
    expect(again.headers.get('x-tollgate-generated')).toBe('TOKEN_INVALID');
    expect(service.requests).toHaveLength(1);
  });

  it('a multipart upload is streamed through', async () => {
    const { service, proxy } = await start();
    const form = new FormData();
    form.append(
      'payload_json',
      JSON.stringify({ content: 'with a file', attachments: [{ id: 0, filename: 'a.txt' }] }),
    );
    form.append('files[0]', new Blob(['hello file']), 'a.txt');
    const answer = await fetch(messages(proxy), { method: 'POST', headers: { authorization: TOKEN }, body: form });
    expect(answer.status).toBe(200);
    expect(service.messages[0]).toMatchObject({ content: 'with a file', attachments: [{ filename: 'a.txt' }] });
  });

  it('/healthz is alive; /readyz is ready, then not while draining or with the store away', async () => {
    let storeUp = true;
    const { proxy } = await start({ storeReady: async () => storeUp });
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200);
    storeUp = false;
    const away = await fetch(`${proxy.url}/readyz`);
    expect([away.status, await away.json()]).toEqual([503, { status: 'store unreachable' }]);
  });

  it('logs a line per request naming the bot by its id and the route by its template, never the token', async () => {
    const { proxy, logs } = await start();
    await fetch(`${proxy.url}/api/v10/webhooks/223704706495545344/webhook-secret-token`, post('hook'));
    await fetch(messages(proxy), post('hello'));
    const lines = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.msg === 'request')).toMatchObject([
      { method: 'POST', route: 'POST /webhooks/:id/:token', bot: 'bot 80351110224678912', status: 204 },
      { method: 'POST', route: 'POST /channels/:id/messages', bot: 'bot 80351110224678912', status: 200 },
    ]);
    const all = logs.join('\n');
    expect(all).not.toContain('proxy.test-token');
    expect(all).not.toContain('webhook-secret-token');
  });

  it('no log line, at any level, holds 4 characters running of a token: in Authorization (bot, Bearer, malformed) or in the path', async () => {
    const { proxy, logs } = await start({ logLevel: 'debug' });
    // Tokens of letters and digits no log line has otherwise (no hex, no run of 4 digits).
    const bot = 'ODAzNTExMTAyMjQ2Nzg5MTI.GqXvLm.RkP7wQzN3yHbJ5uTcF9sDe';
    const bearer = 'Xq9LmWvRtYpKzNsHcGhJ';
    const malformed = ['NoGoodCredQzWvXkPf', 'ODAzNTExMTAyMjQ2Nzg5MTI.NoSchemeKwPv'];
    const webhook = 'WbKqZtNxLpRvYmHcQjTs';
    const interaction = 'IaTkVbQwLmZxRpNcGhYd';
    const mistyped = 'MtYpQrZwKvNxLbGjHsDc';
    const get = (path: string, authorization?: string) =>
      fetch(`${proxy.url}/api/v10${path}`, authorization === undefined ? {} : { headers: { authorization } });
    const statuses = [
      (await get(`/channels/${CHANNEL}`, `Bot ${bot}`)).status,
      (await get('/users/@me', `Bearer ${bearer}`)).status,
      (await get(`/channels/${CHANNEL}`, `Bot ${malformed[0]}`)).status,
      (await get(`/channels/${CHANNEL}`, malformed[1])).status,
      (await fetch(`${proxy.url}/api/v10/webhooks/223704706495545344/${webhook}`, post('hook'))).status,
      (await get(`/webhooks/223704706495545344/${webhook}/messages/@original`)).status,
      (
        await fetch(`${proxy.url}/api/v10/interactions/81384788765712390/${interaction}/callback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 4, data: { content: 'pong' } }),
        })
      ).status,
      (await fetch(`${proxy.url}/api/v10/webhook/223704706495545344/${mistyped}`, post('x'))).status,
    ];
    await proxy.close();
    const lines = logs.map((line) => JSON.parse(line) as { level: string; msg: string });
    // Every request was logged (debug), besides the start and the stop (info).
    expect(lines.filter((line) => line.msg === 'request')).toHaveLength(statuses.length);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['listening', 'closed']));
    const all = logs.join('\n');
    for (const token of [bot, bearer, ...malformed, webhook, interaction, mistyped]) {
      for (let at = 0; at + 4 <= token.length; at++) expect(all, token).not.toContain(token.slice(at, at + 4));
    }
  });
});

describe('metrics', () => {
  it('GET /metrics: requests by route and status class, 429s by scope, waits, the queue, the budget, the store; no token or id', async () => {
    const { proxy } = await start({ metrics: true }, { defaultLimit: { limit: 1, windowMs: 10_000 } });
    await fetch(messages(proxy), post('first'));
    await fetch(messages(proxy), post('second', { 'x-tollgate-max-wait': '0' }));
    const answer = await fetch(`${proxy.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    const text = await answer.text();
    expect(text).toContain(
      'tollgate_proxy_requests_total{route="POST /channels/:id/messages",status_class="2xx",generated="false"} 1',
    );
    expect(text).toContain(
      'tollgate_proxy_requests_total{route="POST /channels/:id/messages",status_class="4xx",generated="true"} 1',
    );
    expect(text).toContain('tollgate_proxy_rate_limited_total{scope="proxy"} 1');
    expect(text).toMatch(/tollgate_proxy_wait_seconds_count \d+/);
    expect(text).toContain('tollgate_proxy_requests_under_way 0');
    expect(text).toMatch(/tollgate_proxy_invalid_request_budget 9000/);
    expect(text).toContain('tollgate_proxy_store_up 1');
    expect(text).not.toContain(CHANNEL);
    expect(text).not.toContain('test-token');
    // A mistyped path with a token in it: the segment is masked in labels and logs.
    await fetch(`${proxy.url}/api/v10/webhook/223704706495545344/MistypedWebhookToken`, post('x'));
    const after = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(after).toContain('route="POST /webhook/:id/:?"');
    expect(after).not.toContain('MistypedWebhookToken');
  });

  it('GET /metrics: an API request the proxy refused before the relay saw it counts under route "-"', async () => {
    const { proxy, logs } = await start({ metrics: true, secret: SECRET });
    expect((await fetch(messages(proxy), post('no key'))).status).toBe(401);
    const text = await (await fetch(`${proxy.url}/metrics`, { headers: { 'x-tollgate-proxy-key': SECRET } })).text();
    expect(text).toContain('tollgate_proxy_requests_total{route="-",status_class="4xx",generated="true"} 1');
    expect(logs.some((line) => line.includes('"route":"-"') && line.includes('"status":401'))).toBe(true);
  });

  it('OpenTelemetry, when given providers: a span per request with its attempt, by route template', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const { proxy } = await start({ telemetry: { tracerProvider } });
    expect((await fetch(messages(proxy), post('traced'))).status).toBe(200);
    const finished = spans.getFinishedSpans();
    expect(finished.map((span) => [span.kind, span.name])).toEqual([
      [2, 'POST /channels/{id}/messages'], // CLIENT: the attempt
      [0, 'POST /channels/{id}/messages'], // INTERNAL: the request
    ]);
    expect(JSON.stringify(finished.map((span) => [span.attributes, span.events]))).not.toMatch(
      new RegExp(`${CHANNEL}|${TOKEN.split(' ')[1]}`),
    );
  });

  it('serves no /metrics unless asked to', async () => {
    const { proxy } = await start();
    expect((await fetch(`${proxy.url}/metrics`)).status).toBe(404);
  });
});

describe('not an open relay, and closed by default', () => {
  it('listens on 127.0.0.1 unless told otherwise', async () => {
    const { proxy } = await start();
    expect(new URL(proxy.url).hostname).toBe('127.0.0.1');
  });

  it('with a secret, a request without the key gets a marked 401 and goes nowhere; the key itself is not forwarded', async () => {
    const { service, proxy } = await start({ secret: SECRET });
    for (const key of [undefined, 'wrong-key', `${SECRET}x`]) {
      const answer = await fetch(messages(proxy), post('x', key === undefined ? {} : { 'x-tollgate-proxy-key': key }));
      expect(answer.status).toBe(401);
      expect(answer.headers.get('x-tollgate-proxy')).toBe('generated');
      expect(answer.headers.get('x-tollgate-generated')).toBe('PROXY_KEY');
    }
    expect(service.requests).toHaveLength(0);
    expect((await fetch(messages(proxy), post('ok', { 'x-tollgate-proxy-key': SECRET }))).status).toBe(200);
    expect(service.requests).toHaveLength(1);
  });

  it("compares the key in constant time: the answer is crypto.timingSafeEqual's, over the whole key's digest, whatever its length", async () => {
    const { service, proxy } = await start({ secret: SECRET });
    onTestFinished(() => {
      safeEqual.calls.length = 0;
      safeEqual.verdict = undefined;
    });
    const digest = (key: string) => createHash('sha256').update(key).digest().toString('latin1');
    // Wrong in its first byte, in its last, shorter, longer: each compared whole, by timingSafeEqual,
    // as digests of one length (a key of another length is not turned away any sooner).
    for (const key of [`b${SECRET.slice(1)}`, `${SECRET.slice(0, -1)}?`, SECRET.slice(0, 5), `${SECRET}!`]) {
      safeEqual.calls.length = 0;
      expect((await fetch(messages(proxy), post('x', { 'x-tollgate-proxy-key': key }))).status).toBe(401);
      expect(safeEqual.calls).toEqual([[digest(key), digest(SECRET)]]);
    }
    safeEqual.calls.length = 0;
    expect((await fetch(messages(proxy), post('ok', { 'x-tollgate-proxy-key': SECRET }))).status).toBe(200);
    expect(safeEqual.calls).toEqual([[digest(SECRET), digest(SECRET)]]);
    // Its verdict is the proxy's: a comparison that said no turns the right key away, and one
    // that said yes lets a wrong key in.
    safeEqual.verdict = false;
    expect((await fetch(messages(proxy), post('no', { 'x-tollgate-proxy-key': SECRET }))).status).toBe(401);
    safeEqual.verdict = true;
    expect(
      (await fetch(messages(proxy), post('yes', { 'x-tollgate-proxy-key': 'x'.repeat(SECRET.length) }))).status,
    ).toBe(200);
    expect(service.messages.map((message) => message.content)).toEqual(['ok', 'yes']);
  });

  it('forwards only /api/ paths, to its upstream alone: not an absolute target, not CONNECT, not where Host points', async () => {
    const { service, proxy } = await start();
    expect((await fetch(`${proxy.url}/admin`)).status).toBe(404);
    expect(
      await raw(proxy.url, 'GET http://example.com/api/v10/users/@me HTTP/1.1\r\nHost: example.com\r\n\r\n'),
    ).toMatch(/^HTTP\/1.1 400 /);
    expect(await raw(proxy.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')).toMatch(
      /^HTTP\/1.1 405 /,
    );
    const steered = await raw(
      proxy.url,
      `GET /api/v10/channels/${CHANNEL} HTTP/1.1\r\nHost: example.com\r\nAuthorization: ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    expect(steered).toMatch(/^HTTP\/1.1 200 /);
    expect(service.requests).toHaveLength(1);
  });

  it('marks each answer of its own with why, in X-Tollgate-Generated, and with X-Tollgate-Sent: 0', async () => {
    const { service, proxy } = await start();
    const outside = await fetch(`${proxy.url}/admin`);
    expect([outside.status, outside.headers.get('x-tollgate-generated')]).toEqual([404, 'PROXY_NOT_FOUND']);
    const badWait = await fetch(messages(proxy), post('x', { 'x-tollgate-max-wait': '-1' }));
    expect([badWait.status, badWait.headers.get('x-tollgate-generated')]).toEqual([400, 'PROXY_BAD_MAX_WAIT']);
    const twice = await raw(
      proxy.url,
      `GET /api/v10/channels/${CHANNEL} HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\nAuthorization: ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    expect(twice).toMatch(/^HTTP\/1.1 400 [^]*\r\nx-tollgate-generated: PROXY_BAD_REQUEST\r\n/i);
    // Written on the socket by hand, before any request object exists: the same marks.
    const byHand = {
      'GARBAGE\r\n\r\n': '400 Bad Request\r\n[^]*x-tollgate-generated: PROXY_BAD_REQUEST',
      'GET http://example.com/api/v10/users/@me HTTP/1.1\r\nHost: example.com\r\n\r\n':
        '400 [^]*x-tollgate-generated: PROXY_BAD_REQUEST',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n': '405 [^]*x-tollgate-generated: PROXY_METHOD',
      [`GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`]:
        '431 [^]*x-tollgate-generated: PROXY_HEADERS_TOO_LARGE',
    };
    for (const [request, answer] of Object.entries(byHand)) {
      const written = await raw(proxy.url, request);
      expect(written).toMatch(new RegExp(`^HTTP/1.1 ${answer}\r\n`, 'i'));
      expect(written).toMatch(/\r\nx-tollgate-sent: 0\r\n/i);
      expect(written).toMatch(/\r\nx-tollgate-proxy: generated\r\n/i);
    }
    expect(service.requests).toHaveLength(0);
  });

  it('refuses a body over maxBody: by its length at once, or streamed, when it passes the bound', async () => {
    const { service, proxy } = await start({ maxBody: 1024 });
    const declared = await fetch(messages(proxy), post('x'.repeat(2000)));
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('y'.repeat(512)));
        controller.close();
      },
    });
    const streamed = await fetch(messages(proxy), {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(service.messages).toHaveLength(0);
  });

  it('a body of exactly maxBody bytes goes, one byte more gets a 413: by Content-Length, and streamed (chunked)', async () => {
    const maxBody = 1024;
    const { service, proxy } = await start({ maxBody });
    /** A message whose JSON body is `size` bytes. */
    const body = (size: number, mark: string) =>
      JSON.stringify({ content: mark.padEnd(size - '{"content":""}'.length, '.') });
    /** The same bytes in three chunks, without a length: fetch sends them chunked. */
    const chunked = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(text);
          for (const at of [0, 500, 1000]) controller.enqueue(bytes.subarray(at, at === 1000 ? undefined : at + 500));
          controller.close();
        },
      });
    const send = (text: string, streamed: boolean) =>
      fetch(messages(proxy), {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: streamed ? chunked(text) : text,
        duplex: 'half',
      } as RequestInit);
    for (const streamed of [false, true]) {
      expect(Buffer.byteLength(body(maxBody, 'exact'))).toBe(maxBody);
      const exact = await send(body(maxBody, `exact ${streamed}`), streamed);
      expect([streamed, exact.status]).toEqual([streamed, 200]);
      const over = await send(body(maxBody + 1, `over ${streamed}`), streamed);
      expect([streamed, over.status]).toEqual([streamed, 413]);
      expect(over.headers.get('x-tollgate-proxy')).toBe('generated');
      expect(over.headers.get('x-tollgate-generated')).toBe('PROXY_BODY_TOO_LARGE');
    }
    // A length one byte over is refused by itself, before any of the body comes.
    const declaredOnly = `POST /api/v10/channels/${CHANNEL}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${maxBody + 1}\r\n\r\n`;
    expect(await raw(proxy.url, declaredOnly)).toMatch(/^HTTP\/1.1 413 /);
    expect(service.messages.map((message) => message.content.replace(/\.+$/, ''))).toEqual([
      'exact false',
      'exact true',
    ]);
  });

  it('answers malformed requests with a 4xx and keeps serving: bad request lines, huge headers, a lying length', async () => {
    const { service, proxy } = await start();
    expect(await raw(proxy.url, 'GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1.1 400 /);
    expect(
      await raw(proxy.url, `GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`),
    ).toMatch(/^HTTP\/1.1 431 /);
    expect(
      await raw(
        proxy.url,
        'GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n',
      ),
    ).toMatch(/^HTTP\/1.1 400 /);
    // A length that promises more than comes, then hangs up: nothing breaks.
    const cut = `POST /api/v10/channels/${CHANNEL}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\nContent-Length: 100\r\n\r\n{"con`;
    await raw(proxy.url, cut, true);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    expect((await fetch(messages(proxy), post('after'))).status).toBe(200);
    expect(service.messages.map((message) => message.content)).toEqual(['after']);
  });

  it('a client that sends its headers or its body too slowly gets a 408 and is cut off; the proxy keeps serving', async () => {
    const { proxy } = await start({ headersTimeout: 300, maxWait: 200, requestTimeout: 600 });
    const { hostname, port } = new URL(proxy.url);
    /** Sends `first`, then `drip` every 100 ms (at most 40 times) until the proxy answers or hangs up. */
    const slowly = (first: string, drip: string) =>
      new Promise<{ answer: string; ms: number }>((resolve, reject) => {
        const started = performance.now();
        let answer = '';
        let drips = 0;
        const socket = connect(Number(port), hostname, () => socket.write(first));
        const timer = setInterval(() => {
          if (++drips > 40 || socket.destroyed) return clearInterval(timer);
          socket.write(drip);
        }, 100);
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ answer, ms: performance.now() - started });
        });
        socket.on('error', () => {}); // a write after the proxy hung up: the close says the rest
        socket.setTimeout(8000, () => socket.destroy(new Error('never cut off')));
        socket.once('timeout', () => reject(new Error('never cut off')));
      });
    const headers = await slowly(`GET /api/v10/channels/${CHANNEL} HTTP/1.1\r\nHost: x\r\n`, 'X-Drip: 1\r\n');
    expect(headers.answer).toMatch(/^HTTP\/1.1 408 /);
    expect(headers.ms).toBeLessThan(3000);
    const body = await slowly(
      `POST /api/v10/channels/${CHANNEL}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      ' ',
    );
    expect(body.answer).toMatch(/^HTTP\/1.1 408 /);
    expect(body.ms).toBeLessThan(3000);
    expect((await fetch(messages(proxy), post('after'))).status).toBe(200);
    await expect(createProxy({ maxWait: 1000, requestTimeout: 1000 })).rejects.toThrow(
      /requestTimeout must be longer than maxWait/,
    );
  });

  it('a large maxWait is not cut short by a request timeout Node cannot hold (it keeps 32 bits: 2^32 + 200 ms would be 200 ms)', async () => {
    // The derived request timeout (the longest wait + 60 s) is 2^32 + 200 ms here.
    const { proxy } = await start({ maxWait: 2 ** 32 - 60_000 + 200, headersTimeout: 100 });
    const body = JSON.stringify({ content: 'slow but allowed' });
    const { hostname, port } = new URL(proxy.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          `POST /api/v10/channels/${CHANNEL}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, -1)}`,
        ),
      );
      // The last byte after 700 ms: far within the wait allowed, past what a wrapped timeout gives.
      const timer = setTimeout(() => socket.write(body.slice(-1)), 700);
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1.1 200 /);
  });

  it('refuses timeouts Node would not take: fractions, and headers allowed longer than the whole request', async () => {
    await expect(createProxy({ headersTimeout: 1000.5 })).rejects.toThrow(/headersTimeout must be a whole number/);
    await expect(createProxy({ headersTimeout: 200_000 })).rejects.toThrow(
      /headersTimeout must not be longer than requestTimeout/,
    );
  });

  it('a header that names one thing given twice (Authorization, Host, the key, the bound): a marked 400, nothing sent', async () => {
    const { service, proxy } = await start({ secret: SECRET });
    const request = (headers: string) =>
      raw(proxy.url, `GET /api/v10/channels/${CHANNEL} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`);
    const key = `X-Tollgate-Proxy-Key: ${SECRET}\r\n`;
    for (const [name, headers] of [
      ['authorization', `Host: x\r\n${key}Authorization: ${TOKEN}\r\nAuthorization: Bot b\r\n`],
      ['host', `Host: x\r\nHost: discord.com\r\n${key}Authorization: ${TOKEN}\r\n`],
      ['x-tollgate-proxy-key', `Host: x\r\n${key}${key}Authorization: ${TOKEN}\r\n`],
      [
        'x-tollgate-max-wait',
        `Host: x\r\n${key}Authorization: ${TOKEN}\r\nX-Tollgate-Max-Wait: 0\r\nx-tollgate-max-wait: 9\r\n`,
      ],
    ] as const) {
      const answer = await request(headers);
      expect(answer, name).toMatch(/^HTTP\/1.1 400 /);
      expect(answer).toMatch(/\r\nx-tollgate-proxy: generated\r\n/i);
      expect(answer).toMatch(/\r\nx-tollgate-sent: 0\r\n/i);
      expect(answer).toContain(`${name} may be given once`);
    }
    expect(service.requests).toEqual([]);
    // Once each: it goes.
    expect((await request(`Host: x\r\n${key}Authorization: ${TOKEN}\r\n`)).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });
});

describe('HTTP as a bot may speak it', () => {
  it('Expect: 100-continue gets its 100 and the request goes through (fetch upstream refuses the header)', async () => {
    const { service, proxy } = await start();
    const { hostname, port } = new URL(proxy.url);
    const body = JSON.stringify({ content: 'continued' });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          `POST /api/v10/channels/${CHANNEL}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
        ),
      );
      let text = '';
      socket.setTimeout(5000, () => socket.destroy(new Error(`no answer: ${text}`)));
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.startsWith('HTTP/1.1 100') && !text.includes('\r\n\r\nHTTP')) socket.write(body);
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1.1 100 Continue/);
    expect(answer).toMatch(/HTTP\/1.1 200 OK/);
    expect(service.messages.map((message) => message.content)).toEqual(['continued']);
  });

  it("keeps the service's Content-Length on an answer it did not decode", async () => {
    const { proxy } = await start();
    const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, { headers: { authorization: TOKEN } });
    expect(Number(answer.headers.get('content-length'))).toBe((await answer.arrayBuffer()).byteLength);
  });

  it('a compressed answer goes on as it came, bytes and encoding (undici, the default transport, decodes nothing)', async () => {
    const json = JSON.stringify({ id: CHANNEL, name: 'général' });
    const gzipped = gzipSync(json);
    const upstream = createServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': gzipped.length,
      });
      response.end(gzipped);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const proxy = await createProxy({
        port: 0,
        logLevel: 'silent',
        upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      });
      try {
        const seen = await raw(
          proxy.url,
          `GET /api/v10/channels/${CHANNEL} HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\nConnection: close\r\n\r\n`,
        );
        expect(seen).toMatch(/\r\ncontent-encoding: gzip\r\n/i);
        expect(seen).toMatch(new RegExp(`\\r\\ncontent-length: ${gzipped.length}\\r\\n`, 'i'));
        const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, { headers: { authorization: TOKEN } });
        expect(await answer.json()).toEqual(JSON.parse(json));
      } finally {
        await proxy.close();
      }
    } finally {
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it('resolves dot segments before it decides: /api/../admin is not under /api/', async () => {
    const { service, proxy } = await start();
    expect(await raw(proxy.url, 'GET /api/../admin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1.1 404 /,
    );
    expect(
      await raw(proxy.url, 'GET /api/v10/%2e%2e/%2e%2e/admin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ).toMatch(/^HTTP\/1.1 404 /);
    expect(service.requests).toHaveLength(0);
  });

  it("an empty Authorization is none: sent without one, in the IP's lane", async () => {
    const { service, proxy } = await start();
    const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, { headers: { authorization: '' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('x-tollgate-proxy')).toBeNull();
    expect(service.requests).toHaveLength(1);
  });
});

describe('answers streamed back', () => {
  /** A proxy whose upstream answers every request with `body` (its own fetch: no service). */
  async function proxyAnswering(body: () => ReadableStream<Uint8Array>): Promise<Proxy> {
    const proxy = await createProxy({
      port: 0,
      logLevel: 'silent',
      fetch: () => Promise.resolve(new Response(body(), { headers: { 'content-type': 'application/octet-stream' } })),
    });
    const service = await new ReferenceService({ dialect: 'discord' }).start(); // for the shared clean-up
    running.push({ service, proxy, logs: [] });
    return proxy;
  }
  const CHUNK = 64 * 1024;

  it('a body of many chunks, larger than any socket buffer, arrives whole and in order', async () => {
    const chunks = 128; // 8 MiB: the bot's socket fills, and the copy waits for it to drain
    let sent = 0;
    const proxy = await proxyAnswering(
      () =>
        new ReadableStream({
          pull(controller) {
            if (sent === chunks) return controller.close();
            controller.enqueue(new Uint8Array(CHUNK).fill(sent++ % 251));
          },
        }),
    );
    const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, { headers: { authorization: TOKEN } });
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect(bytes.length).toBe(chunks * CHUNK);
    for (let index = 0; index < chunks; index++) expect(bytes[index * CHUNK + CHUNK - 1]).toBe(index % 251);
  });

  it('a bot that hangs up part way: the upstream read is cancelled', async () => {
    let cancelled!: () => void;
    const cancel = new Promise<void>((resolve) => (cancelled = resolve));
    const proxy = await proxyAnswering(
      () =>
        new ReadableStream({
          pull: (controller) => controller.enqueue(new Uint8Array(CHUNK)), // never ends by itself
          cancel: () => cancelled(),
        }),
    );
    const controller = new AbortController();
    const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, {
      headers: { authorization: TOKEN },
      signal: controller.signal,
    });
    const reader = answer.body!.getReader();
    await reader.read();
    controller.abort();
    await cancel; // the test times out if the proxy goes on reading
  });

  it('through the default transport (undici) to a real upstream: a bot that hangs up part way ends the upstream answer', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const upstream = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.write(Buffer.alloc(CHUNK)); // then silence: only the bot's hang-up can end it
      response.on('close', () => upstreamClosed());
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await createProxy({
      port: 0,
      logLevel: 'silent',
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
    try {
      const controller = new AbortController();
      const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, {
        headers: { authorization: TOKEN },
        signal: controller.signal,
      });
      await answer.body!.getReader().read();
      controller.abort();
      await closed; // the test times out if the proxy goes on holding the upstream answer
    } finally {
      await proxy.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it("an upstream that fails part way: the bot's answer is cut short, never a clean end", async () => {
    let pulls = 0;
    const proxy = await proxyAnswering(
      () =>
        new ReadableStream({
          pull(controller) {
            if (++pulls > 3) return controller.error(new Error('upstream reset'));
            controller.enqueue(new Uint8Array(CHUNK));
          },
        }),
    );
    const answer = await fetch(`${proxy.url}/api/v10/channels/${CHANNEL}`, { headers: { authorization: TOKEN } });
    expect(answer.status).toBe(200);
    await expect(answer.arrayBuffer()).rejects.toThrow();
    // and it keeps serving
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });
});

describe('shutting down', () => {
  it('from the moment the drain starts, /readyz answers 503, on a keep-alive connection already open too', async () => {
    // The upstream holds the first request: its connection stays open (busy) through the drain.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const upstream = new Promise<void>((resolve) => (reached = resolve));
    const { proxy, logs } = await start({
      drainMs: 10_000,
      fetch: async () => {
        reached();
        await held;
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    });
    onTestFinished(release);
    const { hostname, port } = new URL(proxy.url);
    const socket = connect(Number(port), hostname);
    let answers = '';
    socket.on('data', (chunk) => (answers += chunk.toString('latin1')));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.write(`GET /api/v10/channels/${CHANNEL} HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\n\r\n`);
    await upstream;
    const closing = proxy.close();
    // The drain has begun; on the same connection (HTTP/1.1 keep-alive, pipelined) comes /readyz.
    socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    // Its answer waits behind the first one's: it is written once the proxy has decided it (its log line).
    const decided = () => logs.some((line) => line.includes('"route":"-"'));
    for (let tries = 0; tries < 500 && !decided(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await closing;
    await ended;
    const [first, ready] = answers.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1.1 200 /);
    expect(ready).toMatch(/^HTTP\/1.1 503 /);
    expect(ready).toContain('{"status":"draining"}');
  });

  it('close() lets a request under way finish, refuses new ones, and gives back every wait', async () => {
    const { service, proxy } = await start({ drainMs: 5000 }, { defaultLimit: { limit: 1, windowMs: 800 } });
    await fetch(messages(proxy), post('first'));
    // This one waits for the next window; the drain lets it finish.
    const waiting = fetch(messages(proxy), post('second'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = proxy.close();
    expect((await waiting).status).toBe(200);
    await closing;
    await expect(fetch(`${proxy.url}/healthz`)).rejects.toThrow();
    expect(service.messages.map((message) => message.content)).toEqual(['first', 'second']);
  });
});
