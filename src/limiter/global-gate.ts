/**
 * The process's global gate: closed while the token's global lock is held (a global 429, here or
 * in another process) or, v10, while the global pace is spent. Non-exempt calls wait here before
 * they ask for their bucket; the store holds the shared lock, this gate only keeps local callers from asking it
 * again and again. When it opens, its callers go through one at a time, each once the store has
 * answered the one before: a place freed in the pace is one place, and every process's callers
 * asking for it at once only delayed the one who gets it.
 */
import type { Clock } from '../clock.ts';
import { RateLimitWaitError } from '../errors.ts';
import type { CallState } from './call.ts';
import { newWaiter, type Waiter } from './waiter.ts';

export class GlobalGate {
  readonly #clock: Clock;
  readonly #onWait: (call: CallState, ms: number) => void;
  readonly #waiters = new Set<Waiter<undefined>>();
  /** The gate is closed until then: a global lock, or (v10) the global pace spent. */
  #closedUntil = 0;
  /** A global lock holds until then; the pace aside. */
  #lockedUntil = 0;
  #timer: (() => void) | undefined;
  #closed = false;
  /** Let through since the gate opened, the store's answer for it not back yet: the others wait for it. */
  #passing: CallState | undefined;

  constructor(clock: Clock, onWait: (call: CallState, ms: number) => void) {
    this.#clock = clock;
    this.#onWait = onWait;
  }

  /** True while `call` must wait here first. */
  shuts(call: CallState): boolean {
    if (call.target.exempt) return false;
    return this.#clock.now() < this.#closedUntil || (this.#passing !== undefined && this.#passing !== call);
  }

  /** The store answered `call` (whatever it said): the next caller waiting here may go. */
  passed(call: CallState): void {
    if (this.#passing !== call) return;
    this.#passing = undefined;
    if (this.#clock.now() >= this.#closedUntil) this.#letOneThrough();
  }

  /** A global lock began after `call` was granted a place: it must give the place back and wait. */
  lockedSinceGrant(call: CallState): boolean {
    return !call.target.exempt && this.#clock.now() < this.#lockedUntil;
  }

  /** Waits until the gate opens, or fails at once when that is past the call's maxWait. */
  wait(call: CallState): Promise<void> {
    const ms = this.#closedUntil - this.#clock.now();
    if (ms > call.maxWaitMs) return Promise.reject(new RateLimitWaitError('global', ms, call.maxWaitMs, call.identity));
    // Behind a caller going through: no wait of known length.
    if (ms > 0) this.#onWait(call, ms);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter<undefined> = newWaiter<undefined>(
        call,
        this.#clock.now(),
        () => resolve(),
        reject,
        () => this.#waiters.delete(waiter),
      );
      this.#waiters.add(waiter);
    });
  }

  /** Closes the gate for `ms`: a global lock, or with `pace` the pace spent (which a granted call need not give back for). */
  hold(ms: number, pace = false): void {
    if (this.#closed) return;
    const until = this.#clock.now() + ms;
    if (!pace) this.#lockedUntil = Math.max(this.#lockedUntil, until);
    if (until <= this.#closedUntil) return;
    this.#closedUntil = until;
    this.#timer?.();
    this.#timer = this.#clock.setTimeout(() => this.#open(), ms);
  }

  /** Fails every waiting call with `error` and keeps the gate from closing again. */
  close(error: Error): void {
    this.#closed = true;
    this.#timer?.();
    this.#timer = undefined;
    for (const waiter of [...this.#waiters]) waiter.fail(error);
    this.#waiters.clear();
  }

  #open(): void {
    this.#timer = undefined;
    const left = this.#closedUntil - this.#clock.now();
    if (left > 0) {
      this.#timer = this.#clock.setTimeout(() => this.#open(), left);
      return;
    }
    this.#letOneThrough();
  }

  #letOneThrough(): void {
    const [next] = this.#waiters;
    this.#passing = next?.call;
    if (!next) return;
    this.#waiters.delete(next);
    next.grant(undefined);
  }
}
