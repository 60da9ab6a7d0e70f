/**
 * The dialect contract: how a call becomes a target, how a response is judged, and which store
 * view the rules need. One implementation per API version (`dialects/v6`, `dialects/v10`),
 * chosen once per client from `DIALECTS[api]`. No implementations here.
 */
import type { Clock } from '../clock.ts';
import type { OperationDefinition, TokenKind } from './catalog.ts';
import type { BucketRef, MaybePromise, Store, StoreView, ViewRequest } from './store.ts';

/** How events and errors name the bucket of a call that counts in none (the spec's Route None). */
export const NO_BUCKET = 'None';

/** What a call is, computed once before it is sent and handed down unchanged. */
export interface CallTarget<B extends BucketRef = BucketRef> {
  /** Names the call in events and errors: the catalog's route key, or v10's method + route template. */
  readonly routeKey: string;
  /** Where it counts; null when it counts in no bucket (v6's Route None): only the global lock applies. */
  readonly bucket: B | null;
  /** V13: exempt from the global limit and sent without Authorization. */
  readonly exempt: boolean;
  /** V19: a webhook addressed by id + token, which a 404 retires. */
  readonly webhookWithToken: boolean;
  /** How errors name the call: v10's method + route template (default: `routeKey`). */
  readonly route?: string;
  /** A create the service deduplicates by `nonce` with `enforce_nonce` (v10's message create): it may be resent. */
  readonly nonceSafe?: boolean;
  /** The top-level resource it acts on (v10: `channels/<id>`), for events. */
  readonly resource?: string;
  /** The kinds of token its route turns away (the catalog's `auth`): a 401 to one says nothing of the token (V16). */
  readonly refusedTokens?: readonly TokenKind[];
}

/** How a 429 was meant: a per-route or per-key limit (`user`), a resource's (`shared`), the token's (`global`), an unadvertised `sublimit`, or a CDN `ban`. */
export type RateLimitScope = 'user' | 'shared' | 'global' | 'sublimit' | 'ban';

/** What a verdict on a 429 says of it, for events and telemetry. */
export interface RateLimitNote {
  readonly scope: RateLimitScope;
  /** The wait the answer asked for, in ms (0 when it named none). */
  readonly waitMs: number;
  /** The hash the answer named (v10's `X-RateLimit-Bucket`), if any. */
  readonly hash?: string | undefined;
}

/**
 * What to do with a response, whatever the dialect. On a 429, `rateLimit` says how it was meant. `update` is the dialect's own record of what
 * the response said; the store applies it.
 */
export type Verdict =
  /** Return the response; with an update, settle the bucket first (without, release it). */
  (
    | { readonly action: 'return'; readonly update?: unknown }
    /** Settle, then send again through the queue (which the update may hold). */
    | { readonly action: 'retry'; readonly update: unknown }
    /** Settle, wait `waitMs` (this call only), send again. */
    | { readonly action: 'wait-retry'; readonly update: unknown; readonly waitMs: number }
    /** Hold every caller of the token for `waitMs`, send again. */
    | { readonly action: 'wait-global'; readonly waitMs: number; readonly invalid?: boolean }
    /** Raise `error`; with an update, settle the bucket first (a hold the answer named), else release it. */
    | { readonly action: 'fail'; readonly error: Error; readonly invalid?: boolean; readonly update?: unknown }
    /** Headers the judge cannot read: nothing is kept, send again (bounded by `maxHeaderResends`). */
    | { readonly action: 'resend'; readonly error: Error }
  ) & { readonly rateLimit?: RateLimitNote };

/** Reads one response header by name (null when absent), as `Headers.get` does. */
export type HeaderReader = (name: string) => string | null;

/** Judges a response to a call sent to `target`. */
export type Judge = (target: CallTarget, response: Response) => MaybePromise<Verdict>;

/** What a judge needs of the client. */
export interface JudgeOptions {
  /** How long a 429's body may take to arrive (ms): the client's `timeout`; undefined with `timeout: false`. */
  readonly bodyTimeoutMs: number | undefined;
  /** The kind of the lane's token (undefined: the IP's lane, no token). */
  readonly tokenKind?: TokenKind | undefined;
}

/** Reported when the store's count of invalid requests reaches a warning level (v10: V15's guard at 50 %, 80 %). */
export interface InvalidRequestsEvent {
  /** Invalid requests (401, 403, non-shared 429) in the last 10 minutes, every token of the store. */
  readonly count: number;
  /** The guard's limit: at this count nothing more is sent. */
  readonly limit: number;
  /** The level reached, as a fraction of the limit (0.5, 0.8). */
  readonly level: number;
}

/** The client's emitter, as a dialect sees it: its own events (`Events`), by name. */
export interface DialectEventSink<Events> {
  on<Name extends keyof Events>(name: Name, listener: (event: Events[Name]) => void): unknown;
  emit<Name extends keyof Events>(name: Name, event: Events[Name]): void;
}

/** A body made safe to send again: the service deduplicates it (v10: `nonce` with `enforce_nonce`). */
export interface ResendSafeBody {
  readonly body: unknown;
  /** The service will refuse a second copy, so a resend cannot duplicate it. */
  readonly enforced: boolean;
}

/** How calls become targets, under the catalog's data for the dialect (`Dialect.targets`). */
export interface CallTargets<B extends BucketRef = BucketRef> {
  /** A typed call: its operation, its filled path and the canonical text of its path parameters. */
  targetOfOperation(
    operation: OperationDefinition,
    path: string,
    values: readonly string[],
    nowMs: number,
  ): CallTarget<B>;
  /** A raw call (`client.request`). */
  targetOfRequest(method: string, path: string, nowMs: number): CallTarget<B>;
}

/** A refusal's facts as plain data: its error's class name, and what that class is made from. */
export interface RefusalFacts {
  /** The error's class name (`TokenInvalidError`). */
  readonly name: string;
  /** What the class is made from (`resource`, `count`…). */
  readonly [fact: string]: string | number;
}

/**
 * A dialect's own refusal errors (what its views refuse a call with) as data and back, for a store
 * whose decisions run elsewhere (a Durable Object): the class and its facts survive the copy.
 */
export interface RefusalCodec {
  /** The facts of `error`, when it is one of the dialect's refusals. */
  factsOf(error: Error): RefusalFacts | undefined;
  /** The error again, when the facts name one of the dialect's refusals. */
  errorOf(facts: RefusalFacts): Error | undefined;
}

/**
 * An API version's rules as a plug-in of the limiter. `Options` are the `createClient` options
 * this dialect reads (each dialect ignores the others'), `CatalogData` what it reads of the
 * catalog, `Events` the events it tells a client's listeners; a client is built from one dialect,
 * looked up once in `DIALECTS`.
 */
export interface Dialect<B extends BucketRef = BucketRef, Options = object, CatalogData = unknown, Events = object> {
  /** Its key in `DIALECTS` (`v10`, `v6`). */
  readonly api: string;
  /** The service's public base URL for this version. */
  readonly defaultBaseUrl: string;
  /** V1: whether the API a base URL's `/v<N>` names (undefined: `/api` alone) is this dialect's. */
  speaks(version: number | undefined): boolean;
  /** v6 reads resets as wall time (Unix seconds); v10 counts Reset-After on a monotonic clock (V3). */
  readonly defaultClock: Clock;
  /**
   * V13: calls a client with a token sends without Authorization count in a budget of their own
   * (the IP's), so they get a limiter of their own.
   */
  readonly anonymousLane: boolean;
  /** Several local keys may count in one bucket (v10: routes sharing a hash): a response wakes every waiting queue. */
  readonly sharedBuckets: boolean;
  /**
   * Its targets under `data`, what the generated catalog holds for this dialect alone (v6: the
   * spec's route table; v10: nothing). The catalog reaches the core through its composition in
   * `src/index.ts`, so the core never imports `generated/`.
   */
  targets(data: CatalogData): CallTargets<B>;
  /** A bucket key as users write it (`buckets.get`): the one place a key string is read back. */
  bucketOfKey(key: string): B;
  judge(options: JudgeOptions): Judge;
  /** This dialect's view of `store` for `token`. */
  view(store: Store, token: string | undefined, clock: Clock, options: Options): StoreView<B>;
  /**
   * The view request again from its `settings` alone: a store whose decisions run elsewhere (a
   * Durable Object) receives only data, and makes the dialect's memory view there from it.
   */
  viewRequest(settings: unknown): ViewRequest<B>;
  /**
   * Wires the dialect's own events once per client (v10: V15's `invalidRequests`, and its
   * `onInvalidRequests` option as a listener) and returns what to do with the store's
   * invalid-request count each time a call reports it; absent where the dialect counts none.
   */
  watchInvalidRequests?(options: Options, events: DialectEventSink<Events>): (count: number) => void;
  /** The invalid-request count at which the dialect's guard refuses (v10: V15's `invalidRequestLimit`); absent where it counts none. */
  invalidRequestLimit?(options: Options): number;
  /**
   * The answer the service would give a relayed request the limiter refused with `error` (a wait
   * over its bound, a token known dead), or undefined where the error stays one (`createRelay`).
   */
  refusalAnswer?(error: unknown): Response | undefined;
  /** Its refusal errors as data and back; absent where its views refuse with none of their own. */
  readonly refusals?: RefusalCodec;
  /** A body this call may send again without a duplicate (v10's message create); undefined: none. */
  resendSafeBody?(target: CallTarget<B>, body: unknown): ResendSafeBody | undefined;
}
