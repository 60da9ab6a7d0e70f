/**
 * A store's views, one per (dialect, token), made on first use: the clients of one token on one
 * store share a view, and the first one's settings hold.
 */
import type { BucketRef, StoreView, ViewRequest } from '../contracts/store.ts';

export class TokenViews {
  readonly #views = new Map<string, StoreView<BucketRef>>();

  /** The view of `request`'s dialect for `token`, made by `make` the first time it is asked for. */
  of<B extends BucketRef>(request: ViewRequest<B>, token: string | undefined, make: () => StoreView<B>): StoreView<B> {
    const key = `${request.api} ${token ?? ''}`;
    let view = this.#views.get(key);
    if (!view) {
      view = make() as StoreView<BucketRef>;
      this.#views.set(key, view);
    }
    // The key holds the dialect: the view there is the one this dialect's request made.
    return view as StoreView<B>;
  }

  values(): IterableIterator<StoreView<BucketRef>> {
    return this.#views.values();
  }
}
