/**
 * Where the spec's "shared map" of buckets and its "global lock" live. The limiter's shell keeps
 * the per-process parts (FIFO queues, timers, abort); a store makes each decision atomically:
 * in memory by default (`MemoryStore`), in Redis when processes share a token (`tollgate/redis`).
 *
 * Every method may answer synchronously or with a promise; the memory store answers at once.
 */
import type { Clock } from '../clock.ts';
import { InvalidRequestLog } from './v10/buckets.ts';
import { MemoryV10View } from './v10/memory-view.ts';
import type { V10Update } from './v10/rules.ts';
import {
  giveBack,
  markSleptPast,
  newBucketState,
  release,
  reserve,
  settle,
  type BucketState,
  type Reservation,
} from './reservations.ts';
import { wholeSeconds, type BucketRecord, type BucketUpdate } from './rules.ts';

export type MaybePromise<T> = T | Promise<T>;

export type Admission =
  /** The request may be sent (for a None route: the global lock is free). */
  | { readonly kind: 'grant'; readonly reservation: Reservation }
  /** Row 3: the bucket is exhausted until its window is over, `ms` from now. */
  | { readonly kind: 'sleep'; readonly ms: number; readonly reset: number }
  /** A request in flight will report the bucket's state; ask again then (or after `retryMs`). */
  | { readonly kind: 'await-response'; readonly retryMs?: number }
  /** The global lock is held (or, v10, with `pace`: the global pace is spent) for `ms` more. */
  | { readonly kind: 'global'; readonly ms: number; readonly pace?: boolean }
  /** v10: the request must not be sent at all (token invalid, webhook gone, invalid-request guard). */
  | { readonly kind: 'refuse'; readonly error: Error };

/** What a settle or a global lock reports back: v10's invalid-request count when it changed. */
export interface SettleResult {
  readonly invalidRequests?: number;
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

/** A change another holder of the store made that waiting calls may care about. */
export type StoreEvent =
  { readonly kind: 'bucket'; readonly bucketKey: string } | { readonly kind: 'global'; readonly ms: number };

/** The store's view for one token. `U`: what a response tells it (v6's BucketUpdate, or V10Update). */
export interface BucketStore<U = BucketUpdate> {
  /** Steps 1–2 in one decision: the global lock, then (unless `bucketKey` is null: Route None) the pre-check and a reservation. */
  admit(bucketKey: string | null): MaybePromise<Admission>;
  /** Row 3's sleep for window `reset` has run: that window is over. */
  markSleptPast(bucketKey: string, reset: number): MaybePromise<void>;
  /** A response for a reservation: the post-response rows (and bucket creation). */
  settle(bucketKey: string, reservation: Reservation, update: U): MaybePromise<SettleResult | undefined | void>; // eslint-disable-line @typescript-eslint/no-invalid-void-type -- v6 stores return nothing
  /** A reservation ended without a processed response. */
  release(bucketKey: string, reservation: Reservation): MaybePromise<void>;
  /** A reservation that was never sent. */
  giveBack(bucketKey: string, reservation: Reservation): MaybePromise<void>;
  /** Holds the global lock for `ms` (or longer, if it already is). */
  lockGlobal(ms: number): MaybePromise<void>;
  /** V15 (v10): counts an invalid request that settled no bucket (a global 429, a ban). */
  noteInvalid?(): MaybePromise<SettleResult>;
  /** V15 (v10): invalid requests of the last 10 minutes, over every token of the store. */
  invalidRequests?(): MaybePromise<number>;
  /** A copy of a bucket's record. */
  get(bucketKey: string): MaybePromise<BucketRecord | undefined>;
  /** Changes made by other holders (other processes); the memory store has none. */
  subscribe(listener: (event: StoreEvent) => void): () => void;
  close(): Promise<void>;
}

/** A store of buckets for any number of tokens: each client takes its token's view. */
export interface RateLimitStore {
  /** The view for `token` (undefined: no Authorization). The token is never kept in clear by shared stores. */
  forToken(token: string | undefined, clock: Clock): BucketStore;
  /** The v10 dialect's view for `token`. */
  forToken(token: string | undefined, clock: Clock, v10: V10Settings): BucketStore<V10Update>;
}

/**
 * How often, at most, the memory store looks for buckets to shed. Shedding runs inside calls
 * (no timer of its own), so an idle client keeps nothing alive.
 */
export const SHED_INTERVAL_MS = 1000;

/** In-process buckets: the default store. */
export class MemoryStore implements RateLimitStore {
  readonly #views = new Map<string, MemoryBucketStore>();
  readonly #v10Views = new Map<string, MemoryV10View>();
  /** V15: one invalid-request log for every token of the process (the service counts per IP). */
  readonly #invalid = new InvalidRequestLog();

  /** Buckets held now, over every token: bounded by the buckets whose window is still open. */
  get bucketCount(): number {
    let count = 0;
    for (const view of this.#views.values()) count += view.size;
    for (const view of this.#v10Views.values()) count += view.size;
    return count;
  }

  forToken(token: string | undefined, clock: Clock): BucketStore;
  forToken(token: string | undefined, clock: Clock, v10: V10Settings): BucketStore<V10Update>;
  forToken(token: string | undefined, clock: Clock, v10?: V10Settings): BucketStore | BucketStore<V10Update> {
    const key = token ?? '';
    if (v10) {
      // The first client of a token sets its v10 settings; later clients of the token share them.
      let view = this.#v10Views.get(key);
      if (!view) {
        view = new MemoryV10View(clock, v10, this.#invalid);
        this.#v10Views.set(key, view);
      }
      return view;
    }
    let view = this.#views.get(key);
    if (!view) {
      view = new MemoryBucketStore(clock);
      this.#views.set(key, view);
    }
    return view;
  }
}

class MemoryBucketStore implements BucketStore {
  readonly #buckets = new Map<string, BucketState>();
  readonly #clock: Clock;
  #globalUntil = 0;
  #nextShedAt: number;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#nextShedAt = clock.now() + SHED_INTERVAL_MS;
  }

  get size(): number {
    return this.#buckets.size;
  }

  admit(bucketKey: string | null): Admission {
    const now = this.#clock.now();
    if (now >= this.#nextShedAt) this.#shed(now);
    if (now < this.#globalUntil) return { kind: 'global', ms: this.#globalUntil - now };
    if (bucketKey === null) return { kind: 'grant', reservation: { counted: false, reset: 0 } };
    return reserve(this.#state(bucketKey), now);
  }

  markSleptPast(bucketKey: string, reset: number): void {
    markSleptPast(this.#state(bucketKey), reset);
  }

  settle(bucketKey: string, _reservation: Reservation, update: BucketUpdate): void {
    settle(this.#state(bucketKey), update);
  }

  release(bucketKey: string): void {
    release(this.#state(bucketKey));
  }

  giveBack(bucketKey: string, reservation: Reservation): void {
    giveBack(this.#state(bucketKey), reservation);
  }

  lockGlobal(ms: number): void {
    this.#globalUntil = Math.max(this.#globalUntil, this.#clock.now() + ms);
  }

  get(bucketKey: string): BucketRecord | undefined {
    const record = this.#buckets.get(bucketKey)?.record;
    return record ? { ...record } : undefined;
  }

  subscribe(): () => void {
    return () => {};
  }

  /** Other clients on the same store and token keep using these buckets. */
  async close(): Promise<void> {}

  /**
   * Drops buckets nobody needs any more: no request in flight, and a window that is over (row 2
   * would refill it). Waiters never hold such a bucket: a caller sleeping on row 3 has a window
   * still open, one awaiting a response has a request in flight. A shed bucket that is used
   * again starts over as unknown (one request finds out its limits).
   */
  #shed(now: number): void {
    this.#nextShedAt = now + SHED_INTERVAL_MS;
    const nowSeconds = wholeSeconds(now);
    for (const [bucketKey, state] of this.#buckets) {
      if (state.inFlight === 0 && (state.record === undefined || nowSeconds > state.record.reset)) {
        this.#buckets.delete(bucketKey);
      }
    }
  }

  #state(bucketKey: string): BucketState {
    let state = this.#buckets.get(bucketKey);
    if (!state) {
      state = newBucketState();
      this.#buckets.set(bucketKey, state);
    }
    return state;
  }
}
