/**
 * `createClient`: options checked once, a ky instance whose hooks are the limiter (v10: a second
 * one for calls sent without Authorization, on the IP's budget), the typed resources from
 * `generated/`, `request` for raw calls, the read-only bucket view and `close`.
 */
import ky, { isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import { z } from 'zod';
import { createResources, type Resources } from '../../generated/index.ts';
import { monotonicClock, systemClock, type Clock } from '../clock.ts';
import { ClientClosedError, HttpError, NetworkError, RequestTimeoutError, TollgateArgumentError } from '../errors.ts';
import {
  InvalidRequestWarnings,
  kyRetryOptions,
  Limiter,
  type InvalidRequestsEvent,
  type WaitEvent,
} from '../limiter/limiter.ts';
import type { BucketRecord } from '../limiter/rules.ts';
import { MemoryStore, type RateLimitStore } from '../limiter/store.ts';
import { v10Judge } from '../limiter/v10/judge.ts';
import {
  DEFAULT_GLOBAL_LIMIT,
  DEFAULT_GLOBAL_MARGIN_MS,
  DEFAULT_INVALID_REQUEST_LIMIT,
  DEFAULT_RESET_MARGIN_MS,
} from '../limiter/v10/rules.ts';
import { bucketKeyOf, NONE } from '../routing/classify.ts';
import { classifyV10 } from '../routing/v10-route.ts';
import { catalogClassifier } from '../routing/route-key.ts';
import { buildPath } from '../routing/path.ts';
import type { OperationDefinition } from '../routing/types.ts';
import type { OperationInput, QueryInput, RequestOptions, RequestOptionsWithQuery } from '../sdk.ts';
import { readBody } from './body.ts';
import { isScalar, toFormFields, toMultipart, toUrlEncoded } from './multipart.ts';

/** The service's public API, current version (v10). */
export const DEFAULT_BASE_URL = 'https://discord.com/api/v10';
/** The service's public v6 API (the seed rules of docs/spec/rate-limit-spec.md). */
export const V6_BASE_URL = 'https://discord.com/api/v6';

/** Which rules the client follows: v10 (docs/spec/v10-rate-limits.md) or v6 (docs/spec/rate-limit-spec.md). */
export type ApiVersion = 'v10' | 'v6';

export interface ClientOptions {
  /**
   * The API version and so the rate-limit rules (V1). Default: from `baseUrl` (`…/v8`–`/v10`:
   * v10; `…/api`, `…/v6`, `…/v7`: v6), else v10. A base URL of the other version is an error.
   */
  readonly api?: ApiVersion;
  /** API base URL, e.g. `http://127.0.0.1:8080/api/v10`. Default: the service's public URL of `api`. */
  readonly baseUrl?: string;
  /** Sent verbatim as the Authorization header (`Bot …`). Optional. */
  readonly token?: string;
  /** The fetch to send with (a custom transport, another runtime's fetch). Default: global fetch. */
  readonly fetch?: typeof fetch;
  /** Where buckets and the global lock live. Default: a new in-memory store. `RedisStore` (tollgate/redis) shares them across processes. */
  readonly store?: RateLimitStore;
  /** Time source for the limiter. Default: the system clock. */
  readonly clock?: Clock;
  /** Longest single rate-limit wait (ms) a call accepts before failing with RateLimitWaitError. Default: no limit. */
  readonly maxWait?: number;
  /** Times a request is sent again when its rate-limit headers do not parse (spec step 6.4). Default: 3. */
  readonly maxHeaderResends?: number;
  /** Transport retries for network errors and 5xx responses, idempotent methods only. Default: 2. */
  readonly transportRetries?: number;
  /** Per-attempt timeout (ms) for the response headers, and again for a typed method's body; false for none. Default: 15000. */
  readonly timeout?: number | false;
  /** Headers sent with every request (Authorization is set from `token`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called for every rate-limit or retry wait: bucket key, reason, wait in ms. Never sees the token. */
  readonly onWait?: (event: WaitEvent) => void;
  /** v10, V13: requests per second per token, paced ahead (default 50; larger bots are granted more). */
  readonly globalLimit?: number;
  /** v10, V8: ms added after a window's end before sending again. Default 50. */
  readonly resetMargin?: number;
  /** v10, V13: ms added to the 1 s global window; each request already counts from its answer's arrival. Default 10. */
  readonly globalMargin?: number;
  /** v10, V15: invalid requests (401, 403, non-shared 429) in 10 minutes at which nothing more is sent. Default 9000 (the service bans at 10 000). */
  readonly invalidRequestLimit?: number;
  /** v10, V15: told when the invalid-request count reaches 50 % and 80 % of `invalidRequestLimit`. */
  readonly onInvalidRequests?: (event: InvalidRequestsEvent) => void;
}

/** Options of `client.request`. */
export interface RawRequestOptions extends RequestOptions {
  /** A JSON body (serialised for you). */
  readonly json?: unknown;
  /** Any other body (FormData, text, bytes). */
  readonly body?: BodyInit;
  readonly query?: QueryInput;
}

export interface BucketView {
  /** A copy of the bucket's record, or undefined when none exists yet. */
  get(bucketKey: string): Promise<Readonly<BucketRecord> | undefined>;
}

export type TollgateClient = Resources & {
  /** The API version this client speaks, and so the rate-limit rules it follows. */
  readonly api: ApiVersion;
  /** v10, V15: invalid requests of the last 10 minutes, every client of the store (0 under v6). */
  invalidRequests(): Promise<number>;
  /** A raw call: the path is relative to the base URL. Resolves to the Response as received, whatever its status. */
  request(method: string, path: string, options?: RawRequestOptions): Promise<Response>;
  readonly buckets: BucketView;
  /** Fails waiting calls with ClientClosedError, cancels the limiter's timers and refuses new calls. */
  close(): Promise<void>;
};

const nonNegative = (what: string) =>
  z.number({ error: `${what} must be a number of milliseconds` }).nonnegative(`${what} must not be negative`);
const count = (what: string) =>
  z
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .nonnegative()
    .max(100);

const optionsSchema = z.strictObject({
  api: z.enum(['v10', 'v6'], { error: "api must be 'v10' or 'v6'" }).optional(),
  baseUrl: z
    .string()
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'baseUrl must be an absolute http(s) URL')
    .optional(),
  token: z.string().min(1, 'token must not be empty').optional(),
  fetch: z.custom<typeof fetch>((value) => typeof value === 'function', 'fetch must be a function').optional(),
  store: z
    .custom<RateLimitStore>(
      (value) =>
        typeof value === 'object' && value !== null && typeof (value as RateLimitStore).forToken === 'function',
      'store must be a RateLimitStore (MemoryStore or RedisStore)',
    )
    .optional(),
  clock: z
    .custom<Clock>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as Clock).now === 'function' &&
        typeof (value as Clock).setTimeout === 'function',
      'clock must have now() and setTimeout()',
    )
    .optional(),
  maxWait: nonNegative('maxWait').optional(),
  maxHeaderResends: count('maxHeaderResends').optional(),
  transportRetries: count('transportRetries').optional(),
  timeout: z.union([z.literal(false), z.number().positive().max(2_147_483_647)]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  onWait: z
    .custom<(event: WaitEvent) => void>((value) => typeof value === 'function', 'onWait must be a function')
    .optional(),
  globalLimit: z
    .number({ error: 'globalLimit must be a whole number of requests per second' })
    .int('globalLimit must be a whole number of requests per second')
    .min(1, 'globalLimit must be at least 1')
    .max(100_000)
    .optional(),
  resetMargin: nonNegative('resetMargin').max(60_000).optional(),
  globalMargin: nonNegative('globalMargin').max(60_000).optional(),
  invalidRequestLimit: z
    .number({ error: 'invalidRequestLimit must be a whole number' })
    .int('invalidRequestLimit must be a whole number')
    .min(1, 'invalidRequestLimit must be at least 1')
    .max(10_000, 'invalidRequestLimit above 10000 would let the service ban the IP first')
    .optional(),
  onInvalidRequests: z
    .custom<(event: InvalidRequestsEvent) => void>(
      (value) => typeof value === 'function',
      'onInvalidRequests must be a function',
    )
    .optional(),
});

/** V1: the version a base URL names (`/api` alone is v6), or undefined when it names none. */
export function apiOfBaseUrl(baseUrl: string): ApiVersion | undefined {
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const version = /\/v(\d+)$/.exec(path)?.[1];
  if (version !== undefined) return Number(version) >= 8 ? 'v10' : 'v6';
  return /\/api$/.test(path) ? 'v6' : undefined;
}

const METHOD = /^[A-Z]+$/;

export function createClient(options: ClientOptions = {}): TollgateClient {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TollgateArgumentError(`createClient: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  }
  const { api: chosen, baseUrl } = parsed.data;
  const named = baseUrl === undefined ? undefined : apiOfBaseUrl(baseUrl);
  if (chosen !== undefined && named !== undefined && chosen !== named) {
    throw new TollgateArgumentError(`createClient: api is '${chosen}' but baseUrl names ${named}`);
  }
  return new ClientCore(parsed.data, chosen ?? named ?? 'v10').client;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

class ClientCore {
  readonly client: TollgateClient;
  /** The limiter of the client's token and the ky instance whose hooks it is. */
  readonly #main: Lane;
  /**
   * v10, V13: a call sent without Authorization by a client that has a token (the widget image,
   * OAuth2's token endpoints) counts in the per-IP budget, not the token's: its own limiter on
   * the store's view without a token, and ky instance. Absent when both are the same.
   */
  readonly #anonymous: Lane | undefined;
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number | false;
  readonly #api: ApiVersion;
  readonly #clock: Clock;
  #closed = false;

  constructor(options: z.infer<typeof optionsSchema>, api: ApiVersion) {
    this.#api = api;
    this.#baseUrl = (options.baseUrl ?? (api === 'v10' ? DEFAULT_BASE_URL : V6_BASE_URL)).replace(/\/+$/, '');
    this.#origin = new URL(this.#baseUrl).origin;
    this.#token = options.token;
    this.#timeoutMs = options.timeout ?? 15_000;
    // v6's reset is wall time (whole Unix seconds); v10 counts Reset-After on a monotonic clock (V3).
    const clock = options.clock ?? (api === 'v10' ? monotonicClock : systemClock);
    this.#clock = clock;
    const store = options.store ?? new MemoryStore();
    const common = {
      clock,
      onWait: options.onWait,
      maxWaitMs: options.maxWait,
      maxHeaderResends: options.maxHeaderResends,
      transportRetries: options.transportRetries,
    };
    const kyFor = (limiter: Limiter) =>
      ky.create({
        ...(options.fetch && { fetch: options.fetch }),
        ...(options.headers && { headers: options.headers }),
        timeout: this.#timeoutMs,
        // A redirect is returned, never followed: Authorization must not follow it to another origin.
        redirect: 'manual',
        throwHttpErrors: false,
        retry: kyRetryOptions,
        hooks: limiter.hooks(),
      });
    let limiter: Limiter;
    if (api === 'v10') {
      const invalidRequestLimit = options.invalidRequestLimit ?? DEFAULT_INVALID_REQUEST_LIMIT;
      const invalidWarnings = new InvalidRequestWarnings(invalidRequestLimit, options.onInvalidRequests);
      const v10Limiter = (token: string | undefined) =>
        new Limiter({
          ...common,
          store: store.forToken(token, clock, {
            globalLimit: options.globalLimit ?? DEFAULT_GLOBAL_LIMIT,
            marginMs: options.resetMargin ?? DEFAULT_RESET_MARGIN_MS,
            globalMarginMs: options.globalMargin ?? DEFAULT_GLOBAL_MARGIN_MS,
            invalidRequestLimit,
          }),
          judge: v10Judge(this.#timeoutMs || 15_000),
          sharedBuckets: true,
          invalidWarnings,
        });
      limiter = v10Limiter(options.token);
      if (options.token !== undefined) {
        const anonymous = v10Limiter(undefined);
        this.#anonymous = { limiter: anonymous, ky: kyFor(anonymous) };
      }
    } else {
      limiter = new Limiter({ ...common, store: store.forToken(options.token, clock) });
    }
    this.#main = { limiter, ky: kyFor(limiter) };
    const caller = Object.assign(
      (
        operation: OperationDefinition,
        args: readonly unknown[],
        input?: OperationInput,
        callOptions?: RequestOptionsWithQuery<QueryInput>,
      ) => this.#invoke(operation, args, input, callOptions),
      {
        url: (operation: OperationDefinition, args: readonly unknown[], query?: QueryInput) =>
          this.#url(operation, args, query),
      },
    );
    const resources = createResources(caller);
    this.client = Object.freeze({
      ...resources,
      api,
      invalidRequests: () => limiter.invalidRequests(),
      request: (method: string, path: string, requestOptions?: RawRequestOptions) =>
        this.#request(method, path, requestOptions),
      buckets: Object.freeze({
        get: async (bucketKey: string) => {
          if (typeof bucketKey !== 'string' || bucketKey === '') {
            throw new TollgateArgumentError(
              'buckets.get: bucketKey must be a bucket key such as "ChannelsIdMessages:81384788765712384"',
            );
          }
          // Calls without Authorization keep their buckets in the IP's lane.
          return (await limiter.snapshot(bucketKey)) ?? this.#anonymous?.limiter.snapshot(bucketKey);
        },
      }),
      close: async () => {
        this.#closed = true;
        await Promise.all([limiter.close(), this.#anonymous?.limiter.close()]);
      },
    });
  }

  async #invoke(
    operation: OperationDefinition,
    args: readonly unknown[],
    input: OperationInput | undefined,
    options: RequestOptionsWithQuery<QueryInput> | undefined,
  ): Promise<unknown> {
    const label = operation.name;
    checkOptions(label, options, operation.auditLogReason ? AUDIT_OPTION_KEYS : OPTION_KEYS);
    const { path, values } = buildPath(operation.path, args);
    const body = checkBody(label, operation, input?.body);
    if (operation.queryRequired && input?.query === undefined)
      throw new TollgateArgumentError(`${label} needs a query`);
    const target =
      this.#api === 'v10' ? this.#v10Target(operation.method, path, operation.routeKey) : v6Target(operation, values);
    const bucketKey = target.bucketKey;
    const { reason, ...requestOptions } = (options ?? {}) as RequestOptionsWithQuery<QueryInput> & { reason?: string };
    const response = await this.#send(operation.method, path, target, {
      ...requestOptions,
      ...body,
      headers: withReason(requestOptions.headers, reason),
      query: input?.query ?? options?.query,
      authenticated: !operation.unauthenticated && !target.exempt,
    });
    const timeoutMs = this.#timeoutMs || undefined;
    const parsed = await readBody(
      response,
      operation.binaryResult && response.ok,
      timeoutMs,
      () => new RequestTimeoutError(operation.method, operation.routeKey, bucketKey, timeoutMs!),
    );
    if (!response.ok) {
      // A path with a secret (a webhook or interaction token) must not reach the error: its
      // Response is handed over without the URL (the body was read into `body`).
      const secret = operation.path.some((segment) => typeof segment !== 'string' && segment.kind === 'secret');
      const shown = secret
        ? new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
        : response;
      throw new HttpError(operation.method, operation.routeKey, shown, parsed);
    }
    return parsed;
  }

  /** A link operation's page: base URL, path and query; nothing is sent. */
  #url(operation: OperationDefinition, args: readonly unknown[], query: QueryInput | undefined): string {
    const { path } = buildPath(operation.path, args);
    const search = toSearchParams(query)?.toString();
    return `${this.#baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  async #request(method: string, path: string, options: RawRequestOptions = {}): Promise<Response> {
    if (typeof method !== 'string' || !METHOD.test(method.toUpperCase())) {
      throw new TollgateArgumentError(`request: method must be an HTTP method name, got ${JSON.stringify(method)}`);
    }
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
      // An absolute URL would carry the token to another origin.
      throw new TollgateArgumentError('request: path must be relative to the base URL and start with a single "/"');
    }
    if (URL.parse(this.#baseUrl + path)?.origin !== this.#origin) {
      throw new TollgateArgumentError("request: path must stay on the base URL's origin");
    }
    checkOptions('request', options, RAW_OPTION_KEYS);
    if (options.json !== undefined && options.body !== undefined) {
      throw new TollgateArgumentError('request: pass either json or body, not both');
    }
    const upper = method.toUpperCase();
    const target =
      this.#api === 'v10'
        ? this.#v10Target(upper, path)
        : { ...catalogClassifier.classify(upper, path), exempt: false, webhookWithToken: false };
    return this.#send(upper, path, target, { ...options, authenticated: !target.exempt });
  }

  /**
   * Where a v10 call's state lives: the local key (route + top-level resource, V4), and whether
   * the route is exempt (V13) or a webhook with its token (V19). Events and errors name the
   * catalog key where there is one.
   */
  #v10Target(method: string, path: string, catalogKey?: string): CallTarget {
    const route = classifyV10(method, path, this.#clock.now());
    return {
      routeKey: catalogKey ?? route.route,
      bucketKey: route.bucketKey,
      exempt: route.exempt,
      webhookWithToken: route.webhookWithToken,
    };
  }

  /** The call's own headers plus Authorization (unless the call set its own). A plain object on the common path: ky merges it cheaply. */
  #headersOf(options: RawRequestOptions & { readonly authenticated: boolean }): HeadersInit {
    const token = options.authenticated ? this.#token : undefined;
    if (options.headers === undefined) return token === undefined ? NO_HEADERS : { authorization: token };
    const headers = new Headers(options.headers);
    if (token !== undefined && !headers.has('authorization')) headers.set('authorization', token);
    return headers;
  }

  async #send(
    method: string,
    path: string,
    target: CallTarget,
    options: RawRequestOptions & { readonly authenticated: boolean },
  ): Promise<Response> {
    const { routeKey, bucketKey } = target;
    if (this.#closed) throw new ClientClosedError();
    const maxWait = options.maxWait;
    if (maxWait !== undefined && !(typeof maxWait === 'number' && maxWait >= 0)) {
      throw new TollgateArgumentError('maxWait must be a number of milliseconds, not negative');
    }
    const headers = this.#headersOf(options);
    // V13: without Authorization (and not exempt), the call counts in the per-IP budget.
    const lane = !options.authenticated && !target.exempt && this.#anonymous ? this.#anonymous : this.#main;
    const call = lane.limiter.newCall(routeKey, bucketKey, method, options.signal, maxWait, target);
    try {
      // Only the options in use: ky merges every key given, undefined ones too.
      const kyOptions: Options = { method, headers, context: Limiter.context(call) };
      if (options.json !== undefined) kyOptions.json = options.json;
      if (options.body !== undefined) kyOptions.body = options.body;
      if (options.query !== undefined) kyOptions.searchParams = toSearchParams(options.query);
      if (options.signal !== undefined) kyOptions.signal = options.signal;
      return await lane.ky(this.#baseUrl + path, kyOptions);
    } catch (error) {
      // ky's errors hold the Request, Authorization header included: callers get ours instead.
      if (isTimeoutError(error)) throw new RequestTimeoutError(method, routeKey, bucketKey, this.#timeoutMs || 0);
      if (isNetworkError(error)) throw new NetworkError(method, routeKey, bucketKey, error.cause);
      throw error;
    } finally {
      await lane.limiter.finish(call);
    }
  }
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Where a v6 typed call's state lives: the catalog's route key and bucket key. */
function v6Target(operation: OperationDefinition, values: readonly string[]): CallTarget {
  if (operation.v10Only) return V6_NONE;
  const majorId = operation.majorIndex >= 0 ? values[operation.majorIndex] : undefined;
  return {
    routeKey: operation.routeKey,
    bucketKey: bucketKeyOf(operation.routeKey, operation.method, operation.bucketHoldsMethod, majorId),
    exempt: false,
    webhookWithToken: false,
  };
}

/** v6, spec §5: a route outside the spec's keys is None: sent without pre-check or post-processing. */
const V6_NONE: CallTarget = { routeKey: NONE, bucketKey: NONE, exempt: false, webhookWithToken: false };

interface Lane {
  readonly limiter: Limiter;
  readonly ky: KyInstance;
}

interface CallTarget {
  readonly routeKey: string;
  readonly bucketKey: string;
  readonly exempt: boolean;
  readonly webhookWithToken: boolean;
}

const OPTION_KEYS = new Set(['signal', 'headers', 'maxWait', 'query']);
const AUDIT_OPTION_KEYS = new Set([...OPTION_KEYS, 'reason']);
/** The service keeps at most 512 characters of an audit-log reason. */
const MAX_REASON_LENGTH = 512;
const RAW_OPTION_KEYS = new Set([...OPTION_KEYS, 'json', 'body']);

function checkOptions(label: string, options: unknown, known: ReadonlySet<string> = OPTION_KEYS): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TollgateArgumentError(`${label}: options must be an object ({ ${[...known].join(', ')} })`);
  }
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new TollgateArgumentError(`${label}: unknown option "${key}"`);
  }
  const { signal, reason } = options as { signal?: unknown; reason?: unknown };
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new TollgateArgumentError(`${label}: signal must be an AbortSignal`);
  if (
    reason !== undefined &&
    !(typeof reason === 'string' && reason.length >= 1 && reason.length <= MAX_REASON_LENGTH)
  ) {
    throw new TollgateArgumentError(`${label}: reason must be a string of 1 to ${MAX_REASON_LENGTH} characters`);
  }
}

/** The call's headers with the audit-log reason (URL-encoded, as the service reads it). */
function withReason(headers: HeadersInit | undefined, reason: string | undefined): HeadersInit | undefined {
  if (reason === undefined) return headers;
  const merged = new Headers(headers);
  merged.set('x-audit-log-reason', encodeURIComponent(reason));
  return merged;
}

function checkBody(label: string, operation: OperationDefinition, body: unknown): { json?: unknown; body?: BodyInit } {
  if (operation.body === 'none') {
    if (body !== undefined) throw new TollgateArgumentError(`${label} takes no body`);
    return {};
  }
  if (body === undefined) {
    if (operation.body === 'required') throw new TollgateArgumentError(`${label} needs a body`);
    return {};
  }
  const { encoding } = operation;
  if (body instanceof FormData) {
    if (encoding === 'json' || encoding === 'urlencoded') {
      throw new TollgateArgumentError(
        `${label} takes a ${encoding === 'json' ? 'JSON' : 'form-encoded'} body, not FormData`,
      );
    }
    return { body };
  }
  if (typeof body !== 'object' || body === null) {
    throw new TollgateArgumentError(
      `${label}: body must be an object or an array, got ${body === null ? 'null' : typeof body}`,
    );
  }
  if (encoding === 'json') return { json: body };
  if (Array.isArray(body)) {
    if (encoding === 'json+files') return { json: body };
    throw new TollgateArgumentError(`${label}: body must be an object of fields, not an array`);
  }
  const fields = body as Record<string, unknown>;
  if (encoding === 'form-data') return { body: toFormFields(label, fields) };
  if (encoding === 'urlencoded') return { body: toUrlEncoded(label, fields) };
  const form = toMultipart(label, fields, operation.attachmentsIn);
  return form ? { body: form } : { json: body };
}

function toSearchParams(query: QueryInput | undefined): URLSearchParams | undefined {
  if (query === undefined) return undefined;
  if (typeof query !== 'object' || query === null) throw new TollgateArgumentError('query must be an object');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isScalar(item)) {
        throw new TollgateArgumentError(
          `query parameter "${key}" must be a string, number, bigint or boolean, or a list of them`,
        );
      }
      params.append(key, String(item));
    }
  }
  return params;
}
