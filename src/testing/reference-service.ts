/**
 * A real HTTP/1.1 server (node:http, keep-alive) that serves every route of the catalog and
 * enforces the service's rate limits as the spec describes them, so code can run against
 * realistic limits offline. Exported as `tollgate/testing`.
 *
 * - Buckets are keyed by bucket key (route key, major id, and the method for the message-by-id
 *   key) and by the Authorization value. Each route key has a limit and a window; windows start
 *   at a bucket's first request and end `windowMs` later.
 * - Responses carry x-ratelimit-limit/remaining/reset (reset: whole Unix seconds, rounded up so
 *   the window is over by then); 429s carry retry-after in ms; global 429s x-ratelimit-global.
 * - A global limit counts every rate-limited request of one Authorization value.
 * - `None` routes (any path outside the catalog) send no rate-limit headers.
 * - Faults can be scripted; every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { routeKeyOf } from '../index.ts';
import { systemClock, type Clock } from '../clock.ts';
import { classifyV10, type V10Route } from '../dialects/v10/route.ts';
import { LimitEnforcer, type LimitOptions, type RateLimit } from './limits.ts';
import { BinaryBody, operationOf, sampleResult } from './fixtures.ts';
import { V10LimitEnforcer, type V10LimitOptions } from './v10-limits.ts';

/**
 * `api: 'v6'` (default) enforces docs/spec/rate-limit-spec.md; `api: 'v10'` the service as it
 * is today (docs/spec/v10-rate-limits.md). `routes` is keyed by route key under v6, by route
 * (`POST /channels/:id/messages`) or bucket hash under v10.
 */
export interface ReferenceServiceOptions extends LimitOptions, V10LimitOptions {
  /** Which API the service speaks. Default v6. */
  readonly api?: 'v6' | 'v10';
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** Path prefix of the API (default `/api/v6`, or `/api/v10` under v10). */
  readonly basePath?: string;
  /** Time source for windows and records (a test can share one with the client). */
  readonly clock?: Clock;
  /**
   * Header dialect. `spec` (default): the spec's headers, retry-after in ms. `discord`: also
   * Discord's x-ratelimit-reset-after (seconds), x-ratelimit-bucket and x-ratelimit-scope, and
   * retry-after in seconds, so Discord clients (@discordjs/rest) run against the same limits.
   */
  readonly dialect?: 'spec' | 'discord';
  /**
   * Network latency to simulate, in real ms per round trip: half before a request is counted,
   * half before its answer leaves. Default 0.
   */
  readonly latencyMs?: number;
}

/** A scripted fault for the next matching request(s). */
export type Fault =
  /** Respond with these rate-limit header values instead (raw latin-1 strings carry any byte). */
  | { readonly kind: 'headers'; readonly headers: Readonly<Record<string, string>>; readonly status?: number }
  /** A 429 without retry-after. */
  | { readonly kind: 'rate-limited-without-retry-after' }
  /** A global 429 with this retry-after (ms), or without one. */
  | { readonly kind: 'global'; readonly retryAfterMs?: number }
  /** Answer with this status (5xx storms). */
  | { readonly kind: 'status'; readonly status: number }
  /** Answer after this many (real) ms. */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Send the status and headers at once, the body after this many (real) ms. */
  | { readonly kind: 'slow-body'; readonly delayMs: number }
  /** Close the connection without an answer. */
  | { readonly kind: 'drop' }
  /** v10: the CDN's static ban answer (429, no rate-limit headers, text body). */
  | { readonly kind: 'ban'; readonly retryAfterSeconds?: number }
  /** v10: a shared-scope 429 (a per-resource limit spent by others). */
  | { readonly kind: 'shared'; readonly retryAfterMs: number }
  /** v10: a sublimit 429 (scope user, Remaining > 0). */
  | { readonly kind: 'sublimit'; readonly retryAfterMs: number };

export interface FaultRule {
  readonly fault: Fault;
  /** Only requests whose bucket key starts with this (default: any). */
  readonly bucketKeyPrefix?: string;
  /** How many requests it applies to (default 1). */
  readonly times?: number;
}

export interface RecordedRequest {
  /** Service clock time (ms) when the request arrived. */
  readonly at: number;
  readonly method: string;
  readonly routeKey: string;
  readonly bucketKey: string;
  readonly status: number;
  /** The request was answered with a global 429. */
  readonly global: boolean;
  readonly fault: Fault['kind'] | undefined;
}

export class ReferenceService {
  readonly requests: RecordedRequest[] = [];
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #clock: Clock;
  readonly #options: ReferenceServiceOptions;
  /** The API's path prefix, without a trailing slash. */
  readonly #basePath: string;
  readonly #limits: LimitEnforcer;
  readonly #v10: V10LimitEnforcer | undefined;
  readonly #faults: { rule: FaultRule; left: number }[] = [];
  #inFlight = 0;
  #maxInFlight = 0;
  #url = '';

  constructor(options: ReferenceServiceOptions = {}) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    const { port, basePath, clock, api } = options;
    if (options.latencyMs !== undefined && !(Number.isFinite(options.latencyMs) && options.latencyMs >= 0)) {
      throw new TypeError(`reference service: latencyMs must be a number of ms ≥ 0, got ${String(options.latencyMs)}`);
    }
    if (api !== undefined && api !== 'v6' && api !== 'v10') {
      throw new TypeError(`reference service: api must be 'v6' or 'v10', got ${JSON.stringify(api)}`);
    }
    this.#limits = new LimitEnforcer(api === 'v10' ? {} : options, this.#clock);
    this.#v10 = api === 'v10' ? new V10LimitEnforcer(options, this.#clock) : undefined;
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
      throw new TypeError(`reference service: port must be a whole number from 0 to 65535, got ${String(port)}`);
    }
    if (basePath !== undefined && !(typeof basePath === 'string' && (basePath === '' || basePath.startsWith('/')))) {
      throw new TypeError(
        `reference service: basePath must be empty or start with "/", got ${JSON.stringify(basePath)}`,
      );
    }
    if (clock !== undefined && !(typeof clock?.now === 'function' && typeof clock.setTimeout === 'function')) {
      throw new TypeError('reference service: clock must have now() and setTimeout()');
    }
    if (options.dialect !== undefined && options.dialect !== 'spec' && options.dialect !== 'discord') {
      throw new TypeError(
        `reference service: dialect must be 'spec' or 'discord', got ${JSON.stringify(options.dialect)}`,
      );
    }
    this.#basePath = (basePath ?? (api === 'v10' ? '/api/v10' : '/api/v6')).replace(/\/+$/, '');
  }

  /** Starts listening on 127.0.0.1; resolves once the port is bound. */
  async start(): Promise<this> {
    const server = createServer({ keepAlive: true }, (request, response) => void this.#handle(request, response));
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#options.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    this.#url = `http://127.0.0.1:${port}${this.#basePath}`;
    return this;
  }

  /** The API base URL to give a client, e.g. `http://127.0.0.1:41234/api/v6`. */
  get baseUrl(): string {
    if (!this.#url) throw new Error('reference service: not started');
    return this.#url;
  }

  /** Requests being answered right now, and the most there ever were at once. */
  get inFlight(): number {
    return this.#inFlight;
  }
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  /** Adds a fault for the next matching request(s). */
  inject(rule: FaultRule): void {
    checkFaultRule(rule);
    this.#faults.push({ rule, left: rule.times ?? 1 });
  }

  /** The limit of a bucket key: v6's, or v10's as the service counts it (`<hash> <resource>`; a bare hash does too). */
  limitOf(bucketKey: string): RateLimit {
    return this.#v10 ? this.#v10.limitOf(bucketKey.split(' ')[0]!) : this.#limits.limitOf(bucketKey);
  }

  get globalLimit(): RateLimit {
    return (this.#v10 ?? this.#limits).globalLimit;
  }

  /** v10: the IP's invalid requests (401, 403, non-shared 429) of the last 10 minutes, and whether it is banned. */
  get invalidRequests(): number {
    return this.#v10?.invalidRequests ?? 0;
  }
  get banned(): boolean {
    return this.#v10?.banned ?? false;
  }

  /**
   * The most requests of one bucket (and Authorization) that the service accepted within any
   * span of its window, over the whole run: never above the limit when clients behave.
   */
  maxPerWindow(bucketKey: string): number {
    const { windowMs } = this.limitOf(bucketKey);
    const times = this.requests.filter((r) => r.bucketKey === bucketKey && r.status !== 429).map((r) => r.at);
    let most = 0;
    for (let start = 0, end = 0; end < times.length; end++) {
      while (times[end]! - times[start]! >= windowMs) start++;
      most = Math.max(most, end - start + 1);
    }
    return most;
  }

  /** Stops accepting requests and closes every connection. */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.#inFlight += 1;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    try {
      // Drain the body; the service only echoes its size.
      let size = 0;
      for await (const chunk of request) size += (chunk as Buffer).length;
      const latency = this.#options.latencyMs ?? 0;
      if (latency > 0) {
        await new Promise((resolve) => setTimeout(resolve, latency / 2));
        delayEnd(response, latency / 2);
      }
      const url = new URL(request.url ?? '/', 'http://reference.invalid');
      const method = request.method ?? 'GET';
      const basePath = this.#basePath;
      const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
      const v10 = this.#v10;
      // Faults match the client's key: v6's bucket key, or v10's route and resource.
      const v10Route = v10 ? classifyV10(method, path, this.#clock.now()) : undefined;
      const bucketKey = v10Route ? v10Route.bucketKey : routeKeyOf(method, path);
      const routeKey = v10Route ? v10Route.route : bucketKey.split(':')[0]!;
      const fault = this.#takeFault(bucketKey);
      const at = this.#clock.now();
      const record = (status: number, global = false, countedAs = bucketKey) =>
        this.requests.push({ at, method, routeKey, bucketKey: countedAs, status, global, fault: fault?.kind });

      if (fault?.kind === 'drop') {
        record(0);
        request.socket.destroy();
        return;
      }
      if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault?.kind === 'status') {
        record(fault.status);
        return send(response, fault.status, { message: 'scripted failure' });
      }
      if (v10) return await this.#answerV10(v10, v10Route!, request, response, path, size, fault, record);
      if (routeKey === 'None') {
        record(200);
        return send(response, 200, { route: 'None', received: size });
      }
      const auth = request.headers.authorization ?? '';
      const globalLimited = (retryAfterMs: number | undefined) => {
        record(429, true);
        send(
          response,
          429,
          { message: 'You are being rate limited.', global: true },
          this.#globalHeaders(retryAfterMs),
        );
      };
      if (fault?.kind === 'global') return globalLimited(fault.retryAfterMs);
      const decision = this.#limits.count(bucketKey, auth);
      if (decision.global) return globalLimited(decision.retryAfterMs);
      const headers =
        this.#options.dialect === 'discord'
          ? { ...decision.headers, ...discordBucketHeaders(bucketKey, decision.retryAfterMs) }
          : decision.headers;
      if (fault?.kind === 'headers') {
        record(fault.status ?? 200);
        return send(response, fault.status ?? 200, { route: routeKey }, { ...headers, ...fault.headers });
      }
      if (fault?.kind === 'rate-limited-without-retry-after') {
        record(429);
        return send(response, 429, { message: 'You are being rate limited.' }, headers);
      }
      if (decision.limited) {
        record(429);
        return send(
          response,
          429,
          { message: 'You are being rate limited.' },
          { ...headers, 'retry-after': this.#retryAfter(decision.retryAfterMs) },
        );
      }
      record(200);
      if (fault?.kind === 'slow-body')
        return await sendSlowly(response, { route: routeKey, method, received: size }, headers, fault.delayMs);
      sendResult(response, method, path, { route: routeKey, method, received: size }, headers);
    } catch (error) {
      if (!response.headersSent) send(response, 500, { message: String(error) });
    } finally {
      this.#inFlight -= 1;
    }
  }

  /** The v10 service: the enforcer's decision, in v10's headers and bodies (docs/spec/v10-rate-limits.md §2, §3, §7). */
  async #answerV10(
    v10: V10LimitEnforcer,
    v10Route: V10Route,
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    size: number,
    fault: Fault | undefined,
    record: (status: number, global?: boolean, countedAs?: string) => void,
  ): Promise<void> {
    const method = request.method ?? 'GET';
    const ban = (retryAfterSeconds?: number) => {
      record(429);
      // Static, from the CDN: no rate-limit headers, no Via, not the JSON of §3.
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
      response.writeHead(429, headers);
      response.end('error code: 1015');
    };
    if (fault?.kind === 'ban') {
      v10.noteInvalid();
      return ban(fault.retryAfterSeconds);
    }
    const decision = v10.count(v10Route, request.headers.authorization ?? '');
    const rateLimited = (headers: Record<string, string>, scope: string, retryAfterMs: number, global = false) =>
      sendV10(
        response,
        429,
        {
          message: scope === 'shared' ? 'The resource is being rate limited.' : 'You are being rate limited.',
          retry_after: Math.max(0, retryAfterMs) / 1000,
          global,
        },
        { ...headers, 'x-ratelimit-scope': scope, 'retry-after': String(Math.ceil(Math.max(0, retryAfterMs) / 1000)) },
      );
    switch (decision.kind) {
      case 'ban':
        return ban(3600);
      case 'unauthorized':
        record(401);
        return sendV10(response, 401, { message: '401: Unauthorized', code: 0 });
      case 'unknown-webhook':
        record(404);
        return sendV10(response, 404, { message: 'Unknown Webhook', code: 10015 });
      case 'global':
        record(429, true);
        return rateLimited({ 'x-ratelimit-global': 'true' }, 'global', decision.retryAfterMs, true);
    }
    const { headers, bucketKey, route } = decision;
    if (fault?.kind === 'global') {
      v10.noteInvalid();
      record(429, true, bucketKey);
      return rateLimited({ 'x-ratelimit-global': 'true' }, 'global', 1000, true);
    }
    if (fault?.kind === 'shared' || fault?.kind === 'sublimit') {
      // Both leave places in the bucket (Remaining > 0); a sublimit counts as invalid, shared not.
      if (fault.kind === 'sublimit') v10.noteInvalid();
      record(429, false, bucketKey);
      const remaining = String(Math.max(1, Number(headers['x-ratelimit-remaining'] ?? 1)));
      const scope = fault.kind === 'shared' ? 'shared' : 'user';
      return rateLimited({ ...headers, 'x-ratelimit-remaining': remaining }, scope, fault.retryAfterMs);
    }
    if (fault?.kind === 'headers') {
      record(fault.status ?? 200, false, bucketKey);
      return sendV10(response, fault.status ?? 200, { route }, { ...headers, ...fault.headers });
    }
    if (decision.limited) {
      record(429, false, bucketKey);
      return rateLimited(headers, decision.limited, decision.retryAfterMs);
    }
    record(200, false, bucketKey);
    const body = { route, method, received: size };
    if (fault?.kind === 'slow-body')
      return await sendSlowly(response, body, { ...headers, via: '1.1 google' }, fault.delayMs);
    sendResult(response, method, path, body, { ...headers, via: '1.1 google' });
  }

  /** retry-after in the dialect's unit: ms (spec) or seconds (Discord). */
  #retryAfter(ms: number): string {
    return this.#options.dialect === 'discord' ? (Math.max(0, ms) / 1000).toFixed(3) : String(Math.max(0, ms));
  }

  #globalHeaders(retryAfterMs: number | undefined): Record<string, string> {
    const scope: Record<string, string> = this.#options.dialect === 'discord' ? { 'x-ratelimit-scope': 'global' } : {};
    return retryAfterMs === undefined
      ? { 'x-ratelimit-global': 'true', ...scope }
      : { 'x-ratelimit-global': 'true', 'retry-after': this.#retryAfter(retryAfterMs), ...scope };
  }

  #takeFault(bucketKey: string): Fault | undefined {
    const index = this.#faults.findIndex(({ rule }) => bucketKey.startsWith(rule.bucketKeyPrefix ?? ''));
    if (index === -1) return undefined;
    const entry = this.#faults[index]!;
    entry.left -= 1;
    if (entry.left <= 0) this.#faults.splice(index, 1);
    return entry.rule.fault;
  }
}

const FAULT_KINDS = new Set([
  'headers',
  'rate-limited-without-retry-after',
  'global',
  'status',
  'slow',
  'slow-body',
  'drop',
  'ban',
  'shared',
  'sublimit',
]);

function checkFaultRule(rule: FaultRule): void {
  const fail = (what: string) => {
    throw new TypeError(`reference service: inject: ${what}`);
  };
  if (typeof rule !== 'object' || rule === null || typeof rule.fault !== 'object' || rule.fault === null)
    fail('needs { fault: { kind, … } }');
  const { fault } = rule;
  if (!FAULT_KINDS.has(fault.kind))
    fail(`unknown fault kind ${JSON.stringify(fault.kind)}; kinds: ${[...FAULT_KINDS].join(', ')}`);
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 1))
    fail('times must be a whole number ≥ 1');
  if (rule.bucketKeyPrefix !== undefined && typeof rule.bucketKeyPrefix !== 'string')
    fail('bucketKeyPrefix must be a string');
  if ((fault.kind === 'slow' || fault.kind === 'slow-body') && !(Number.isFinite(fault.delayMs) && fault.delayMs >= 0))
    fail('delayMs must be a number of ms ≥ 0');
  if (fault.kind === 'status' && !(Number.isInteger(fault.status) && fault.status >= 200 && fault.status <= 599))
    fail('status must be a whole number from 200 to 599');
  if (fault.kind === 'global' && fault.retryAfterMs !== undefined && !Number.isFinite(fault.retryAfterMs))
    fail('retryAfterMs must be a number of ms');
  if (
    (fault.kind === 'shared' || fault.kind === 'sublimit') &&
    !(Number.isFinite(fault.retryAfterMs) && fault.retryAfterMs >= 0)
  )
    fail('retryAfterMs must be a number of ms ≥ 0');
  if (
    fault.kind === 'ban' &&
    fault.retryAfterSeconds !== undefined &&
    !(Number.isInteger(fault.retryAfterSeconds) && fault.retryAfterSeconds >= 0)
  )
    fail('retryAfterSeconds must be a whole number ≥ 0');
  if (fault.kind === 'headers' && (typeof fault.headers !== 'object' || fault.headers === null))
    fail('headers must be an object of header values');
}

/** Discord's extra bucket headers: the bucket's name (its key without the major id) and the window's time left in seconds. */
function discordBucketHeaders(bucketKey: string, windowLeftMs: number): Record<string, string> {
  return {
    'x-ratelimit-bucket': bucketKey.replace(/:\d+$/, ''),
    'x-ratelimit-reset-after': (Math.max(0, windowLeftMs) / 1000).toFixed(3),
    'x-ratelimit-scope': 'user',
  };
}

/** Headers and the body's first byte now, the rest after `delayMs`: a body that trickles in. */
async function sendSlowly(
  response: ServerResponse,
  body: unknown,
  headers: Record<string, string>,
  delayMs: number,
): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length, ...headers });
  response.write(bytes.subarray(0, 1));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  if (!response.destroyed) response.end(bytes.subarray(1));
}

/** Holds a response's end (its headers and body leave together) for `ms`. */
function delayEnd(response: ServerResponse, ms: number): void {
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.end = ((...args: unknown[]) => {
    setTimeout(() => end(...args), ms);
    return response;
  }) as ServerResponse['end'];
}

/**
 * A success: for a catalog operation, a sample of its result type (fixtures.ts), or 204 where the
 * service answers empty; for any other path, `fallback` (what was asked, and the body's size).
 */
function sendResult(
  response: ServerResponse,
  method: string,
  path: string,
  fallback: unknown,
  headers: Record<string, string>,
): void {
  const operation = operationOf(method, path);
  const body = operation ? sampleResult(operation.name, operation.ids, fallback) : fallback;
  if (body instanceof BinaryBody) {
    response.writeHead(200, { 'content-type': body.contentType, 'content-length': body.bytes.length, ...headers });
    response.end(body.bytes);
    return;
  }
  if (body !== undefined) return send(response, 200, body, headers);
  response.writeHead(204, headers);
  response.end();
}

/** A v10 answer from the service itself: it carries `Via: 1.1 google` (the CDN's own answers do not). */
function sendV10(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(response, status, body, { ...headers, via: '1.1 google' });
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // A Buffer body keeps header bytes latin-1: Node would encode a string body and the header
  // block together as UTF-8, and raw header bytes (non-UTF-8 faults) would be lost.
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length, ...headers });
  response.end(bytes);
}
