/**
 * A store's view as the store tests write it: bucket keys as strings (`ChannelsId:1`,
 * `GET /channels/:id channels/1`), each read back by its dialect (`bucketOfKey`) before the
 * view is called. The SDK itself never parses a key back: it computes a bucket once per call.
 */
import type { Clock } from '../../src/clock.ts';
import type {
  Admission,
  BucketRef,
  BucketSnapshot,
  MaybePromise,
  Reservation,
  SettleResult,
  Store,
  StoreEvent,
} from '../../src/contracts/store.ts';
import { v10ViewRequest } from '../../src/dialects/v10/index.ts';
import { parseBucketKey } from '../../src/dialects/v10/route.ts';
import type { V10Settings } from '../../src/dialects/v10/settings.ts';
import { V6_VIEW_REQUEST } from '../../src/dialects/v6/index.ts';

export interface KeyedView<U = unknown> {
  admit(bucketKey: string | null): MaybePromise<Admission>;
  markSleptPast(bucketKey: string, reset: number): MaybePromise<void>;
  settle(bucketKey: string, reservation: Reservation, update: U): MaybePromise<SettleResult | undefined>;
  release(bucketKey: string, reservation: Reservation): MaybePromise<void>;
  giveBack(bucketKey: string, reservation: Reservation): MaybePromise<void>;
  lockGlobal(ms: number): MaybePromise<void>;
  noteInvalid?(): MaybePromise<SettleResult>;
  invalidRequests?(): MaybePromise<number>;
  get(bucketKey: string): MaybePromise<BucketSnapshot | undefined>;
  subscribe(listener: (event: StoreEvent) => void): () => void;
  close(): Promise<void>;
}

/** `store`'s view for `token` under v6, or under v10 with `settings`, keyed by strings. */
export function keyedView<U = unknown>(
  store: Store,
  token: string | undefined,
  clock: Clock,
  settings?: V10Settings,
): KeyedView<U> {
  const view = settings
    ? store.view(v10ViewRequest(settings), token, clock)
    : store.view(V6_VIEW_REQUEST, token, clock);
  const bucketOf = (key: string): BucketRef => (settings ? parseBucketKey(key) : { bucketKey: key });
  return {
    admit: (key) => view.admit(key === null ? null : (bucketOf(key) as never)),
    markSleptPast: (key, reset) => view.markSleptPast?.(bucketOf(key) as never, reset),
    settle: (key, reservation, update) => view.settle(bucketOf(key) as never, reservation, update),
    release: (key, reservation) => view.release(bucketOf(key) as never, reservation),
    giveBack: (key, reservation) => view.giveBack(bucketOf(key) as never, reservation),
    lockGlobal: (ms) => view.lockGlobal(ms),
    ...(view.noteInvalid && { noteInvalid: () => view.noteInvalid!() }),
    ...(view.invalidRequests && { invalidRequests: () => view.invalidRequests!() }),
    get: (key) => view.get(bucketOf(key) as never),
    subscribe: (listener) => view.subscribe(listener),
    close: () => view.close(),
  };
}
