/**
 * The store contract: where buckets, the global lock and (v10) the invalid-request log live. The
 * limiter's shell keeps the per-process parts (FIFO queues, timers, abort); a store makes each
 * decision atomically: in memory by default (`MemoryStore`), in Redis when processes share a
 * token (`tollgate/redis`). No implementations here.
 *
 * A store hands out one view per (dialect, token). Every method of a view may answer
 * synchronously or with a promise; the memory store answers at once.
 */
import type { Clock } from '../clock.ts';

export type MaybePromise<T> = T | Promise<T>;

/** Where a call counts, as its dialect computed it once: `bucketKey` names it in queues, events and `buckets.get`. */
export interface BucketRef {
  readonly bucketKey: string;
}

/**
 * A granted reservation: `counted` when it took one from `remaining` of window `reset`.
 * `id` names it in a shared store (its lease there).
 */
export interface Reservation {
  readonly counted: boolean;
  readonly reset: number;
  readonly id?: string;
  /** v10: the bucket (hash and resource, or the local key) it was counted in. */
  readonly bucket?: string;
  /** v10: the first request of a route on a resource, whose hash is not known yet. */
  readonly firstContact?: boolean;
  /**
   * When its answer arrived, on the limiter's clock, set by the limiter for `settle`. v10's global
   * pace (V13) counts the request from then, not from when the store heard of it.
   */
  readonly answeredAt?: number;
}

export type Admission =
  /** The request may be sent (without a bucket: the global lock is free). */
  | { readonly kind: 'grant'; readonly reservation: Reservation }
  /** The bucket is exhausted until its window is over, `ms` from now (v6 row 3, v10 V8/V9/V10). */
  | { readonly kind: 'sleep'; readonly ms: number; readonly reset: number }
  /** A request in flight will report the bucket's state; ask again then (or after `retryMs`). */
  | { readonly kind: 'await-response'; readonly retryMs?: number }
  /** The global lock is held (or, v10, with `pace`: the global pace is spent) for `ms` more. */
  | { readonly kind: 'global'; readonly ms: number; readonly pace?: boolean }
  /** v10: the request must not be sent at all (token invalid, webhook gone, invalid-request guard). */
  | { readonly kind: 'refuse'; readonly error: Error };

/** What a settle or a note reports back: v10's invalid-request count when it changed. */
export interface SettleResult {
  readonly invalidRequests?: number;
}

/** A bucket as `buckets.get` shows it; v10 adds the hash the service named (`bucket`). */
export interface BucketSnapshot {
  readonly limit: number;
  readonly remaining: number;
  /** v6: whole Unix seconds; v10: seconds on the store's clock when the window ends. */
  readonly reset: number;
  readonly bucket?: string;
}

/** A change another holder of the store made that waiting calls may care about. */
export type StoreEvent =
  { readonly kind: 'bucket'; readonly bucketKey: string } | { readonly kind: 'global'; readonly ms: number };

/**
 * One token's state under one dialect. `B`: the dialect's bucket reference (computed once per
 * call, never parsed back from a string); `U`: what a response tells the store.
 */
export interface StoreView<B extends BucketRef = BucketRef, U = unknown> {
  /** The global lock, then (unless `bucket` is null: no bucket, v6's Route None) the bucket's policy. */
  admit(bucket: B | null): MaybePromise<Admission>;
  /** A `sleep` for window `reset` has run: that window is over (v6 row 3). Views whose windows end at an instant omit it. */
  markSleptPast?(bucket: B, reset: number): MaybePromise<void>;
  /** A response for a reservation: the dialect's post-response rules. */
  settle(bucket: B, reservation: Reservation, update: U): MaybePromise<SettleResult | undefined>;
  /** A reservation ended without a processed response: it may still have reached the service. */
  release(bucket: B, reservation: Reservation): MaybePromise<void>;
  /** A reservation that was never sent: its place comes back. */
  giveBack(bucket: B, reservation: Reservation): MaybePromise<void>;
  /** Holds the global lock for `ms` (or longer, if it already is). */
  lockGlobal(ms: number): MaybePromise<void>;
  /** V15 (v10): counts an invalid request that settled no bucket (a global 429, a ban). */
  noteInvalid?(): MaybePromise<SettleResult>;
  /** V15 (v10): invalid requests of the last 10 minutes, over every token of the store. */
  invalidRequests?(): MaybePromise<number>;
  /** A copy of a bucket's record. */
  get(bucket: B): MaybePromise<BucketSnapshot | undefined>;
  /** Changes made by other holders (other processes); the memory store has none. */
  subscribe(listener: (event: StoreEvent) => void): () => void;
  close(): Promise<void>;
}

/** The v10 dialect's settings for a token's view (see `createClient`). */
export interface V10Settings {
  /** V13: requests per second per token. */
  readonly globalLimit: number;
  /** V8: margin after a window's end. */
  readonly marginMs: number;
  /** V13: margin on the 1 s global window (each request counts from its answer, see GlobalPace). */
  readonly globalMarginMs: number;
  /** V15: invalid requests in 10 minutes at which nothing more is sent. */
  readonly invalidRequestLimit: number;
}

/** Which view a dialect needs: v6's buckets, or v10's with its settings. */
export type ViewRequest = { readonly api: 'v6' } | { readonly api: 'v10'; readonly settings: V10Settings };

/** A store of buckets for any number of tokens: each limiter takes its (dialect, token) view. */
export interface Store {
  /** The view for `token` (undefined: no Authorization). Shared stores never keep the token in clear. */
  view(request: ViewRequest, token: string | undefined, clock: Clock): StoreView<BucketRef>;
}
