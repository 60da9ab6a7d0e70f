/**
 * A store's views, one per (dialect, token), made on first use: the clients of one token on one
 * store share a view, and the first one's settings hold. Each client gets a handle of its own;
 * when the last one is closed, the view is kept until it holds nothing a later request needs
 * (`StoreView.idle`), then dropped. So a store that serves many tokens in turn (a relay's lanes
 * come and go) holds the tokens in use, not every token it ever saw.
 *
 * A memory view has no channel of its own (Redis publishes, a Durable Object holds admits), so
 * with `announceChanges` the handles are one: a settle, release or give-back through one handle
 * wakes the other clients' calls waiting on that bucket, and a global lock holds theirs, as
 * Redis's events do between processes. A client is never told of its own changes: it acts on
 * them already, and one client alone pays nothing.
 */
import type { Clock } from '../clock.ts';
import {
  SHED_INTERVAL_MS,
  type BucketRef,
  type MaybePromise,
  type StoreEvent,
  type StoreView,
  type ViewRequest,
} from '../contracts/store.ts';

type Listener = (event: StoreEvent) => void;

interface Entry {
  readonly view: StoreView<BucketRef>;
  /** Handles not yet closed. */
  users: number;
  /** Each open handle's listeners (`announceChanges`). */
  readonly handles: Set<Set<Listener>>;
}

export interface TokenViewsOptions {
  /** Tell each client of a view the changes the others make through it (memory views). */
  readonly announceChanges?: boolean;
}

export class TokenViews {
  readonly #views = new Map<string, Entry>();
  readonly #announceChanges: boolean;
  /** Keys of views no handle uses: dropped once idle. */
  readonly #unused = new Set<string>();
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: TokenViewsOptions = {}) {
    this.#announceChanges = options.announceChanges ?? false;
  }

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
      entry = { view: make() as StoreView<BucketRef>, users: 0, handles: new Set() };
      this.#views.set(key, entry);
    }
    entry.users += 1;
    this.#unused.delete(key);
    const used = entry;
    // The key holds the dialect: the view there is the one this dialect's request made.
    const onClose = () => {
      used.users -= 1;
      if (used.users === 0 && this.#views.get(key) === used) this.#unused.add(key);
    };
    return handleOn(entry.view as StoreView<B>, onClose, this.#announceChanges ? entry.handles : undefined);
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

/**
 * A client's own handle on a shared view: every call goes to the view; closing it closes the
 * handle alone. With `handles` (the view's, `announceChanges`), its changes are told to the others.
 */
function handleOn<B extends BucketRef>(
  view: StoreView<B>,
  onClose: () => void,
  handles: Set<Set<Listener>> | undefined,
): StoreView<B> {
  let closed = false;
  const own = new Set<Listener>();
  handles?.add(own);
  /** `result`, once the others are told `event` (after it, as a Redis event comes after its script). */
  const telling = <T>(result: MaybePromise<T>, event: () => StoreEvent): MaybePromise<T> => {
    if (handles === undefined || handles.size < 2) return result;
    const tell = () => {
      const told = event();
      for (const listeners of handles) if (listeners !== own) for (const listener of listeners) listener(told);
    };
    if (result instanceof Promise) {
      return result.then((value) => {
        queueMicrotask(tell);
        return value;
      });
    }
    queueMicrotask(tell);
    return result;
  };
  const bucketEvent = (bucket: B) => () => ({ kind: 'bucket', bucketKey: bucket.bucketKey }) as const;
  // Every member of the contract, the optional ones too (undefined where the view has none): one
  // added to StoreView is a type error here until the handle passes it on.
  const handle: { [Member in keyof Required<StoreView<B>>]: StoreView<B>[Member] } = {
    admit: (bucket) => view.admit(bucket),
    markSleptPast: view.markSleptPast && ((bucket, reset) => view.markSleptPast!(bucket, reset)),
    settle: (bucket, reservation, update) => telling(view.settle(bucket, reservation, update), bucketEvent(bucket)),
    release: (bucket, reservation) => telling(view.release(bucket, reservation), bucketEvent(bucket)),
    giveBack: (bucket, reservation) => telling(view.giveBack(bucket, reservation), bucketEvent(bucket)),
    // A lock of no time holds no one: Redis tells no one of it either.
    lockGlobal: (ms) =>
      ms > 0 ? telling(view.lockGlobal(ms), () => ({ kind: 'global', ms }) as const) : view.lockGlobal(ms),
    noteInvalid: view.noteInvalid && (() => view.noteInvalid!()),
    invalidRequests: view.invalidRequests && (() => view.invalidRequests!()),
    get: (bucket) => view.get(bucket),
    subscribe: (listener) => {
      own.add(listener);
      const unsubscribe = view.subscribe(listener);
      return () => {
        own.delete(listener);
        unsubscribe();
      };
    },
    idle: view.idle && ((now: number) => view.idle!(now)),
    get size() {
      return view.size;
    },
    close: () => {
      if (!closed) {
        closed = true;
        handles?.delete(own);
        onClose();
      }
      return Promise.resolve();
    },
  };
  return handle;
}
