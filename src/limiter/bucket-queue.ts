/**
 * The per-process side of each bucket: its callers in FIFO order, the one timer that wakes them
 * after a sleep, queue deadlines (`maxWait`) and aborts. The store decides; this only asks it
 * again when something may have changed (a settle or release here, an event from another
 * process, a timer).
 */
import type { Clock } from '../clock.ts';
import type { Admission, BucketRef, MaybePromise, Reservation, StoreView } from '../contracts/store.ts';
import { RateLimitWaitError, type WaitReason } from '../errors.ts';
import type { CallState } from './call.ts';
import { newWaiter, type Waiter } from './waiter.ts';

/** A queued call sent back to the global gate instead of getting a reservation. */
export const HELD = Symbol('held at the global gate');
export type Outcome = Reservation | typeof HELD;

/** The per-process side of one bucket: who waits, and the one timer that wakes them. */
interface BucketEntry {
  readonly bucket: BucketRef;
  readonly waiters: Waiter<Outcome>[];
  timer: (() => void) | undefined;
  timerEndsAt: number;
  /** A fallback wake-up while waiting for a response (does not hold the queue back). */
  poll: (() => void) | undefined;
  pumping: boolean;
  repump: boolean;
  /** The head of the queue awaits a response (of any local key, with shared buckets). */
  awaiting: boolean;
}

export interface BucketQueueOptions {
  readonly clock: Clock;
  readonly store: StoreView;
  /** Buckets shared by several local keys: a wake-up also pumps every queue awaiting a response. */
  readonly sharedBuckets: boolean;
  /** The store answered `global`: close the process's gate. */
  readonly holdGlobal: (ms: number, pace?: boolean) => void;
  readonly emit: (call: CallState, reason: WaitReason, ms: number) => void;
}

export const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

export class BucketQueues {
  readonly #clock: Clock;
  readonly #store: StoreView;
  readonly #sharedBuckets: boolean;
  readonly #holdGlobal: BucketQueueOptions['holdGlobal'];
  readonly #emit: BucketQueueOptions['emit'];
  readonly #entries = new Map<string, BucketEntry>();
  #closed = false;

  constructor(options: BucketQueueOptions) {
    this.#clock = options.clock;
    this.#store = options.store;
    this.#sharedBuckets = options.sharedBuckets;
    this.#holdGlobal = options.holdGlobal;
    this.#emit = options.emit;
  }

  /**
   * A place in `bucket` for a call: at once when nobody waits and the store grants, else in FIFO
   * order. `answered` runs once the store has first answered (or was not asked: others wait).
   */
  async take(call: CallState, bucket: BucketRef, answered: () => void = () => {}): Promise<Outcome> {
    let now: Outcome | undefined;
    try {
      now = await this.#reserveNow(bucket);
    } finally {
      answered();
    }
    return now ?? (await this.#queue(this.#entry(bucket), call));
  }

  /** Something changed for `bucketKey` (or, with shared buckets, maybe for every waiting queue): ask the store again. */
  wake(bucketKey: string): void {
    const entry = this.#entries.get(bucketKey);
    if (entry) this.#pump(entry);
    if (this.#sharedBuckets) for (const other of this.#entries.values()) if (other.awaiting) this.#pump(other);
  }

  /** Fails every waiting call with `error` and cancels every timer. */
  close(error: Error): void {
    this.#closed = true;
    for (const entry of this.#entries.values()) {
      entry.timer?.();
      entry.poll?.();
      entry.timer = undefined;
      entry.poll = undefined;
      for (const waiter of entry.waiters.splice(0)) waiter.fail(error);
    }
    this.#entries.clear();
  }

  #entry(bucket: BucketRef): BucketEntry {
    let entry = this.#entries.get(bucket.bucketKey);
    if (!entry) {
      entry = {
        bucket,
        waiters: [],
        timer: undefined,
        timerEndsAt: 0,
        poll: undefined,
        pumping: false,
        repump: false,
        awaiting: false,
      };
      this.#entries.set(bucket.bucketKey, entry);
    }
    return entry;
  }

  /** The fast path: nobody waits on the bucket here, and the store grants at once. */
  async #reserveNow(bucket: BucketRef): Promise<Outcome | undefined> {
    const entry = this.#entries.get(bucket.bucketKey);
    if (entry && (entry.waiters.length > 0 || entry.timer || entry.pumping)) return undefined;
    const result = this.#store.admit(bucket);
    const admission = isPromise(result) ? await result : result;
    if (admission.kind === 'grant') return admission.reservation;
    if (admission.kind === 'global') {
      this.#holdGlobal(admission.ms, admission.pace);
      return HELD;
    }
    if (admission.kind === 'refuse') throw admission.error;
    return undefined;
  }

  #queue(entry: BucketEntry, call: CallState): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      const waiter = newWaiter<Outcome>(call, this.#clock.now(), resolve, reject, () => {
        const index = entry.waiters.indexOf(waiter);
        if (index === -1) return false;
        entry.waiters.splice(index, 1);
        this.#pump(entry);
        return true;
      });
      entry.waiters.push(waiter);
      if (entry.timer && entry.timerEndsAt > this.#clock.now()) {
        this.#reportBucketWait(entry, waiter, entry.timerEndsAt - this.#clock.now());
      }
      this.#pump(entry);
      if (entry.waiters.includes(waiter)) this.#armQueueDeadline(waiter, entry);
    });
  }

  /** Grants queued calls in FIFO order while the store allows; one pump per bucket at a time. */
  #pump(entry: BucketEntry): void {
    if (entry.pumping) {
      entry.repump = true;
      return;
    }
    entry.pumping = true;
    void this.#pumpLoop(entry);
  }

  async #pumpLoop(entry: BucketEntry): Promise<void> {
    try {
      do {
        entry.repump = false;
        while (entry.waiters.length > 0 && entry.timer === undefined && !this.#closed) {
          const result = this.#store.admit(entry.bucket);
          const admission = isPromise(result) ? await result : result;
          if (!this.#grantHead(entry, admission)) break;
        }
      } while (entry.repump && entry.timer === undefined && !this.#closed);
    } catch (error) {
      // The store failed (Redis lost): every caller waiting here gets the clear error.
      for (const waiter of entry.waiters.splice(0)) waiter.fail(error);
    } finally {
      entry.pumping = false;
      if (entry.waiters.length === 0) {
        entry.poll?.();
        entry.poll = undefined;
        const key = entry.bucket.bucketKey;
        if (entry.timer === undefined && this.#entries.get(key) === entry) this.#entries.delete(key);
      }
    }
  }

  /** Acts on one admission for the head of the queue; false when the queue must wait. */
  #grantHead(entry: BucketEntry, admission: Admission): boolean {
    const now = this.#clock.now();
    entry.awaiting = admission.kind === 'await-response';
    switch (admission.kind) {
      case 'refuse':
        // Nothing of this key may be sent: every caller queued on it gets the reason.
        for (const waiter of entry.waiters.splice(0)) waiter.fail(admission.error);
        return false;
      case 'grant': {
        const waiter = entry.waiters.shift();
        if (!waiter) {
          // Its caller left while the store decided: the place goes back.
          Promise.resolve(this.#store.giveBack(entry.bucket, admission.reservation)).catch(() => {
            // Unreachable store: the place stays taken until its lease runs out.
          });
          return false;
        }
        if (!waiter.reported && now > waiter.since) this.#emit(waiter.call, 'queue', now - waiter.since);
        waiter.grant(admission.reservation);
        return true;
      }
      case 'global':
        this.#holdGlobal(admission.ms, admission.pace);
        for (const waiter of entry.waiters.splice(0)) waiter.grant(HELD);
        return false;
      case 'await-response':
        // Woken by a settle or release here, an event from another process, or this timer
        // (a shared store names when the oldest lease in flight runs out).
        if (admission.retryMs !== undefined) {
          entry.poll?.();
          entry.poll = this.#clock.setTimeout(
            () => {
              entry.poll = undefined;
              this.#pump(entry);
            },
            Math.max(1, admission.retryMs),
          );
        }
        return false;
      case 'sleep':
        // The head of the queue sleeps; everyone behind it waits at least as long.
        this.#arm(entry, admission.ms, admission.reset);
        for (const waiter of [...entry.waiters]) this.#reportBucketWait(entry, waiter, admission.ms);
        if (entry.waiters.length === 0) {
          entry.timer?.();
          entry.timer = undefined;
        }
        return false;
    }
  }

  /** Sets the bucket's one timer for a sleep: when it fires, window `reset` is over. */
  #arm(entry: BucketEntry, ms: number, reset: number): void {
    entry.timerEndsAt = this.#clock.now() + ms;
    entry.timer = this.#clock.setTimeout(() => {
      entry.timer = undefined;
      Promise.resolve(this.#store.markSleptPast?.(entry.bucket, reset)).then(
        () => this.#pump(entry),
        (error: unknown) => {
          for (const waiter of entry.waiters.splice(0)) waiter.fail(error);
        },
      );
    }, ms);
  }

  #reportBucketWait(entry: BucketEntry, waiter: Waiter<Outcome>, ms: number): void {
    if (ms > waiter.call.maxWaitMs) {
      entry.waiters.splice(entry.waiters.indexOf(waiter), 1);
      waiter.fail(new RateLimitWaitError('bucket', ms, waiter.call.maxWaitMs, waiter.call.identity));
      return;
    }
    waiter.reported = true;
    this.#emit(waiter.call, 'bucket', ms);
  }

  /** A queue wait has no known length: fail it once it has lasted maxWait. */
  #armQueueDeadline(waiter: Waiter<Outcome>, entry: BucketEntry): void {
    const maxWaitMs = waiter.call.maxWaitMs;
    if (!Number.isFinite(maxWaitMs)) return;
    const cancel = this.#clock.setTimeout(() => {
      const index = entry.waiters.indexOf(waiter);
      if (index === -1) return;
      entry.waiters.splice(index, 1);
      const now = this.#clock.now();
      const sleepLeft = entry.timer === undefined ? 0 : Math.max(0, entry.timerEndsAt - now);
      waiter.fail(new RateLimitWaitError('queue', now - waiter.since, maxWaitMs, waiter.call.identity, sleepLeft));
      this.#pump(entry);
    }, maxWaitMs);
    const { grant, fail } = waiter;
    waiter.grant = (outcome) => {
      cancel();
      grant(outcome);
    };
    waiter.fail = (error) => {
      cancel();
      fail(error);
    };
  }
}
