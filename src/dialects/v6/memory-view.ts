/**
 * One token's v6 buckets and global lock in process memory: the spec's rows (`rules.ts`) under the
 * concurrency policy (`policy.ts`), decided at once.
 */
import type { Clock } from '../../clock.ts';
import {
  SHED_INTERVAL_MS,
  type Admission,
  type BucketSnapshot,
  type Reservation,
  type StoreView,
} from '../../contracts/store.ts';
import { giveBack, markSleptPast, newBucketState, release, reserve, settle, type BucketState } from './policy.ts';
import { wholeSeconds, type V6Update } from './rules.ts';
import type { V6Bucket } from './target.ts';

export class MemoryV6View implements StoreView<V6Bucket, V6Update> {
  readonly #buckets = new Map<string, BucketState>();
  readonly #clock: Clock;
  #globalUntil = 0;
  #nextShedAt: number;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#nextShedAt = clock.now() + SHED_INTERVAL_MS;
  }

  /** Buckets held now. */
  get size(): number {
    return this.#buckets.size;
  }

  admit(bucket: V6Bucket | null): Admission {
    const now = this.#clock.now();
    if (now >= this.#nextShedAt) this.#shed(now);
    if (now < this.#globalUntil) return { kind: 'global', ms: this.#globalUntil - now };
    if (bucket === null) return { kind: 'grant', reservation: { counted: false, reset: 0 } };
    return reserve(this.#state(bucket.bucketKey), now);
  }

  markSleptPast(bucket: V6Bucket, reset: number): void {
    markSleptPast(this.#state(bucket.bucketKey), reset);
  }

  settle(bucket: V6Bucket, _reservation: Reservation, update: V6Update): undefined {
    settle(this.#state(bucket.bucketKey), update);
  }

  release(bucket: V6Bucket): void {
    release(this.#state(bucket.bucketKey));
  }

  giveBack(bucket: V6Bucket, reservation: Reservation): void {
    giveBack(this.#state(bucket.bucketKey), reservation);
  }

  lockGlobal(ms: number): void {
    this.#globalUntil = Math.max(this.#globalUntil, this.#clock.now() + ms);
  }

  get(bucket: V6Bucket): BucketSnapshot | undefined {
    const record = this.#buckets.get(bucket.bucketKey)?.record;
    return record ? { ...record } : undefined;
  }

  subscribe(): () => void {
    return () => {};
  }

  /** Other clients on the same store and token keep using these buckets. */
  async close(): Promise<void> {}

  idle(now: number): boolean {
    if (now < this.#globalUntil) return false;
    const nowSeconds = wholeSeconds(now);
    for (const state of this.#buckets.values()) if (!isIdleV6(state, nowSeconds)) return false;
    return true;
  }

  /**
   * Drops buckets nobody needs any more (`isIdleV6`). Waiters never hold such a bucket: a caller
   * sleeping on row 3 has a window still open, one awaiting a response has a request in flight.
   * A shed bucket that is used again starts over as unknown (one request finds out its limits).
   */
  #shed(now: number): void {
    this.#nextShedAt = now + SHED_INTERVAL_MS;
    const nowSeconds = wholeSeconds(now);
    for (const [key, state] of this.#buckets) if (isIdleV6(state, nowSeconds)) this.#buckets.delete(key);
  }

  #state(key: string): BucketState {
    let state = this.#buckets.get(key);
    if (!state) {
      state = newBucketState();
      this.#buckets.set(key, state);
    }
    return state;
  }
}

/** No request in flight, and a window that is over (row 2 would refill it). */
const isIdleV6 = (state: BucketState, nowSeconds: number): boolean =>
  state.inFlight === 0 && (state.record === undefined || nowSeconds > state.record.reset);
