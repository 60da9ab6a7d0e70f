/**
 * `MemoryStore`: buckets in process memory, the default store. One view per (dialect, token),
 * made on first use by the dialect's own memory view; state a dialect keeps for the whole store
 * (v10's invalid-request log, V15: the service counts per IP) lives in the store's slots. Clients
 * of one token on one store share its view, and each one's changes wake the others' waiting calls.
 */
import type { Clock } from '../clock.ts';
import type { BucketRef, Store, StoreView, ViewRequest } from '../contracts/store.ts';
import { newStoreSlots } from './slots.ts';
import { TokenViews } from './token-views.ts';

export { SHED_INTERVAL_MS } from '../contracts/store.ts';

export class MemoryStore implements Store {
  readonly #views = new TokenViews({ announceChanges: true });
  readonly #slot = newStoreSlots();

  /** Buckets held now, over every token and dialect: bounded by the buckets whose window is still open. */
  get bucketCount(): number {
    let count = 0;
    for (const view of this.#views.values()) count += view.size ?? 0;
    return count;
  }

  /** Views held now, one per dialect and token: those in use, and those whose limits are still running. */
  get viewCount(): number {
    return this.#views.size;
  }

  /** The first view of a (dialect, token) sets its settings; later clients of the token share it. */
  view<B extends BucketRef>(request: ViewRequest<B>, token: string | undefined, clock: Clock): StoreView<B> {
    return this.#views.of(request, token, clock, () => request.memoryView(clock, this.#slot));
  }
}
