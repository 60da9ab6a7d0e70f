/**
 * The proxy's options, as `createProxy` takes them and as `tollgate proxy` reads them from its
 * flags and environment: one table, so a flag, its variable and its check cannot drift apart.
 */
import { z } from 'zod';
import type { Store } from '../contracts/store.ts';
import { checkedOptions, milliseconds, whole } from '../option-shapes.ts';
import { clientOptionShapes } from '../http/options.ts';
import { relayOptionsSchema, type RelayOptions } from '../http/relay.ts';

/** The port `tollgate proxy` listens on unless told (`--port`). */
export const DEFAULT_PROXY_PORT = 8080;
/** Where the proxy sends requests unless told (`--upstream`): Discord. */
export const DEFAULT_UPSTREAM = 'https://discord.com';
/** Discord's largest upload (a boosted server's 500 MiB) is not a bot's everyday need: 25 MiB, the free tier's. */
export const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024;
/** A request waits at most this long for its place unless it asks for less (`X-Tollgate-Max-Wait`). */
export const DEFAULT_PROXY_MAX_WAIT_MS = 30_000;
/** On SIGTERM, requests under way get this long to finish. */
export const DEFAULT_DRAIN_MS = 10_000;
/** A client has this long to send its request's headers. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** A client has this long beyond the longest wait to send its whole request (its body is read after the wait). */
export const REQUEST_TIMEOUT_BEYOND_WAIT_MS = 60_000;

/** How much the proxy logs: its start and stop (`info`), a line a request too (`debug`), or nothing; never a token. */
export type LogLevel = 'silent' | 'info' | 'debug';

/** `createProxy`'s options (docs/proxy.md has the command line's flags for each). */
export interface ProxyOptions {
  /** The address to listen on (default `127.0.0.1`: closed to the network unless told). */
  readonly host?: string;
  /** The port (default 8080; 0 takes a free one). */
  readonly port?: number;
  /** The origin requests go to (default `https://discord.com`); only its `/api/` paths are served. */
  readonly upstream?: string;
  /** Where the limits are kept (default: a `MemoryStore`, this replica alone). */
  readonly store?: Store;
  /** Whether the store is reachable now, for `/readyz` (default: always). */
  readonly storeReady?: () => Promise<boolean>;
  /** A request without `X-Tollgate-Proxy-Key: <secret>` gets a 401 from the proxy. */
  readonly secret?: string;
  /** The largest request body, in bytes (default 25 MiB): a larger one gets a 413. */
  readonly maxBody?: number;
  /** The longest a request waits for its place, in ms (default 30 000); a bot may ask for less. */
  readonly maxWait?: number;
  /** Serve `GET /metrics` (Prometheus text). Default false. */
  readonly metrics?: boolean;
  /** Tokens whose limits are kept at once (default 1000). */
  readonly maxTokens?: number;
  /** v10: requests per second per token, if the service granted your bots more (default 50). */
  readonly globalLimit?: number;
  /** v10: a bot's own requests per second, by its id, over `globalLimit` (`--global-limit <bot id>=<n>`). */
  readonly botGlobalLimits?: Readonly<Record<string, number>>;
  /** How long SIGTERM's drain waits for requests under way, in ms (default 10 000). */
  readonly drainMs?: number;
  /** How long a client may take to send a request's headers, in ms (default 10 000); then a 408. */
  readonly headersTimeout?: number;
  /**
   * How long a client may take to send a whole request, in ms, its wait for its place included
   * (default: the longest wait + 60 000, at least 120 000); then a 408. Longer than `maxWait`.
   */
  readonly requestTimeout?: number;
  /** `info` (default): start and stop; `debug`: a line per request; `silent`. */
  readonly logLevel?: LogLevel;
  /** Where log lines go (default: standard error). One JSON object per line. */
  readonly log?: (line: string) => void;
  /** The fetch that sends (default: undici's request API when undici is installed, else the global fetch). */
  readonly fetch?: typeof fetch;
  /** OpenTelemetry spans and metrics for the relayed requests, as a client's (`docs/telemetry.md`). */
  readonly telemetry?: RelayOptions['telemetry'];
}

const httpOrigin = z
  .string({ error: 'upstream must be an http(s) origin such as https://discord.com' })
  .refine((value) => {
    const url = URL.parse(value);
    return url !== null && /^https?:$/.test(url.protocol) && (url.pathname === '/' || url.pathname === '');
  }, 'upstream must be an http(s) origin such as https://discord.com (no path)');

export const proxyOptionsSchema = z
  .strictObject({
    host: z.string({ error: 'host must be an address such as 127.0.0.1' }).min(1, 'host must not be empty').optional(),
    port: whole('port', 0, 65_535).optional(),
    upstream: httpOrigin.optional(),
    store: clientOptionShapes.store,
    storeReady: z
      .custom<() => Promise<boolean>>((value) => typeof value === 'function', 'storeReady must be a function')
      .optional(),
    secret: z
      .string({ error: 'secret must be a string' })
      .min(16, 'secret must be at least 16 characters')
      .refine(
        (value) => /^[\x21-\x7e]+$/.test(value),
        'secret must be printable ASCII without spaces (it is sent as a header)',
      )
      .optional(),
    maxBody: whole('maxBody', 0, Number.MAX_SAFE_INTEGER, ' of bytes').optional(),
    maxWait: clientOptionShapes.maxWait,
    metrics: z.boolean({ error: 'metrics must be true or false' }).optional(),
    maxTokens: clientOptionShapes.maxTokens,
    // The relay's own rule for the option (its dialect's): one place decides what a global limit may be.
    globalLimit: relayOptionsSchema.shape.globalLimit,
    botGlobalLimits: relayOptionsSchema.shape.botGlobalLimits,
    drainMs: milliseconds('drainMs', 0, 600_000).optional(),
    headersTimeout: whole('headersTimeout', 1, 600_000, ' of milliseconds').optional(),
    requestTimeout: whole('requestTimeout', 1, Number.MAX_SAFE_INTEGER, ' of milliseconds').optional(),
    logLevel: z.enum(['silent', 'info', 'debug'], { error: "logLevel must be 'silent', 'info' or 'debug'" }).optional(),
    log: z.custom<(line: string) => void>((value) => typeof value === 'function', 'log must be a function').optional(),
    fetch: clientOptionShapes.fetch,
    telemetry: clientOptionShapes.telemetry,
  })
  .refine(
    (options) =>
      options.requestTimeout === undefined || options.requestTimeout > (options.maxWait ?? DEFAULT_PROXY_MAX_WAIT_MS),
    "requestTimeout must be longer than maxWait (a request's wait counts in it)",
  )
  .refine(
    (options) => (options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS) <= requestTimeoutOf(options),
    'headersTimeout must not be longer than requestTimeout (the headers are part of the request)',
  );

/** The whole request's bound: as given, or the longest wait plus a minute, and at least 120 s. */
export function requestTimeoutOf(options: Pick<ProxyOptions, 'requestTimeout' | 'maxWait'>): number {
  return (
    options.requestTimeout ??
    Math.max(120_000, (options.maxWait ?? DEFAULT_PROXY_MAX_WAIT_MS) + REQUEST_TIMEOUT_BEYOND_WAIT_MS)
  );
}

/** The longest request timeout Node's HTTP server holds: it keeps the bound in 32 bits, and a longer one wraps around. */
const NODE_MAX_REQUEST_TIMEOUT_MS = 2 ** 32 - 1;

/**
 * `requestTimeoutOf` as the HTTP server is given it: 0 (no bound) past what Node holds, where
 * 2^32 + 200 ms would cut a request off at 200 ms, long before the wait it is allowed.
 */
export function serverRequestTimeoutOf(options: Pick<ProxyOptions, 'requestTimeout' | 'maxWait'>): number {
  const timeout = requestTimeoutOf(options);
  return timeout > NODE_MAX_REQUEST_TIMEOUT_MS ? 0 : timeout;
}

/** The options, checked: one TollgateArgumentError names every problem. */
export function checkProxyOptions(options: ProxyOptions): ProxyOptions {
  return checkedOptions(proxyOptionsSchema, options, 'createProxy');
}
