/**
 * `createClient`: options checked once, one ky instance whose hooks are the limiter, the typed
 * resources from `generated/`, `request` for raw calls, the read-only bucket view and `close`.
 */
import ky, { isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import { z } from 'zod';
import { createResources, type Resources } from '../../generated/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import { ClientClosedError, HttpError, NetworkError, RequestTimeoutError, TollgateArgumentError } from '../errors.ts';
import { kyRetryOptions, Limiter, type WaitEvent } from '../limiter/limiter.ts';
import type { BucketRecord } from '../limiter/rules.ts';
import { MemoryStore, type RateLimitStore } from '../limiter/store.ts';
import { bucketKeyOf } from '../routing/classify.ts';
import { catalogClassifier } from '../routing/route-key.ts';
import { buildPath } from '../routing/path.ts';
import type { OperationDefinition } from '../routing/types.ts';
import type { OperationInput, QueryInput, RequestOptions, RequestOptionsWithQuery } from '../sdk.ts';
import { readBody } from './body.ts';

/** The service's public v6 API. */
export const DEFAULT_BASE_URL = 'https://discord.com/api/v6';

export interface ClientOptions {
  /** API base URL, e.g. `http://127.0.0.1:8080/api`. Default: the service's public v6 base URL. */
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
});

const METHOD = /^[A-Z]+$/;

export function createClient(options: ClientOptions = {}): TollgateClient {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TollgateArgumentError(`createClient: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  }
  return new ClientCore(parsed.data).client;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

class ClientCore {
  readonly client: TollgateClient;
  readonly #ky: KyInstance;
  readonly #limiter: Limiter;
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number | false;
  #closed = false;

  constructor(options: z.infer<typeof optionsSchema>) {
    this.#baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#origin = new URL(this.#baseUrl).origin;
    this.#token = options.token;
    this.#timeoutMs = options.timeout ?? 15_000;
    const clock = options.clock ?? systemClock;
    this.#limiter = new Limiter({
      clock,
      store: (options.store ?? new MemoryStore()).forToken(options.token, clock),
      onWait: options.onWait,
      maxWaitMs: options.maxWait,
      maxHeaderResends: options.maxHeaderResends,
      transportRetries: options.transportRetries,
    });
    this.#ky = ky.create({
      ...(options.fetch && { fetch: options.fetch }),
      ...(options.headers && { headers: options.headers }),
      timeout: this.#timeoutMs,
      // A redirect is returned, never followed: Authorization must not follow it to another origin.
      redirect: 'manual',
      throwHttpErrors: false,
      retry: kyRetryOptions,
      hooks: this.#limiter.hooks(),
    });
    const resources = createResources((operation, args, input, callOptions) =>
      this.#invoke(operation, args, input, callOptions),
    );
    const limiter = this.#limiter;
    this.client = Object.freeze({
      ...resources,
      request: (method: string, path: string, requestOptions?: RawRequestOptions) =>
        this.#request(method, path, requestOptions),
      buckets: Object.freeze({
        get: async (bucketKey: string) => {
          if (typeof bucketKey !== 'string' || bucketKey === '') {
            throw new TollgateArgumentError(
              'buckets.get: bucketKey must be a bucket key such as "ChannelsIdMessages:81384788765712384"',
            );
          }
          return limiter.snapshot(bucketKey);
        },
      }),
      close: async () => {
        this.#closed = true;
        await limiter.close();
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
    checkOptions(label, options);
    const { path, values } = buildPath(operation.path, args);
    const body = checkBody(label, operation, input?.body);
    const majorId = operation.majorIndex >= 0 ? values[operation.majorIndex] : undefined;
    const bucketKey = bucketKeyOf(operation.routeKey, operation.method, operation.bucketHoldsMethod, majorId);
    const response = await this.#send(operation.method, path, operation.routeKey, bucketKey, {
      ...options,
      ...body,
      query: input?.query ?? options?.query,
      authenticated: !operation.unauthenticated,
    });
    const timeoutMs = this.#timeoutMs || undefined;
    const parsed = await readBody(
      response,
      timeoutMs,
      () => new RequestTimeoutError(operation.method, operation.routeKey, bucketKey, timeoutMs!),
    );
    if (!response.ok) throw new HttpError(operation.method, operation.routeKey, response, parsed);
    return parsed;
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
    const { routeKey, bucketKey } = catalogClassifier.classify(upper, path);
    return this.#send(upper, path, routeKey, bucketKey, { ...options, authenticated: true });
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
    routeKey: string,
    bucketKey: string,
    options: RawRequestOptions & { readonly authenticated: boolean },
  ): Promise<Response> {
    if (this.#closed) throw new ClientClosedError();
    const maxWait = options.maxWait;
    if (maxWait !== undefined && !(typeof maxWait === 'number' && maxWait >= 0)) {
      throw new TollgateArgumentError('maxWait must be a number of milliseconds, not negative');
    }
    const headers = this.#headersOf(options);
    const call = this.#limiter.newCall(routeKey, bucketKey, method, options.signal, maxWait);
    try {
      // Only the options in use: ky merges every key given, undefined ones too.
      const kyOptions: Options = { method, headers, context: Limiter.context(call) };
      if (options.json !== undefined) kyOptions.json = options.json;
      if (options.body !== undefined) kyOptions.body = options.body;
      if (options.query !== undefined) kyOptions.searchParams = toSearchParams(options.query);
      if (options.signal !== undefined) kyOptions.signal = options.signal;
      return await this.#ky(this.#baseUrl + path, kyOptions);
    } catch (error) {
      // ky's errors hold the Request, Authorization header included: callers get ours instead.
      if (isTimeoutError(error)) throw new RequestTimeoutError(method, routeKey, bucketKey, this.#timeoutMs || 0);
      if (isNetworkError(error)) throw new NetworkError(method, routeKey, bucketKey, error.cause);
      throw error;
    } finally {
      await this.#limiter.finish(call);
    }
  }
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

const OPTION_KEYS = new Set(['signal', 'headers', 'maxWait', 'query']);
const RAW_OPTION_KEYS = new Set([...OPTION_KEYS, 'json', 'body']);

function checkOptions(label: string, options: unknown, known: ReadonlySet<string> = OPTION_KEYS): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TollgateArgumentError(`${label}: options must be an object ({ ${[...known].join(', ')} })`);
  }
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new TollgateArgumentError(`${label}: unknown option "${key}"`);
  }
  const { signal } = options as { signal?: unknown };
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new TollgateArgumentError(`${label}: signal must be an AbortSignal`);
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
  if (body instanceof FormData) {
    if (!operation.multipart) throw new TollgateArgumentError(`${label} takes a JSON body, not FormData`);
    return { body };
  }
  if (typeof body !== 'object' || body === null) {
    throw new TollgateArgumentError(
      `${label}: body must be an object or an array, got ${body === null ? 'null' : typeof body}`,
    );
  }
  return { json: body };
}

function toSearchParams(query: QueryInput | undefined): URLSearchParams | undefined {
  if (query === undefined) return undefined;
  if (typeof query !== 'object' || query === null) throw new TollgateArgumentError('query must be an object');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (!['string', 'number', 'bigint', 'boolean'].includes(typeof value)) {
      throw new TollgateArgumentError(`query parameter "${key}" must be a string, number, bigint or boolean`);
    }
    params.append(key, String(value));
  }
  return params;
}
