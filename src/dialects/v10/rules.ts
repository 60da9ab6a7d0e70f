/**
 * The v10 dialect's rules (docs/spec/v10-rate-limits.md §10, V1–V22) as pure functions: what the
 * limiter must do about a response, read by `reading.ts`. No I/O, no clock of its
 * own. Each rule is named in a comment (and in the title of its test). The bucket policy
 * (windows, reservations) is `policy.ts`, the global pace `pace.ts`; the async shell is `../../limiter/`.
 */
import { CdnBanError } from './errors.ts';
import type { HeaderReader } from '../../contracts/dialect.ts';
import {
  fromService,
  hasRateLimitHeaders,
  parseCount,
  parseDecimal,
  retryAfterMs,
  V10_HEADER,
  windowLeft,
  type RateLimitBody,
} from './reading.ts';

/** V8: default margin after a window's end before the key is used again. */
export const DEFAULT_RESET_MARGIN_MS = 50;
/** V13: default requests per token per second (§5). */
export const DEFAULT_GLOBAL_LIMIT = 50;
/** V13: the global window the pace is kept over (plus the margin). */
export const GLOBAL_WINDOW_MS = 1000;
/**
 * V13: default margin on the global window. Small, because the pace already counts each request
 * from its answer's arrival, after the service counted it: one round trip of margin is built in.
 */
export const DEFAULT_GLOBAL_MARGIN_MS = 10;
/** V15: the invalid-request window (§7: 10,000 per 10 minutes bans the IP). */
export const INVALID_WINDOW_MS = 10 * 60 * 1000;
export const SERVICE_INVALID_LIMIT = 10_000;
/** V15: the guard stops sending at this many by default, leaving room for other clients of the IP. */
export const DEFAULT_INVALID_REQUEST_LIMIT = 9_000;
/** V15: warning levels, as fractions of the guard's limit. */
export const INVALID_WARNING_LEVELS = [0.5, 0.8] as const;
/** §3a: the wait of a 429 that names none (no `retry_after`, `Retry-After` or window). */
export const DEFAULT_429_WAIT_MS = 1000;
/** V7: a `Reset` this close to the known one is the same window (it jitters by a few ms, #5428). */
export const SAME_WINDOW_TOLERANCE_MS = 100;

// ── What a response does to the limiter's state ────────────────────────────────────────────────
/** What one response tells the store (V7, V9–V11, V14–V16, V19). */
export interface V10Update {
  readonly limit?: number;
  readonly remaining?: number;
  /** ms from now until the window ends (V3). */
  readonly windowLeftMs?: number;
  /** The service's `Reset` in ms: names the window (V7; a few ms of jitter is the same window). */
  readonly resetMs?: number;
  /** The bucket hash (V4, V7): the route maps to it from now on. */
  readonly hash?: string;
  /** V9: hold the whole key (hash + resource) this long. */
  readonly holdBucketMs?: number;
  /** V10: hold only this route + resource this long. */
  readonly holdRouteMs?: number;
  /** V15: counts toward the invalid-request limit. */
  readonly invalid?: boolean;
  /** V16: the token is invalid; later requests with it fail unsent. */
  readonly tokenInvalid?: boolean;
  /** V19: the webhook is gone; later requests to it fail unsent. */
  readonly gone?: boolean;
  /**
   * A 429 without bucket headers: it says nothing of the route's limits (unlike V14's headerless
   * success, which says there are none), so an unknown bucket stays unknown.
   */
  readonly limitsUnknown?: boolean;
}

export type V10Verdict =
  /** Return the response to the caller, after the update. */
  | { readonly action: 'return'; readonly rule: string; readonly update: V10Update }
  /** V9, V10: update (which holds the key or route), then send again through the queue. */
  | { readonly action: 'retry'; readonly rule: string; readonly update: V10Update }
  /** V11: update, wait `waitMs` (this request only), then send again. */
  | { readonly action: 'wait-retry'; readonly rule: string; readonly update: V10Update; readonly waitMs: number }
  /** V12: pause every non-exempt request of the token for `waitMs`, then send again. */
  | { readonly action: 'wait-global'; readonly rule: string; readonly waitMs: number; readonly invalid: true }
  /** V17: a CDN ban: raise, never retry; hold the route + resource for any Retry-After, so queued calls wait. */
  | {
      readonly action: 'fail';
      readonly rule: string;
      readonly error: CdnBanError;
      readonly invalid: true;
      readonly update: V10Update;
    };

export interface V10Response {
  readonly status: number;
  readonly read: HeaderReader;
  /** The parsed 429 body (undefined for other statuses or a body that is not the §3 JSON). */
  readonly body: RateLimitBody | undefined;
  /** Local wall time now (ms), for the `Reset` fallback of V3. */
  readonly wallNowMs: number;
  /** The request went to a webhook by id + token (V19). */
  readonly webhookWithToken: boolean;
  /** The route turns away the kind of token the request carried (the catalog's `auth`): its 401 is about the kind (V16). */
  readonly tokenKindRefused?: boolean;
}

/** The bucket fields of a response (V7): every header present and valid, junk ignored (V2). */
export function bucketFields(read: HeaderReader, wallNowMs: number): V10Update {
  const limit = parseCount(read(V10_HEADER.limit));
  const remaining = parseCount(read(V10_HEADER.remaining));
  const reset = parseDecimal(read(V10_HEADER.reset));
  const left = windowLeft(read, reset, wallNowMs);
  const hash = read(V10_HEADER.bucket)?.trim();
  // Filled field by field: every response is read here, and no absent field may be a key.
  const fields: { -readonly [K in keyof V10Update]: V10Update[K] } = {};
  if (limit !== undefined) fields.limit = limit;
  if (remaining !== undefined) fields.remaining = remaining;
  if (left !== undefined) fields.windowLeftMs = left;
  if (reset !== undefined) fields.resetMs = Math.round(reset * 1000);
  if (hash) fields.hash = hash;
  return fields;
}

/** Judges one response by the v10 rules. */
export function judgeV10(response: V10Response): V10Verdict {
  const { status, read, body, wallNowMs } = response;
  const fields = bucketFields(read, wallNowMs);
  if (status !== 429) {
    // V16: 401 → the token is invalid, unless the route turns away tokens of its kind (a bot token
    // on an OAuth2-only route): that 401 says the kind is wrong, and the token stays good for the
    // routes that take it. V15: 401 and 403 count. V19: a webhook's 404 retires it.
    if (status === 401)
      return response.tokenKindRefused
        ? { action: 'return', rule: 'V16', update: { ...fields, invalid: true } }
        : { action: 'return', rule: 'V16', update: { ...fields, invalid: true, tokenInvalid: true } };
    if (status === 403) return { action: 'return', rule: 'V15', update: { ...fields, invalid: true } };
    if (status === 404 && response.webhookWithToken)
      return { action: 'return', rule: 'V19', update: { ...fields, gone: true } };
    // V7 (headers) or V14 (none: no per-route limit for this method + route).
    return { action: 'return', rule: hasRateLimitHeaders(read) ? 'V7' : 'V14', update: fields };
  }
  return judge429(read, body, fields);
}

/**
 * §3a: which row of the 429 table an answer is, by what it carries. Rows in order; the first
 * that matches wins (docs/spec/v10-rate-limits.md §3a).
 */
export type Row429 =
  /** No x-ratelimit-* header, no JSON `retry_after`, no `Via: 1.1 google`: the CDN made it (V17). */
  | 'ban'
  /** `X-RateLimit-Global`, Scope `global` or body `global: true` (V12). */
  | 'global'
  /** Scope `shared` (V10). */
  | 'shared'
  /** Bucket headers with Remaining > 0: a sublimit (V11). */
  | 'sublimit'
  /** Bucket headers, Remaining 0 (or absent): the key is spent (V9). */
  | 'bucket'
  /** From the service but without bucket headers: the route's limit, its bucket unknown (V9 on the route). */
  | 'route';

export function row429(read: HeaderReader, body: RateLimitBody | undefined, fields: V10Update): Row429 {
  if (!hasRateLimitHeaders(read) && body?.retryAfterSeconds === undefined && !fromService(read)) return 'ban';
  const scope = read(V10_HEADER.scope)?.trim().toLowerCase();
  if (read(V10_HEADER.global) !== null || scope === 'global' || body?.global === true) return 'global';
  if (scope === 'shared') return 'shared';
  if (!hasBucketFields(fields)) return 'route';
  return fields.remaining !== undefined && fields.remaining > 0 ? 'sublimit' : 'bucket';
}

/** True when a response named anything of its bucket: limit, remaining, window or hash. */
const hasBucketFields = (fields: V10Update): boolean =>
  fields.limit !== undefined ||
  fields.remaining !== undefined ||
  fields.windowLeftMs !== undefined ||
  fields.hash !== undefined;

/** What a 429 asks for, by its row (§3a). The wait: body `retry_after`, else `Retry-After`, else the window, else 1 s. */
function judge429(read: HeaderReader, body: RateLimitBody | undefined, fields: V10Update): V10Verdict {
  const named = retryAfterMs(read, body);
  const waitMs = named ?? fields.windowLeftMs ?? DEFAULT_429_WAIT_MS;
  const unknown = hasBucketFields(fields) ? {} : { limitsUnknown: true };
  switch (row429(read, body, fields)) {
    case 'ban':
      // Queued calls of the route must not go out into the ban while it lasts.
      return {
        action: 'fail',
        rule: 'V17',
        error: new CdnBanError(named),
        invalid: true,
        update: { ...(named !== undefined && { holdRouteMs: named }), limitsUnknown: true },
      };
    case 'global':
      // V12: the token's global limit; buckets untouched.
      return { action: 'wait-global', rule: 'V12', waitMs: named ?? DEFAULT_429_WAIT_MS, invalid: true };
    case 'shared':
      // V10: a per-resource limit spent by everyone; only this route + resource waits; not invalid.
      return { action: 'retry', rule: 'V10', update: { ...fields, holdRouteMs: waitMs, ...unknown } };
    case 'sublimit':
      // V11: user scope (or unknown scope, §11) with places left: an unadvertised sublimit.
      return { action: 'wait-retry', rule: 'V11', update: { ...fields, invalid: true }, waitMs };
    case 'bucket':
      // V9: the key is spent: hold it for retry_after, then send again.
      return { action: 'retry', rule: 'V9', update: { ...fields, remaining: 0, holdBucketMs: waitMs, invalid: true } };
    case 'route':
      // V9 where the bucket is not named: hold what is known of it, the route + resource.
      return { action: 'retry', rule: 'V9', update: { holdRouteMs: waitMs, invalid: true, limitsUnknown: true } };
  }
}
