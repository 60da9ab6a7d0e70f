/**
 * `onUnavailable: 'local'` of a shared store (Redis, a Durable Object): while the store cannot be
 * reached, a view decides with the memory view of the same dialect, on its own (conservatively:
 * every bucket starts unknown, one request in flight until its headers arrive), and goes back to
 * the shared store as soon as it answers again.
 */
import type {
  Admission,
  BucketRef,
  BucketSnapshot,
  MaybePromise,
  Reservation,
  SettleResult,
  StoreEvent,
  StoreView,
} from '../contracts/store.ts';
import { StoreUnavailableError } from '../errors.ts';

export class FallbackView<B extends BucketRef, U> implements StoreView<B, U> {
  readonly #remote: StoreView<B, U>;
  readonly #local: StoreView<B, U>;

  constructor(remote: StoreView<B, U>, local: StoreView<B, U>) {
    this.#remote = remote;
    this.#local = local;
  }

  /** The remote's answer, or the local one when the shared store cannot be reached. */
  async #decide<T>(remote: (view: StoreView<B, U>) => MaybePromise<T>): Promise<T> {
    try {
      return await remote(this.#remote);
    } catch (error) {
      if (error instanceof StoreUnavailableError) return remote(this.#local);
      throw error;
    }
  }

  admit(bucket: B | null): Promise<Admission> {
    return this.#decide((view) => view.admit(bucket));
  }

  async markSleptPast(bucket: B, reset: number): Promise<void> {
    await this.#decide((view) => view.markSleptPast?.(bucket, reset));
  }

  settle(bucket: B, reservation: Reservation, update: U): Promise<SettleResult | undefined> {
    return this.#decide((view) => view.settle(bucket, reservation, update));
  }

  release(bucket: B, reservation: Reservation): Promise<void> {
    return this.#decide((view) => view.release(bucket, reservation));
  }

  giveBack(bucket: B, reservation: Reservation): Promise<void> {
    return this.#decide((view) => view.giveBack(bucket, reservation));
  }

  lockGlobal(ms: number): Promise<void> {
    return this.#decide((view) => view.lockGlobal(ms));
  }

  async noteInvalid(): Promise<SettleResult> {
    return (await this.#decide((view) => view.noteInvalid?.())) ?? {};
  }

  async invalidRequests(): Promise<number> {
    return (await this.#decide((view) => view.invalidRequests?.())) ?? 0;
  }

  get(bucket: B): Promise<BucketSnapshot | undefined> {
    return this.#decide((view) => view.get(bucket));
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    return this.#remote.subscribe(listener);
  }

  /** Closes both: a local view shared by the token's clients (a store's `TokenViews`) lets go of this one. */
  async close(): Promise<void> {
    await Promise.all([this.#remote.close(), this.#local.close()]);
  }
}
