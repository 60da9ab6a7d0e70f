/**
 * Every option a client or a call takes, checked once. The lists of option keys are derived from
 * the options' types (`satisfies` keeps each list and its type in step), never kept by hand.
 */
import { z } from 'zod';
import { checkedOptions, isFunction, listener, milliseconds, whole } from '../option-shapes.ts';
import { cdnOptionsSchema, type CdnOptions } from '../cdn/index.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../contracts/store.ts';
import { API_VERSIONS, type ApiVersion } from '../dialects/index.ts';
import { DIALECT_OPTION_SHAPES, type DialectOptions } from '../dialects/options.ts';
import { TollgateArgumentError } from '../errors.ts';
import { checkJson } from './encode.ts';
import type { WaitEvent } from '../limiter/events.ts';
import type { TelemetryOption } from '../telemetry/telemetry.ts';
import type { AuditLogOptions, QueryInput, RequestOptionsWithQuery } from '../sdk.ts';
import { allowedMentionsSchema, type AllowedMentions } from './mentions.ts';

/** `createClient`'s options: the client's own, and those of the dialects (`DialectOptions`: v10's). */
export interface ClientOptions extends DialectOptions {
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
  readonly store?: Store;
  /** Time source for the limiter. Default: the system clock. */
  readonly clock?: Clock;
  /** Longest single rate-limit wait (ms) a call accepts before failing with RateLimitWaitError. Default: no limit. */
  readonly maxWait?: number;
  /** Times a request is sent again when its rate-limit headers do not parse (spec step 6.4). Default: 3. */
  readonly maxHeaderResends?: number;
  /** Transport retries for network errors and 5xx responses, idempotent methods only. Default: 2. */
  readonly transportRetries?: number;
  /** Per-attempt timeout (ms) for the response headers, and again for a typed method's body and for a 429's; false for none. Default: 15000. */
  readonly timeout?: number | false;
  /** Headers sent with every request (Authorization is set from `token`; never set it here). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Added to the User-Agent, `DiscordBot (<repository>, <version>)`, e.g. `MyBot/1.2`. */
  readonly userAgentAppendix?: string;
  /** Called for every rate-limit or retry wait: bucket key, reason, wait in ms. Never sees the token. */
  readonly onWait?: (event: WaitEvent) => void;
  /**
   * OpenTelemetry spans and metrics (needs the optional peer `@opentelemetry/api`): your
   * `{ tracerProvider, meterProvider }` (either may be left out: the global one), or `true` for
   * the global providers. Off by default.
   */
  readonly telemetry?: TelemetryOption;
  /** `client.cdn`'s base URLs (createCdn's options). Default: the service's CDN and media proxy. */
  readonly cdn?: CdnOptions;
  /**
   * Which mentions a message may ping, unless its body says (`allowed_mentions`): filled into
   * every body that can mention (messages, webhooks, interaction responses and follow-ups, a forum
   * post's first message). `{ parse: [] }` pings no one. Default: none (Discord's own default).
   */
  readonly allowedMentions?: AllowedMentions;
  /**
   * How many tokens' lanes `withToken` keeps (default 1000); past that the least recently used
   * one with no call under way goes, and its token's next call makes it anew.
   */
  readonly maxTokens?: number;
}

/** Options of `client.request`. */
export interface RawRequestOptions extends RequestOptionsWithQuery<QueryInput> {
  /** A JSON body (serialised for you). */
  readonly json?: unknown;
  /** Any other body (FormData, text, bytes). */
  readonly body?: BodyInit;
}

const MAX_TIMER_MS = 2_147_483_647;
const maxWait = milliseconds('maxWait', 0, Number.MAX_SAFE_INTEGER);
const timeout = z.union([z.literal(false), milliseconds('timeout', 1, MAX_TIMER_MS, true)], {
  error: `timeout must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, or false for none`,
});
const transportRetries = whole('transportRetries', 0, 100);

/** Header values are Latin-1 text without NUL or line breaks; anything else fails in fetch, with the value in its message. */
const HEADER_TEXT = /^[\t\x20-\x7e\x80-\xff]+$/;
const hasAuthorization = (headers: Readonly<Record<string, string>>) =>
  Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');

/** `createClient`'s options: one entry per key of `ClientOptions`. */
export const clientOptionShapes = {
  api: z
    .enum(API_VERSIONS as [ApiVersion, ...ApiVersion[]], {
      error: `api must be ${API_VERSIONS.map((api) => `'${api}'`).join(' or ')}`,
    })
    .optional(),
  baseUrl: z
    .string()
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'baseUrl must be an absolute http(s) URL')
    .optional(),
  // Never echo the token: every message here describes it without showing it.
  token: z
    .string({ error: 'token must be a string such as "Bot …"' })
    .min(1, 'token must not be empty')
    .refine(
      (value) => HEADER_TEXT.test(value),
      'token must be printable Latin-1 text (no NUL, line breaks or characters above U+00FF); the token is not shown',
    )
    .optional(),
  fetch: z.custom<typeof fetch>(isFunction, 'fetch must be a function').optional(),
  store: z
    .custom<Store>(
      (value) => typeof value === 'object' && value !== null && isFunction((value as Store).view),
      'store must be a Store (MemoryStore, RedisStore or one of your own with view())',
    )
    .optional(),
  clock: z
    .custom<Clock>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        isFunction((value as Clock).now) &&
        isFunction((value as Clock).setTimeout),
      'clock must have now() and setTimeout()',
    )
    .optional(),
  maxWait: maxWait.optional(),
  maxHeaderResends: whole('maxHeaderResends', 0, 100).optional(),
  transportRetries: transportRetries.optional(),
  timeout: timeout.optional(),
  headers: z
    .record(z.string(), z.string(), { error: 'headers must be an object of header names to string values' })
    .refine(
      (headers) => !hasAuthorization(headers),
      'headers must not set Authorization: the token option is the one way to authenticate',
    )
    .optional(),
  userAgentAppendix: z
    .string({ error: 'userAgentAppendix must be a string' })
    .max(256, 'userAgentAppendix must be at most 256 characters')
    .refine((value) => value === '' || HEADER_TEXT.test(value), 'userAgentAppendix must be printable Latin-1 text')
    .optional(),
  onWait: listener<(event: WaitEvent) => void>('onWait').optional(),
  telemetry: z
    .custom<TelemetryOption>(
      (value) =>
        typeof value === 'boolean' ||
        (typeof value === 'object' &&
          value !== null &&
          Object.keys(value).every((key) => key === 'tracerProvider' || key === 'meterProvider') &&
          ((value as { tracerProvider?: { getTracer?: unknown } }).tracerProvider === undefined ||
            isFunction((value as { tracerProvider: { getTracer?: unknown } }).tracerProvider.getTracer)) &&
          ((value as { meterProvider?: { getMeter?: unknown } }).meterProvider === undefined ||
            isFunction((value as { meterProvider: { getMeter?: unknown } }).meterProvider.getMeter))),
      'telemetry must be true, false, or { tracerProvider?, meterProvider? } (OpenTelemetry providers)',
    )
    .optional(),
  cdn: cdnOptionsSchema.optional(),
  allowedMentions: allowedMentionsSchema.optional(),
  maxTokens: whole('maxTokens', 1, 1_000_000).optional(),
  ...DIALECT_OPTION_SHAPES,
} satisfies { readonly [Key in keyof Required<ClientOptions>]: z.ZodType<ClientOptions[Key]> };

const clientOptionsSchema = z.strictObject(clientOptionShapes);

export type CheckedClientOptions = z.infer<typeof clientOptionsSchema>;

/** `createClient`'s options, checked: a TollgateArgumentError names every problem. */
export function checkClientOptions(options: ClientOptions): CheckedClientOptions {
  return checkedOptions(clientOptionsSchema, options, 'createClient');
}

/** Every key of an options type, each `true`: an object literal of this type must list them all, and no other. */
type KeyList<Options> = { readonly [Key in keyof Required<Options>]: true };
const keysOf = <Options>(keys: KeyList<Options>): ReadonlySet<string> => new Set(Object.keys(keys));

/** The options every typed method takes. */
const REQUEST_KEYS: KeyList<RequestOptionsWithQuery<QueryInput>> = {
  signal: true,
  headers: true,
  maxWait: true,
  timeout: true,
  transportRetries: true,
  query: true,
};
export const OPTION_KEYS = keysOf(REQUEST_KEYS);
/** The options of a method whose action enters the audit log. */
export const AUDIT_OPTION_KEYS = keysOf<RequestOptionsWithQuery<QueryInput> & AuditLogOptions>({
  ...REQUEST_KEYS,
  reason: true,
});
/** The options of an operation: `reason` where it enters the audit log, `body` where its body goes there. */
export function optionKeysOf(operation: { readonly auditLogReason: boolean; readonly bodyInOptions?: true }) {
  return OPERATION_OPTION_KEYS[operation.auditLogReason ? 1 : 0]![operation.bodyInOptions ? 1 : 0]!;
}
const withBody = (keys: ReadonlySet<string>): ReadonlySet<string> => new Set([...keys, 'body']);
const OPERATION_OPTION_KEYS = [
  [OPTION_KEYS, withBody(OPTION_KEYS)],
  [AUDIT_OPTION_KEYS, withBody(AUDIT_OPTION_KEYS)],
] as const;
/** The options of `client.request`. */
export const RAW_OPTION_KEYS = keysOf<RawRequestOptions>({ ...REQUEST_KEYS, json: true, body: true });

/**
 * The parameters of an operation that takes none yet: nothing, or an empty object. Options given
 * in their place (the call shape before 0.2) are named as such (docs/migrating.md).
 */
export function checkNoParams(label: string, params: unknown): void {
  if (typeof params === 'object' && params !== null && !Array.isArray(params) && Object.keys(params).length === 0)
    return;
  const hint =
    typeof params === 'object' && params !== null && Object.keys(params).some((key) => AUDIT_OPTION_KEYS.has(key))
      ? '; options come after the parameters: (…, undefined, options)'
      : '';
  throw new TollgateArgumentError(`${label} takes no parameters (pass undefined)${hint}`);
}

/** The service keeps at most 512 characters of an audit-log reason. */
const MAX_REASON_LENGTH = 512;

/** The per-call options given as numbers, each checked by the same schema as the client's option of that name. */
const CALL_NUMBERS = [
  ['maxWait', maxWait],
  ['timeout', timeout],
  ['transportRetries', transportRetries],
] as const;

/**
 * A call's options, every one checked here, once, in the client's message style (`<label>: <what
 * is wrong>`): an object of known keys, a real AbortSignal, a reason the service keeps whole, and
 * `maxWait`, `timeout` and `transportRetries` by the client options' own schemas.
 */
export function checkCallOptions(label: string, options: unknown, known: ReadonlySet<string> = OPTION_KEYS): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TollgateArgumentError(`${label}: options must be an object ({ ${[...known].join(', ')} })`);
  }
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new TollgateArgumentError(`${label}: unknown option "${key}"`);
  }
  const given = options as Readonly<Record<string, unknown>>;
  if (given.signal !== undefined && !(given.signal instanceof AbortSignal))
    throw new TollgateArgumentError(`${label}: signal must be an AbortSignal`);
  const reason = given.reason;
  if (
    reason !== undefined &&
    !(typeof reason === 'string' && reason.length >= 1 && reason.length <= MAX_REASON_LENGTH)
  ) {
    throw new TollgateArgumentError(`${label}: reason must be a string of 1 to ${MAX_REASON_LENGTH} characters`);
  }
  for (const [key, schema] of CALL_NUMBERS) checkCallNumber(label, schema, given[key]);
}

/** A call's number option (`maxWait`, `timeout`, `transportRetries`), when given, in the client's message style. */
function checkCallNumber(label: string, schema: z.ZodType, value: unknown): void {
  if (value !== undefined) checkedOptions(schema, value, label);
}

/** A call's own maxWait, when given (the relay's requests take it too). */
export const checkCallMaxWait = (label: string, value: unknown): void => checkCallNumber(label, maxWait, value);

/** An HTTP method's name, in upper case: letters only. */
export const isMethodName = (method: string): boolean => /^[A-Z]+$/.test(method);

/**
 * `client.request`'s arguments: a method name, a path that stays on the base URL's origin (an
 * absolute URL would carry the token elsewhere), its options, and a JSON body that is JSON. The
 * method, upper case.
 */
export function checkRawRequest(
  method: unknown,
  path: unknown,
  options: RawRequestOptions,
  baseUrl: string,
  origin: string,
): string {
  if (typeof method !== 'string' || !isMethodName(method.toUpperCase())) {
    throw new TollgateArgumentError(`request: method must be an HTTP method name, got ${JSON.stringify(method)}`);
  }
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
    // An absolute URL would carry the token to another origin.
    throw new TollgateArgumentError('request: path must be relative to the base URL and start with a single "/"');
  }
  if (URL.parse(baseUrl + path)?.origin !== origin) {
    throw new TollgateArgumentError("request: path must stay on the base URL's origin");
  }
  checkCallOptions('request', options, RAW_OPTION_KEYS);
  if (options.json !== undefined && options.body !== undefined) {
    throw new TollgateArgumentError('request: pass either json or body, not both');
  }
  if (options.json !== undefined) checkJson('request', options.json);
  return method.toUpperCase();
}
