/**
 * A store whose views' `admit` answers only when the test says so: the store decides at once (a
 * grant is really taken), but its answer is held back, as a slow Redis round trip would hold
 * it. With it a test can make a caller leave while its admit is in flight. Every other method
 * goes straight to the wrapped store's view; `giveBack` and `release` calls are counted.
 */
import type { BucketRef, Store, StoreView, ViewRequest } from '../../src/contracts/store.ts';
import type { Clock } from '../../src/clock.ts';

export class GatedStore implements Store {
  readonly #inner: Store;
  /** Admits answered and held back, waiting for `open`. */
  readonly #held: (() => void)[] = [];
  #holding = false;
  /** Admits asked of the wrapped store, held back or not. */
  admits = 0;
  givenBack = 0;
  released = 0;

  constructor(inner: Store) {
    this.#inner = inner;
  }

  /** From now on, admits' answers are held back. */
  holdAnswers(): void {
    this.#holding = true;
  }

  /** Lets every held answer through, and those to come. */
  answer(): void {
    this.#holding = false;
    for (const deliver of this.#held.splice(0)) deliver();
  }

  /** Answers held back now. */
  get held(): number {
    return this.#held.length;
  }

  view<B extends BucketRef>(request: ViewRequest<B>, token: string | undefined, clock: Clock): StoreView<B> {
    const view = this.#inner.view(request, token, clock);
    const admit: StoreView<B>['admit'] = (bucket) => {
      this.admits += 1;
      const answer = Promise.resolve(view.admit(bucket));
      if (!this.#holding) return answer;
      return new Promise((resolve) => this.#held.push(() => resolve(answer)));
    };
    const giveBack: StoreView<B>['giveBack'] = (bucket, reservation) => {
      this.givenBack += 1;
      return view.giveBack(bucket, reservation);
    };
    const release: StoreView<B>['release'] = (bucket, reservation) => {
      this.released += 1;
      return view.release(bucket, reservation);
    };
    const overrides: Partial<StoreView<B>> = { admit, giveBack, release };
    // The view's own methods run on the view itself (it may keep private state).
    return new Proxy(view, {
      get(target, property) {
        if (property in overrides) return overrides[property as keyof StoreView<B>];
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
