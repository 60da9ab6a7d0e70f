/**
 * What the proxy does with one request (src/proxy/handler.ts), with a relay, a store and metrics a
 * test sets: its own paths, the checks before the relay, and the table from a failure to an answer.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ClientClosedError, NetworkError, StoreUnavailableError } from '../../src/errors.ts';
import type { Relay } from '../../src/http/relay.ts';
import { requestHandler, type HandlerContext } from '../../src/proxy/handler.ts';
import type { ProxyMetrics } from '../../src/proxy/metrics.ts';
import { proxySettings } from '../../src/proxy/settings.ts';
import { asResponse, recorded } from '../support/recorded-response.ts';

const IDENTITY = { route: 'GET /channels/:id', bucket: undefined, method: 'GET' } as never;

const requestOf = (method: string, url: string, raw: string[] = []) => {
  const stream = new PassThrough();
  stream.end();
  const headers: Record<string, string> = {};
  for (let index = 0; index < raw.length; index += 2) headers[raw[index]!.toLowerCase()] = raw[index + 1]!;
  return Object.assign(stream, { method, url, rawHeaders: raw, headers }) as unknown as IncomingMessage;
};

function handlerWith(overrides: Partial<HandlerContext> & { answer?: () => Promise<Response> } = {}) {
  const calls: { url: string; maxWait: number | undefined }[] = [];
  const relay = Object.assign(
    async (url: string | URL, init?: { maxWait?: number }) => {
      calls.push({ url: String(url), maxWait: init?.maxWait });
      return (overrides.answer ?? (async () => new Response('{}', { status: 200 })))();
    },
    { invalidRequests: async () => 0, invalidRequestLimit: 9000, close: async () => {} },
  ) as unknown as Relay;
  const logged: string[] = [];
  const handle = requestHandler({
    settings: proxySettings({ upstream: 'http://upstream.test', log: (line) => logged.push(line) }),
    relay,
    metrics: undefined,
    transportDecodes: true,
    storeUp: async () => true,
    draining: () => false,
    underWay: new Set(),
    ...overrides,
  });
  const send = async (method: string, url: string, raw?: string[]) => {
    const response = recorded();
    const outcome = await handle(requestOf(method, url, raw), asResponse(response));
    return { outcome, response, body: response.body };
  };
  return { send, calls, logged };
}

describe("the proxy's own paths", () => {
  it('/healthz: ok, to GET only', async () => {
    const { send, calls } = handlerWith();
    expect(JSON.parse((await send('GET', '/healthz')).body)).toEqual({ status: 'ok' });
    const posted = await send('POST', '/healthz');
    expect([posted.response.status, posted.response.headers['x-tollgate-generated']]).toEqual([404, 'PROXY_NOT_FOUND']);
    expect(calls).toEqual([]);
  });

  it('/readyz: ready, or 503 saying why (draining, or a store that is down or fails to say)', async () => {
    const ready = await handlerWith().send('GET', '/readyz');
    expect([ready.response.status, JSON.parse(ready.body)]).toEqual([200, { status: 'ready' }]);
    const draining = await handlerWith({ draining: () => true }).send('GET', '/readyz');
    expect([draining.response.status, JSON.parse(draining.body)]).toEqual([503, { status: 'draining' }]);
    for (const storeUp of [async () => false, () => Promise.reject(new Error('down'))]) {
      const down = await handlerWith({ storeUp }).send('GET', '/readyz');
      expect([down.response.status, JSON.parse(down.body)]).toEqual([503, { status: 'store unreachable' }]);
    }
    expect((await handlerWith().send('POST', '/readyz')).response.status).toBe(404);
  });

  it('/metrics: the exposition to GET, only with metrics', async () => {
    const metrics = { contentType: 'text/plain; version=0.0.4', render: vi.fn(async () => 'up 1\n') };
    const { send } = handlerWith({ metrics: metrics as unknown as ProxyMetrics });
    const scraped = await send('GET', '/metrics');
    expect(scraped.outcome).toEqual({ status: 200, generated: true });
    expect([scraped.response.headers['content-type'], scraped.body]).toEqual(['text/plain; version=0.0.4', 'up 1\n']);
    expect((await send('POST', '/metrics')).response.status).toBe(404);
    expect((await handlerWith().send('GET', '/metrics')).response.status).toBe(404);
  });
});

describe('an API request', () => {
  it('goes to the upstream with its target, and a bound on its wait no larger than the proxy’s', async () => {
    const { send, calls } = handlerWith();
    const answered = await send('GET', '/api/v10/channels/1?x=1', [
      'Authorization',
      'Bot a',
      'X-Tollgate-Max-Wait',
      '250',
    ]);
    expect(answered.response.status).toBe(200);
    expect(calls).toEqual([{ url: 'http://upstream.test/api/v10/channels/1?x=1', maxWait: 250 }]);
  });

  it('is refused while draining, with the connection closed, and never reaches the relay', async () => {
    const { send, calls } = handlerWith({ draining: () => true });
    const refused = await send('GET', '/api/v10/channels/1');
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers).toMatchObject({ 'x-tollgate-generated': 'PROXY_DRAINING', connection: 'close' });
    expect(calls).toEqual([]);
  });

  it('a target that is not a path is refused with why', async () => {
    const refused = await handlerWith().send('GET', 'http://elsewhere/api/v10/users/@me');
    expect([refused.response.status, JSON.parse(refused.body).message]).toEqual([
      400,
      'The request target must be a path (origin-form)',
    ]);
  });
});

describe('a failed request, answered by one table', () => {
  const failing = (error: unknown) => handlerWith({ answer: () => Promise.reject(error) });

  it.each([
    [new ClientClosedError(), 503, 'PROXY_DRAINING', '0'],
    [new StoreUnavailableError('redis', new Error('down')), 503, 'STORE_UNAVAILABLE', '0'],
    [new NetworkError(IDENTITY, new Error('refused'), { host: 'x:443', code: 'ECONNREFUSED' }), 502, 'NETWORK', '0'],
    [new NetworkError(IDENTITY, new Error('reset'), { host: 'x:443', code: 'ECONNRESET' }), 502, 'NETWORK', '1'],
    [new NetworkError(IDENTITY, new Error('?')), 502, 'NETWORK', '1'],
    [new TypeError('a bug'), 500, 'PROXY_FAILED', '1'],
  ])('%s: %i %s, sent %s', async (error, status, code, sent) => {
    const { response } = await failing(error).send('GET', '/api/v10/channels/1');
    expect([response.status, response.headers['x-tollgate-generated'], response.headers['x-tollgate-sent']]).toEqual([
      status,
      code,
      sent,
    ]);
  });

  it('logs a failure it did not expect by its code alone, never its message', async () => {
    const { send, logged } = failing(new TypeError('Bot secret-token-in-a-message'));
    await send('GET', '/api/v10/channels/1');
    expect(logged.map((line) => JSON.parse(line) as object)).toEqual([
      expect.objectContaining({ level: 'error', msg: 'request failed', error: 'UNKNOWN' }),
    ]);
    expect(logged.join('')).not.toContain('secret');
  });
});
