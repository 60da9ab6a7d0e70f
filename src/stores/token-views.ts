/**
 * A store's views, one per (dialect, token), made on first use: the clients of one token on one
 * store share a view, and the first one's settings hold. Each client gets a handle of its own;
 * when the last one is closed, the view is kept until it holds nothing a later request needs
 * (`StoreView.idle`), then dropped. So a store that serves many tokens in turn (a relay's lanes
 * come and go) holds the tokens in use, not every token it ever saw.
 */
import type { Clock } from '../clock.ts';
import { SHED_INTERVAL_MS, type BucketRef, type StoreView, type ViewRequest } from '../contracts/store.ts';

interface Entry {
  readonly view: StoreView<BucketRef>;
  /** Handles not yet closed. */
  users: number;
}

export class TokenViews {
  readonly #views = new Map<string, Entry>();
  /** Keys of views no handle uses: dropped once idle. */
  readonly #unused = new Set<string>();
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  /** A handle on the view of `request`'s dialect for `token`, made by `make` the first time it is asked for. */
  of<B extends BucketRef>(
    request: ViewRequest<B>,
    token: string | undefined,
    clock: Clock,
    make: () => StoreView<B>,
  ): StoreView<B> {
    const now = clock.now();
    if (now >= this.#nextSweepAt) this.#sweep(now);
    const key = `${request.api} ${token ?? ''}`;
    let entry = this.#views.get(key);
    if (!entry) {
      entry = { view: make() as StoreView<BucketRef>, users: 0 };
      this.#views.set(key, entry);
    }
    entry.users += 1;
    this.#unused.delete(key);
    const used = entry;
    // The key holds the dialect: the view there is the one this dialect's request made.
    return handleOn(entry.view as StoreView<B>, () => {
      used.users -= 1;
      if (used.users === 0 && this.#views.get(key) === used) this.#unused.add(key);
    });
  }

  values(): Iterable<StoreView<BucketRef>> {
    return Array.from(this.#views.values(), (entry) => entry.view);
  }

  /** Views held now, in use or not yet idle. */
  get size(): number {
    return this.#views.size;
  }

  #sweep(now: number): void {
    this.#nextSweepAt = now + SHED_INTERVAL_MS;
    for (const key of this.#unused) {
      const { view } = this.#views.get(key)!;
      if (!view.idle?.(now)) continue;
      this.#unused.delete(key);
      this.#views.delete(key);
      view.close().catch(() => {}); // nothing waits on a view no client uses
    }
  }
}

/** A client's own handle on a shared view: every call goes to the view; closing it closes the handle alone. */
function handleOn<B extends BucketRef>(view: StoreView<B>, onClose: () => void): StoreView<B> {
  let closed = false;
  return {
    admit: (bucket) => view.admit(bucket),
    ...(view.markSleptPast && { markSleptPast: (bucket, reset) => view.markSleptPast!(bucket, reset) }),
    settle: (bucket, reservation, update) => view.settle(bucket, reservation, update),
    release: (bucket, reservation) => view.release(bucket, reservation),
    giveBack: (bucket, reservation) => view.giveBack(bucket, reservation),
    lockGlobal: (ms) => view.lockGlobal(ms),
    ...(view.noteInvalid && { noteInvalid: () => view.noteInvalid!() }),
    ...(view.invalidRequests && { invalidRequests: () => view.invalidRequests!() }),
    get: (bucket) => view.get(bucket),
    subscribe: (listener) => view.subscribe(listener),
    ...(view.idle && { idle: (now: number) => view.idle!(now) }),
    get size() {
      return view.size;
    },
    close: () => {
      if (!closed) {
        closed = true;
        onClose();
      }
      return Promise.resolve();
    },
  };
}
