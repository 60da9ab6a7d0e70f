/**
 * `MemoryStore`: buckets in process memory, the default store. One view per (dialect, token),
 * made on first use from a two-row table; the invalid-request log (V15) is one for the whole
 * store, as the service counts per IP.
 */
import type { Clock } from '../clock.ts';
import type { BucketStore, RateLimitStore } from '../contracts/legacy-store.ts';
import type { BucketRef, Store, StoreView, V10Settings, ViewRequest } from '../contracts/store.ts';
import { MemoryV6View } from '../dialects/v6/memory-view.ts';
import { MemoryV10View } from '../dialects/v10/memory-view.ts';
import { InvalidRequestLog } from '../dialects/v10/pace.ts';
import { keyedView, viewRequestOf } from './legacy.ts';

export { SHED_INTERVAL_MS } from '../dialects/v6/memory-view.ts';

type MemoryView = MemoryV6View | MemoryV10View;
type ViewMakers = {
  readonly [Api in ViewRequest['api']]: (
    request: Extract<ViewRequest, { api: Api }>,
    clock: Clock,
    invalid: InvalidRequestLog,
  ) => MemoryView;
};

const MEMORY_VIEWS: ViewMakers = {
  v6: (_, clock) => new MemoryV6View(clock),
  v10: ({ settings }, clock, invalid) => new MemoryV10View(clock, settings, invalid),
};

export class MemoryStore implements Store, RateLimitStore {
  /** By dialect, then token. */
  readonly #views = new Map<string, MemoryView>();
  /** V15: one invalid-request log for every token of the process (the service counts per IP). */
  readonly #invalid = new InvalidRequestLog();

  /** Buckets held now, over every token and dialect: bounded by the buckets whose window is still open. */
  get bucketCount(): number {
    let count = 0;
    for (const view of this.#views.values()) count += view.size;
    return count;
  }

  /** The first view of a (dialect, token) sets its settings; later clients of the token share it. */
  view(request: ViewRequest, token: string | undefined, clock: Clock): StoreView<BucketRef> {
    const key = `${request.api} ${token ?? ''}`;
    let view = this.#views.get(key);
    if (!view) {
      const make = MEMORY_VIEWS[request.api] as (
        request: ViewRequest,
        clock: Clock,
        invalid: InvalidRequestLog,
      ) => MemoryView;
      view = make(request, clock, this.#invalid);
      this.#views.set(key, view);
    }
    return view as StoreView<BucketRef>;
  }

  /** @deprecated Use `view()`: the 0.1 contract, keyed by bucket-key strings. */
  forToken(token: string | undefined, clock: Clock, v10?: V10Settings): BucketStore {
    const request = viewRequestOf(v10);
    return keyedView(request, this.view(request, token, clock));
  }
}
