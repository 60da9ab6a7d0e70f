/**
 * The token never leaves the Authorization header of requests to the base URL's origin: it is in
 * no error, event, log line, bucket key, snapshot, Redis key, Redis value or Redis message. Each
 * test collects everything the client emitted and searches all of it, deeply, for the token.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, routeKeyOf, type WaitEvent } from '../../src/index.ts';
import { ReferenceService } from '../../src/testing/index.ts';
import { undiciFetch } from '../../src/undici/index.ts';
import { startE2E, type E2E } from '../support/e2e.ts';
import { connectedStore, rawRedis } from '../support/redis.ts';

const SECRET = 's3cr3t-9d2f4c7b1e';
const TOKEN = `Bot ${SECRET}`;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

/** Everything reachable from a value, as text: own and hidden properties, causes, getters. */
const deepText = (value: unknown): string =>
  [
    inspect(value, {
      depth: Infinity,
      showHidden: true,
      getters: true,
      maxArrayLength: Infinity,
      maxStringLength: Infinity,
    }),
    value instanceof Error ? `${String(value)}\n${value.stack ?? ''}` : '',
    (() => {
      try {
        return JSON.stringify(value) ?? '';
      } catch {
        return '';
      }
    })(),
  ].join('\n');

function expectNoSecret(emitted: readonly unknown[]): void {
  expect(emitted.length).toBeGreaterThan(0);
  for (const [index, value] of emitted.entries()) {
    const text = deepText(value);
    expect(text.includes(SECRET), `item ${index} shows the token:\n${text.slice(0, 2000)}`).toBe(false);
  }
}

/** Spies on every console method; returns what was printed. */
function captureConsole(): unknown[][] {
  const lines: unknown[][] = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args));
  }
  return lines;
}

const settled = async (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('the token in what the client emits', () => {
  it('no error of any kind, event, snapshot, bucket key or log line shows it', async () => {
    const printed = captureConsole();
    const e2e: E2E = await startE2E({ api: 'v6', defaultLimit: { limit: 1, windowMs: 60_000 } });
    cleanups.push(() => e2e.stop());
    const events: WaitEvent[] = [];
    const client = e2e.newClient({ token: TOKEN, onWait: (event) => events.push(event), maxWait: 5_000 });
    const emitted: unknown[] = [];
    const { service } = e2e;

    emitted.push(await settled(client.channels.get('1'))); // ok, learns limit 1
    emitted.push(await settled(client.channels.get('1'))); // bucket wait of a minute > maxWait: RateLimitWaitError
    service.inject({ fault: { kind: 'status', status: 500 } });
    emitted.push(await settled(client.channels.messages.create('2', { content: 'x' }))); // HttpError 500, POST not retried
    service.inject({ fault: { kind: 'rate-limited-without-retry-after' } });
    emitted.push(await settled(client.users.me.get())); // HttpError 429
    service.inject({
      fault: { kind: 'headers', status: 429, headers: { 'x-ratelimit-global': 'true', 'retry-after': '\u00ff' } },
    });
    emitted.push(await settled(client.gateway.get())); // RateLimitUtf8Error
    service.inject({
      fault: { kind: 'headers', status: 429, headers: { 'x-ratelimit-global': 'true', 'retry-after': 'x' } },
    });
    emitted.push(await settled(client.gateway.get())); // RateLimitI64Error
    service.inject({ fault: { kind: 'drop' } });
    emitted.push(await settled(client.channels.messages.create('3', { content: 'x' }))); // NetworkError
    service.inject({ fault: { kind: 'global', retryAfterMs: 100 } });
    emitted.push(await e2e.drive([client.guilds.get('5')])); // a global wait: an event
    emitted.push(await settled(client.channels.get('not an id' as never))); // TollgateArgumentError
    emitted.push(await settled(client.request('GET', 'https://elsewhere.invalid/x'))); // TollgateArgumentError
    // No transport retry: a GET that timed out would be resent (after a backoff on the manual clock).
    const slow = e2e.newClient({ token: TOKEN, timeout: 30, transportRetries: 0 });
    service.inject({ fault: { kind: 'slow', delayMs: 300 } });
    emitted.push(await settled(slow.gateway.get())); // RequestTimeoutError
    emitted.push(await client.buckets.get('ChannelsId:1'), routeKeyOf('GET', '/channels/1'));
    await client.close();
    emitted.push(await settled(client.gateway.get())); // ClientClosedError
    emitted.push(...events, ...printed);

    const errors = emitted.flatMap((item) => (item && typeof item === 'object' && 'error' in item ? [item.error] : []));
    expect(errors.map((error) => (error as Error).name)).toEqual([
      'RateLimitWaitError',
      'HttpError',
      'HttpError',
      'RateLimitUtf8Error',
      'RateLimitI64Error',
      'NetworkError',
      'TollgateArgumentError',
      'TollgateArgumentError',
      'TimeoutError',
      'ClientClosedError',
    ]);
    expect(events.length).toBeGreaterThan(0);
    expectNoSecret(emitted);
  }, 20_000);

  it('Redis holds no key, value or message with it', async () => {
    const service = await new ReferenceService({ api: 'v6', defaultLimit: { limit: 2, windowMs: 2000 } }).start();
    cleanups.push(() => service.stop());
    const store = await connectedStore('secrets');
    cleanups.push(() => store.close());
    const redis = rawRedis();
    cleanups.push(() => redis.quit());
    const messages: string[] = [];
    await redis.psubscribe('tollgate-test:secrets:*');
    redis.on('pmessage', (_pattern: string, channel: string, message: string) => messages.push(channel, message));
    const client = createClient({ baseUrl: service.baseUrl, token: TOKEN, store });
    cleanups.push(() => client.close());

    service.inject({ fault: { kind: 'global', retryAfterMs: 50 } });
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.channels.get(String(1 + (i % 2)))));
    const reader = rawRedis();
    cleanups.push(() => reader.quit());
    const keys = await reader.keys('tollgate-test:secrets:*');
    expect(keys.length).toBeGreaterThan(0);
    const contents: unknown[] = [keys];
    for (const key of keys) {
      const type = await reader.type(key);
      if (type === 'hash') contents.push(await reader.hgetall(key));
      else if (type === 'zset') contents.push(await reader.zrange(key, '0', '-1', 'WITHSCORES'));
      else if (type === 'string') contents.push(await reader.get(key));
      else contents.push(type);
    }
    expect(messages.length).toBeGreaterThan(0);
    expectNoSecret([...contents, messages]);
  }, 20_000);
});

describe('v10: neither the token nor a webhook token in what the client emits or stores', () => {
  it('errors, events, keys, snapshots, Redis keys, values and messages', async () => {
    const printed = captureConsole();
    const hookToken = `hook-${SECRET}`;
    const service = await new ReferenceService({
      api: 'v10',
      defaultLimit: { limit: 1, windowMs: 500 },
      validTokens: ['Bot another'],
      deletedWebhooks: ['6'],
    }).start();
    cleanups.push(() => service.stop());
    const store = await connectedStore('secrets-v10');
    cleanups.push(() => store.close());
    const redis = rawRedis();
    cleanups.push(() => redis.quit());
    const messages: string[] = [];
    await redis.psubscribe('*');
    redis.on('pmessage', (_pattern: string, channel: string, message: string) => messages.push(channel, message));
    const events: WaitEvent[] = [];
    const client = createClient({
      baseUrl: service.baseUrl,
      token: TOKEN,
      store,
      onWait: (event) => events.push(event),
    });
    cleanups.push(() => client.close());

    const emitted: unknown[] = [];
    await Promise.all(Array.from({ length: 3 }, () => client.webhooks.execute('5', hookToken, { content: 'x' })));
    emitted.push(await settled(client.webhooks.execute('6', hookToken, { content: 'x' }))); // 404: gone
    emitted.push(await settled(client.webhooks.execute('6', hookToken, { content: 'y' }))); // WebhookGoneError
    emitted.push(await settled(client.users.me.get())); // 401
    emitted.push(await settled(client.channels.get('1'))); // TokenInvalidError
    service.inject({ fault: { kind: 'ban' } });
    emitted.push(await settled(client.webhooks.execute('7', hookToken, { content: 'x' }))); // CdnBanError
    const key = routeKeyOf('POST', `/webhooks/5/${hookToken}`);
    emitted.push(key, await client.buckets.get(`POST /webhooks/:id/:token webhooks/5/token`), events, printed);
    expect(
      emitted.flatMap((item) =>
        item && typeof item === 'object' && 'error' in item ? [(item.error as Error).name] : [],
      ),
    ).toEqual(['HttpError', 'WebhookGoneError', 'HttpError', 'TokenInvalidError', 'CdnBanError']);

    const reader = rawRedis();
    cleanups.push(() => reader.quit());
    const keys = (await reader.keys('*')).filter((name) => name.includes('tollgate-test:secrets-v10'));
    expect(keys.length).toBeGreaterThan(3);
    const contents: unknown[] = [keys];
    for (const name of keys) {
      const type = await reader.type(name);
      if (type === 'hash') contents.push(await reader.hgetall(name));
      else if (type === 'zset') contents.push(await reader.zrange(name, '0', '-1', 'WITHSCORES'));
      else if (type === 'list') contents.push(await reader.lrange(name, 0, -1));
      else if (type === 'string') contents.push(await reader.get(name));
      else contents.push(type);
    }
    expect(messages.length).toBeGreaterThan(0);
    expectNoSecret([...emitted, ...contents, messages]);
  }, 20_000);
});

describe('Authorization stays on the base URL origin', () => {
  async function redirectingApi(): Promise<{ baseUrl: string; elsewhereHits: string[] }> {
    const elsewhereHits: string[] = [];
    const elsewhere = createServer((request, response) => {
      elsewhereHits.push(`${request.method} ${request.url} ${request.headers.authorization ?? '(no authorization)'}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const api: Server = createServer((request, response) => {
      response.writeHead(307, { location: `${target}/steal${request.url}` });
      response.end();
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    cleanups.push(() =>
      Promise.all(
        [elsewhere, api].map(
          (server) => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
        ),
      ),
    );
    return { baseUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`, elsewhereHits };
  }

  for (const [name, transport] of [
    ['runtime fetch', () => undefined],
    ['undiciFetch', () => undiciFetch()],
  ] as const) {
    it(`a redirect to another origin is returned, not followed (${name})`, async () => {
      const { baseUrl, elsewhereHits } = await redirectingApi();
      const fetch = transport();
      cleanups.push(() => fetch?.close());
      const client = createClient({ baseUrl, token: TOKEN, ...(fetch && { fetch }) });
      cleanups.push(() => client.close());
      await expect(client.gateway.get()).rejects.toMatchObject({ name: 'HttpError', status: 307 });
      const raw = await client.request('POST', '/channels/1/messages', { json: { content: 'x' } });
      expect(raw.status).toBe(307);
      expect(elsewhereHits).toEqual([]);
    });
  }

  it('client.request refuses absolute and protocol-relative URLs before sending anything', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const client = createClient({ baseUrl: 'http://127.0.0.1:9/api', token: TOKEN, fetch });
    cleanups.push(() => client.close());
    for (const path of [
      'https://elsewhere.invalid/x',
      '//elsewhere.invalid/x',
      'channels/1',
      '\\\\elsewhere.invalid',
    ]) {
      await expect(client.request('GET', path)).rejects.toMatchObject({ name: 'TollgateArgumentError' });
    }
    expect(fetch).not.toHaveBeenCalled();
  });
});
