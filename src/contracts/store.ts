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

/** A store answers in the same turn (memory) or later (Redis, a Durable Object). */
export type MaybePromise<T> = T | Promise<T>;

/** Where a call counts, as its dialect computed it once: `bucketKey` names it in queues, events and `buckets.get`. */
export interface BucketRef {
  readonly bucketKey: string;
}

/**
 * A granted reservation: `counted` when it took one from `remaining` of window `reset`.
 * `id` names it in a shared store (its lease there). A view may hand out more in its own
 * reservations (which bucket it counted in); the limiter only gives them back to the view.
 */
export interface Reservation {
  readonly counted: boolean;
  readonly reset: number;
  readonly id?: string;
  /**
   * When its answer arrived, on the limiter's clock, set by the limiter for `settle`: a rule that
   * counts a request from its answer (v10's global pace, V13) reads it.
   */
  readonly answeredAt?: number;
}

/** A store's answer to `admit`: send now, sleep until the bucket's window is over, wait for an answer in flight or for the global limit, or refuse. */
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

/** A bucket's record: its limit, what is left, and when its window ends (v6: whole Unix seconds; v10: seconds on the store's clock). */
export interface BucketRecord {
  limit: number;
  remaining: number;
  reset: number;
}

/** A bucket as `buckets.get` shows it; v10 adds the hash the service named (`hash`). */
export interface BucketSnapshot extends Readonly<BucketRecord> {
  readonly hash?: string;
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
  /** Lets go of what the view holds (listeners, timers); the store it came from stays open. */
  close(): Promise<void>;
  /** Buckets a memory view holds now (bounded by those whose window is still open). */
  readonly size?: number;
  /**
   * A memory view: it holds nothing a later request needs at `now` (no window open, nothing in
   * flight or held, no global lock or pace), so a store may drop it once no client uses it. What
   * it learned (routes' buckets, a dead token, gone webhooks) is learned again.
   */
  idle?(now: number): boolean;
}

/**
 * How long a shared store counts a reservation in flight without an answer (ms), by default: then
 * a crashed holder's place comes back (Redis, a Durable Object).
 */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * How often, at most, a memory view looks for buckets to shed. Shedding runs inside calls (no
 * timer of its own), so an idle client keeps nothing alive.
 */
export const SHED_INTERVAL_MS = 1000;

/**
 * One value per store and name, made on first use: state a dialect's rules keep for every token
 * of the store (v10's invalid-request log, counted per IP).
 */
export type StoreSlots = <T>(name: string, make: () => T) => T;

/**
 * What a dialect asks a store for: the view its rules run on. The dialect brings everything the
 * store needs of it, so a store names no dialect.
 */
export interface ViewRequest<B extends BucketRef = BucketRef> {
  /** Which dialect asks (`DIALECTS`' key): a store keeps one view per (dialect, token); Redis picks its scripts by it. */
  readonly api: string;
  /** The dialect's settings for the view, opaque to stores (a shared store's view of the dialect reads them). */
  readonly settings: unknown;
  /** The dialect's view in process memory: the memory store's, and a shared store's while it is away. */
  memoryView(clock: Clock, slots: StoreSlots): StoreView<B>;
}

/** A store of buckets for any number of tokens: each limiter takes its (dialect, token) view. */
export interface Store {
  /** The view for `token` (undefined: no Authorization). Shared stores never keep the token in clear. */
  view<B extends BucketRef>(request: ViewRequest<B>, token: string | undefined, clock: Clock): StoreView<B>;
}
