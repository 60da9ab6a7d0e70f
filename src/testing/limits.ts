/**
 * The service's side of the rate limits, as the spec describes them: per-bucket windows (keyed
 * by bucket key and Authorization value), a global limit per Authorization value, and the
 * headers a response carries. Used by the reference service (real HTTP) and by the msw stand-in
 * of the unit tests, so both enforce exactly the same rules.
 */
import type { Clock } from '../clock.ts';

/** A fixed window: `limit` requests every `windowMs`. */
export interface RateLimit {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in ms. */
  readonly windowMs: number;
}

/** The limits `LimitEnforcer` enforces (v6's, as the seed spec describes them). */
export interface LimitOptions {
  /** The limit of every route key not in `routes`. Default 5 per 1000 ms. */
  readonly defaultLimit?: RateLimit;
  /** Limits by route key (`ChannelsIdMessages`) or by bucket-key prefix (`ChannelsIdMessagesId:DELETE`). */
  readonly routes?: Readonly<Record<string, RateLimit>>;
  /** The global limit per Authorization value. Default 50 per 1000 ms. */
  readonly global?: RateLimit;
}

/** What `LimitEnforcer.count` decided for one request. */
export type LimitDecision =
  /** Over the global limit: a global 429 with this retry-after. */
  | { readonly global: true; readonly retryAfterMs: number }
  /** Counted in its bucket: the rate-limit headers, and whether the bucket is over its limit. */
  | {
      readonly global: false;
      readonly limited: boolean;
      readonly headers: Readonly<Record<string, string>>;
      readonly retryAfterMs: number;
    };

export interface Window {
  count: number;
  endsAt: number;
}

/** Times in order of arrival: a recorded run keeps its requests in the order they were answered. */
const inOrder = (times: readonly number[]) => [...times].sort((a, b) => a - b);

/** The most of `times` (ms, in any order) that fall within any span of `windowMs`. */
export function mostWithin(unordered: readonly number[], windowMs: number): number {
  const times = inOrder(unordered);
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * The most of `times` (ms, in any order) counted in one of the service's fixed windows
 * (`countInWindow`'s rule: a window opens at the first request after the last one ended). A
 * client that waits out each reset exactly can have more within some span of `windowMs`
 * (`mostWithin`), never more in one window.
 */
export function mostInFixedWindows(times: readonly number[], limit: RateLimit): number {
  const windows = new Map<string, Window>();
  let most = 0;
  for (const at of inOrder(times)) most = Math.max(most, countInWindow(windows, '', limit, at).count);
  return most;
}

/** Counts a request in its fixed window, starting a new window when the last one is over. */
export function countInWindow(windows: Map<string, Window>, key: string, limit: RateLimit, now: number): Window {
  let window = windows.get(key);
  if (!window || now >= window.endsAt) {
    window = { count: 0, endsAt: now + limit.windowMs };
    windows.set(key, window);
  }
  window.count += 1;
  return window;
}

const DEFAULT_LIMIT: RateLimit = { limit: 5, windowMs: 1000 };
const DEFAULT_GLOBAL: RateLimit = { limit: 50, windowMs: 1000 };

/**
 * The service's v6 limits without the HTTP: counts each request in its bucket's window and in
 * its Authorization value's global window, and says what the answer carries. The reference
 * service runs on it; a test of its own can too.
 */
export class LimitEnforcer {
  readonly #options: LimitOptions;
  readonly #clock: Clock;
  readonly #windows = new Map<string, Window>();

  constructor(options: LimitOptions, clock: Clock) {
    for (const [name, limit] of Object.entries({
      defaultLimit: options.defaultLimit,
      global: options.global,
      ...options.routes,
    })) {
      if (limit !== undefined && !(Number.isInteger(limit.limit) && limit.limit >= 1 && limit.windowMs >= 1)) {
        throw new TypeError(`rate limits: ${name} needs a whole limit ≥ 1 and windowMs ≥ 1`);
      }
    }
    this.#options = options;
    this.#clock = clock;
  }

  /** The most specific limit for a bucket key: longest matching prefix, else the default. */
  limitOf(bucketKey: string): RateLimit {
    const routes = this.#options.routes ?? {};
    const prefix = Object.keys(routes)
      .filter((key) => bucketKey.startsWith(key))
      .sort((a, b) => b.length - a.length)[0];
    return prefix === undefined ? (this.#options.defaultLimit ?? DEFAULT_LIMIT) : routes[prefix]!;
  }

  /** The global limit per Authorization value: `options.global`, default 50 per 1000 ms. */
  get globalLimit(): RateLimit {
    return this.#options.global ?? DEFAULT_GLOBAL;
  }

  /** Counts one request of `auth` on `bucketKey` now: against the global limit, then its bucket. */
  count(bucketKey: string, auth: string): LimitDecision {
    const now = this.#clock.now();
    const global = this.#count(`global|${auth}`, this.globalLimit, now);
    if (global.count > this.globalLimit.limit) return { global: true, retryAfterMs: global.endsAt - now };
    const limit = this.limitOf(bucketKey);
    const window = this.#count(`${auth}|${bucketKey}`, limit, now);
    return {
      global: false,
      limited: window.count > limit.limit,
      // reset: whole Unix seconds, rounded up so the window is over by then.
      headers: {
        'x-ratelimit-limit': String(limit.limit),
        'x-ratelimit-remaining': String(Math.max(0, limit.limit - window.count)),
        'x-ratelimit-reset': String(Math.ceil(window.endsAt / 1000)),
      },
      retryAfterMs: window.endsAt - now,
    };
  }

  #count(key: string, limit: RateLimit, now: number): Window {
    return countInWindow(this.#windows, key, limit, now);
  }
}
