/**
 * The service's side of the v10 rate limits (docs/spec/v10-rate-limits.md), as the reference
 * service enforces them: per-route limits counted per (Authorization, bucket hash, top-level
 * resource) with routes that share a hash sharing one count; a global limit per Authorization
 * (per IP without one) over a sliding second, which exempt routes skip; shared (per-resource,
 * every caller) limits and unadvertised sublimits; the invalid-request counter and the CDN ban;
 * 401 for unknown tokens (and for none, where the route needs one) and 404 for deleted webhooks.
 * Requests come classified by the service's own reading of them (classify.ts), not the client's.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { ServiceRoute } from './classify.ts';
import { countInWindow, type RateLimit, type Window } from './limits.ts';

export interface V10LimitOptions {
  /** Limit of every route not in `routes`. Default 5 per 1000 ms. */
  readonly defaultLimit?: RateLimit;
  /** Limits by route (`POST /channels/:id/messages`) or by bucket hash. */
  readonly routes?: Readonly<Record<string, RateLimit>>;
  /** Bucket hash by route; routes given one hash share one count. Default: a digest of the route, reaction PUT and DELETE sharing one. */
  readonly hashes?: Readonly<Record<string, string>>;
  /** Global limit per Authorization (per IP without one), over a sliding window. Default 50 per 1000 ms. */
  readonly global?: RateLimit;
  /** Per-resource limits shared by every caller (scope `shared`), by route. */
  readonly sharedLimits?: Readonly<Record<string, RateLimit>>;
  /** Unadvertised per-route limits (a 429 with Remaining > 0), by route. */
  readonly sublimits?: Readonly<Record<string, RateLimit>>;
  /** Routes that answer without rate-limit headers and no per-route limit. Default: deletes of messages under 10 s old. */
  readonly headerless?: readonly string[];
  /** Tokens the service accepts; any other Authorization gets 401. Default: every token. */
  readonly validTokens?: readonly string[];
  /** Webhook ids that answer 404 (deleted). */
  readonly deletedWebhooks?: readonly string[];
  /** Invalid requests (401, 403, non-shared 429) in 10 minutes that get the IP banned. Default 10 000. */
  readonly banThreshold?: number;
  /** How long a ban lasts (ms). Default one hour. */
  readonly banMs?: number;
}

export type V10Decision =
  | { readonly kind: 'ban' }
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'unknown-webhook' }
  | { readonly kind: 'global'; readonly retryAfterMs: number }
  | {
      readonly kind: 'counted';
      /** The service's counting key: hash and resource. */
      readonly bucketKey: string;
      readonly route: string;
      readonly headers: Readonly<Record<string, string>>;
      /** 429 scope, when limited. */
      readonly limited?: 'user' | 'shared';
      readonly retryAfterMs: number;
    };

const DEFAULT_LIMIT: RateLimit = { limit: 5, windowMs: 1000 };
const DEFAULT_GLOBAL: RateLimit = { limit: 50, windowMs: 1000 };
const REACTIONS = '/channels/:id/messages/:id/reactions/:reaction/@me';
const DEFAULT_HASHES: Record<string, string> = {
  [`PUT ${REACTIONS}`]: 'reactions',
  [`DELETE ${REACTIONS}`]: 'reactions',
};
const INVALID_WINDOW_MS = 10 * 60 * 1000;

export class V10LimitEnforcer {
  readonly #options: V10LimitOptions;
  readonly #clock: Clock;
  readonly #windows = new Map<string, Window>();
  readonly #globalTimes = new Map<string, number[]>();
  readonly #invalidTimes: number[] = [];
  /** The limit each hash was counted with (for reports by bucket key). */
  readonly #limitByHash = new Map<string, RateLimit>();
  #bannedUntil = 0;

  constructor(options: V10LimitOptions, clock: Clock) {
    const limits = {
      defaultLimit: options.defaultLimit,
      global: options.global,
      ...options.routes,
      ...options.sharedLimits,
      ...options.sublimits,
    };
    for (const [name, limit] of Object.entries(limits)) {
      if (limit !== undefined && !(Number.isInteger(limit.limit) && limit.limit >= 1 && limit.windowMs >= 1)) {
        throw new TypeError(`rate limits: ${name} needs a whole limit ≥ 1 and windowMs ≥ 1`);
      }
    }
    this.#options = options;
    this.#clock = clock;
  }

  /** The hash the service names a route by. */
  hashOf(route: string): string {
    return (
      this.#options.hashes?.[route] ??
      DEFAULT_HASHES[route] ??
      createHash('sha256').update(route).digest('hex').slice(0, 12)
    );
  }

  /** The limit of a route or of a bucket hash. */
  limitOf(routeOrHash: string): RateLimit {
    const routes = this.#options.routes ?? {};
    return (
      routes[routeOrHash] ??
      this.#limitByHash.get(routeOrHash) ??
      routes[this.hashOf(routeOrHash)] ??
      this.#options.defaultLimit ??
      DEFAULT_LIMIT
    );
  }

  get globalLimit(): RateLimit {
    return this.#options.global ?? DEFAULT_GLOBAL;
  }

  /** Invalid requests counted in the last 10 minutes (the IP's standing). */
  get invalidRequests(): number {
    this.#expireInvalid(this.#clock.now());
    return this.#invalidTimes.length;
  }

  get banned(): boolean {
    return this.#clock.now() < this.#bannedUntil;
  }

  /**
   * Counts one request, classified by `classifyV10Request` (classify.ts). `auth`: the
   * Authorization value ('' when none); without one, a route that is neither exempt nor `open`
   * (served without Authorization, routing.ts) is a 401, counted as invalid like any other; so
   * is a token of a kind the operation does not take (`tokenAccepted` false, routing.ts
   * `acceptsToken`).
   */
  count(
    { route, resource, exempt }: ServiceRoute,
    auth: string,
    { open = false, tokenAccepted = true }: { open?: boolean; tokenAccepted?: boolean } = {},
  ): V10Decision {
    const now = this.#clock.now();
    if (now < this.#bannedUntil) return { kind: 'ban' };
    const valid = this.#options.validTokens;
    const refused = auth === '' ? !open : !tokenAccepted || (valid !== undefined && !valid.includes(auth));
    if (!exempt && refused) {
      this.#invalid(now);
      return { kind: 'unauthorized' };
    }
    const webhookId = /^webhooks\/(\d+)/.exec(resource)?.[1];
    if (webhookId !== undefined && this.#options.deletedWebhooks?.includes(webhookId)) {
      return { kind: 'unknown-webhook' };
    }
    if (!exempt) {
      const wait = this.#countGlobal(auth, now);
      if (wait > 0) {
        this.#invalid(now);
        return { kind: 'global', retryAfterMs: wait };
      }
    }
    const hash = this.hashOf(route);
    const bucketKey = `${hash} ${resource || '-'}`;
    if ((this.#options.headerless ?? [`DELETE /channels/:id/messages/:id#new`]).includes(route)) {
      return { kind: 'counted', bucketKey, route, headers: {}, retryAfterMs: 0 };
    }
    const limit = this.limitOf(route);
    this.#limitByHash.set(hash, limit);
    const window = this.#count(`${auth}|${bucketKey}`, limit, now);
    const left = window.endsAt - now;
    const headers = {
      'x-ratelimit-limit': String(limit.limit),
      'x-ratelimit-remaining': String(Math.max(0, limit.limit - window.count)),
      // Wall time of the window's end, with ms; Reset-After from now.
      'x-ratelimit-reset': (window.endsAt / 1000).toFixed(3),
      'x-ratelimit-reset-after': (left / 1000).toFixed(3),
      'x-ratelimit-bucket': hash,
    };
    if (window.count > limit.limit) {
      this.#invalid(now);
      return { kind: 'counted', bucketKey, route, headers, limited: 'user', retryAfterMs: left };
    }
    const shared = this.#options.sharedLimits?.[route];
    if (shared) {
      const sharedWindow = this.#count(`shared|${route}|${resource}`, shared, now);
      if (sharedWindow.count > shared.limit) {
        return {
          kind: 'counted',
          bucketKey,
          route,
          headers,
          limited: 'shared',
          retryAfterMs: sharedWindow.endsAt - now,
        };
      }
    }
    const sublimit = this.#options.sublimits?.[route];
    if (sublimit) {
      const subWindow = this.#count(`sub|${auth}|${route}|${resource}`, sublimit, now);
      if (subWindow.count > sublimit.limit) {
        this.#invalid(now);
        return { kind: 'counted', bucketKey, route, headers, limited: 'user', retryAfterMs: subWindow.endsAt - now };
      }
    }
    return { kind: 'counted', bucketKey, route, headers, retryAfterMs: left };
  }

  /** A 403 or a scripted 429 the service answered: it counts toward the ban like any other. */
  noteInvalid(): void {
    this.#invalid(this.#clock.now());
  }

  /** The global limit over a sliding window; returns the wait when over it (the request is not counted then). */
  #countGlobal(auth: string, now: number): number {
    const { limit, windowMs } = this.globalLimit;
    let times = this.#globalTimes.get(auth);
    if (!times) {
      times = [];
      this.#globalTimes.set(auth, times);
    }
    while (times.length > 0 && times[0]! <= now - windowMs) times.shift();
    if (times.length >= limit) return times[0]! + windowMs - now;
    times.push(now);
    return 0;
  }

  #count(key: string, limit: RateLimit, now: number): Window {
    return countInWindow(this.#windows, key, limit, now);
  }

  #invalid(now: number): void {
    this.#invalidTimes.push(now);
    this.#expireInvalid(now);
    if (this.#invalidTimes.length >= (this.#options.banThreshold ?? 10_000)) {
      this.#bannedUntil = now + (this.#options.banMs ?? 60 * 60 * 1000);
    }
  }

  #expireInvalid(now: number): void {
    while (this.#invalidTimes.length > 0 && this.#invalidTimes[0]! <= now - INVALID_WINDOW_MS)
      this.#invalidTimes.shift();
  }
}
