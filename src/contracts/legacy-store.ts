/**
 * The store contract of tollgate 0.1, keyed by bucket-key strings. Still accepted for one release:
 * a custom store that implements only `forToken` is wrapped (`stores/legacy.ts`), and the
 * built-in stores still answer `forToken`.
 *
 * @deprecated Implement `Store` (`view()`, bucket references instead of key strings); `forToken`,
 * `RateLimitStore` and `BucketStore` go in the next release.
 */
import type { Clock } from '../clock.ts';
import type {
  Admission,
  BucketSnapshot,
  MaybePromise,
  Reservation,
  SettleResult,
  StoreEvent,
  V10Settings,
} from './store.ts';

/** @deprecated See `StoreView`. The view for one token, keyed by bucket-key strings. */
export interface BucketStore<U = unknown> {
  admit(bucketKey: string | null): MaybePromise<Admission>;
  markSleptPast(bucketKey: string, reset: number): MaybePromise<void>;
  settle(bucketKey: string, reservation: Reservation, update: U): MaybePromise<SettleResult | undefined | void>; // eslint-disable-line @typescript-eslint/no-invalid-void-type -- the 0.1 shape
  release(bucketKey: string, reservation: Reservation): MaybePromise<void>;
  giveBack(bucketKey: string, reservation: Reservation): MaybePromise<void>;
  lockGlobal(ms: number): MaybePromise<void>;
  noteInvalid?(): MaybePromise<SettleResult>;
  invalidRequests?(): MaybePromise<number>;
  get(bucketKey: string): MaybePromise<BucketSnapshot | undefined>;
  subscribe(listener: (event: StoreEvent) => void): () => void;
  close(): Promise<void>;
}

/** @deprecated See `Store`. */
export interface RateLimitStore {
  /** The view for `token`: v10's with `v10` settings, else v6's. */
  forToken(token: string | undefined, clock: Clock, v10?: V10Settings): BucketStore;
}
