/**
 * The 0.1 store contract (`contracts/legacy-store.ts`, keyed by bucket-key strings) next to
 * today's (`Store`, bucket references), both ways, for one release:
 * - `keyedView`: a view answering the old `forToken` calls of the built-in stores;
 * - `storeOf`: a custom store that implements only `forToken`, as a `Store`.
 */
import type { Clock } from '../clock.ts';
import type { BucketStore, RateLimitStore } from '../contracts/legacy-store.ts';
import type { BucketRef, Store, StoreView, V10Settings, ViewRequest } from '../contracts/store.ts';
import { DIALECTS } from '../dialects/index.ts';

export const viewRequestOf = (v10: V10Settings | undefined): ViewRequest =>
  v10 ? { api: 'v10', settings: v10 } : { api: 'v6' };

/** A view keyed by strings: each key read back once by its dialect (`bucketOfKey`). */
export function keyedView(request: ViewRequest, view: StoreView<BucketRef>): BucketStore {
  const bucketOf = DIALECTS[request.api].bucketOfKey;
  return {
    admit: (key) => view.admit(key === null ? null : bucketOf(key)),
    markSleptPast: (key, reset) => view.markSleptPast?.(bucketOf(key), reset),
    settle: (key, reservation, update) => view.settle(bucketOf(key), reservation, update),
    release: (key, reservation) => view.release(bucketOf(key), reservation),
    giveBack: (key, reservation) => view.giveBack(bucketOf(key), reservation),
    lockGlobal: (ms) => view.lockGlobal(ms),
    ...(view.noteInvalid && { noteInvalid: () => view.noteInvalid!() }),
    ...(view.invalidRequests && { invalidRequests: () => view.invalidRequests!() }),
    get: (key) => view.get(bucketOf(key)),
    subscribe: (listener) => view.subscribe(listener),
    close: () => view.close(),
  };
}

/** A store given to `createClient`: today's contract as it is, a 0.1 store through its keys. */
export function storeOf(store: Store | RateLimitStore): Store {
  if (typeof (store as Store).view === 'function') return store as Store;
  const legacy = store as RateLimitStore;
  return {
    view: (request, token, clock: Clock) => {
      const keyed =
        request.api === 'v10' ? legacy.forToken(token, clock, request.settings) : legacy.forToken(token, clock);
      return {
        admit: (bucket) => keyed.admit(bucket === null ? null : bucket.bucketKey),
        markSleptPast: (bucket, reset) => keyed.markSleptPast(bucket.bucketKey, reset),
        settle: async (bucket, reservation, update) =>
          (await keyed.settle(bucket.bucketKey, reservation, update)) ?? undefined,
        release: (bucket, reservation) => keyed.release(bucket.bucketKey, reservation),
        giveBack: (bucket, reservation) => keyed.giveBack(bucket.bucketKey, reservation),
        lockGlobal: (ms) => keyed.lockGlobal(ms),
        ...(keyed.noteInvalid && { noteInvalid: () => keyed.noteInvalid!() }),
        ...(keyed.invalidRequests && { invalidRequests: () => keyed.invalidRequests!() }),
        get: (bucket) => keyed.get(bucket.bucketKey),
        subscribe: (listener) => keyed.subscribe(listener),
        close: () => keyed.close(),
      };
    },
  };
}
