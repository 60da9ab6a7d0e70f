/**
 * A clock the test moves by hand. Timers fire in time order; between timers the event loop is
 * allowed to run, so promise chains and msw's (in-process) responses settle as they would.
 */
import type { Clock } from '../../src/clock.ts';

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
}

export class ManualClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #order = 0;
  /** Bumped by every timer set or fired: a driver's sign of progress. */
  activity = 0;
  /** Misuse seen: each timer asked for a wait that never ends (NaN, Infinity, not a number). */
  readonly problems: string[] = [];

  readonly #idle: () => Promise<void>;

  /**
   * @param idle waits until the system is quiet after a timer fired (default: a few event-loop
   *   turns); end-to-end tests also wait for requests in flight over real sockets.
   */
  constructor(startMs = Date.UTC(2026, 10, 22, 12, 0, 0), idle: () => Promise<void> = () => settle()) {
    this.#now = startMs;
    this.#idle = idle;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    this.activity++;
    if (typeof ms !== 'number' || Number.isNaN(ms) || ms === Number.POSITIVE_INFINITY) {
      // Such a timer never fires: recorded in `problems`, not stored (a driver then reports the hang).
      this.problems.push(`clock.setTimeout(…, ${String(ms)}): a wait that never ends`);
      return () => {};
    }
    const timer = { at: this.#now + Math.max(0, ms), order: this.#order++, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((other) => other !== timer);
    };
  }

  get pendingTimers(): number {
    return this.#timers.length;
  }

  /**
   * Fires the earliest pending timer (ties in the order they were set) and moves `now` to its due
   * time, without waiting for anything; false when none is pending.
   */
  fireNext(): boolean {
    return this.#fireEarliest(Number.POSITIVE_INFINITY);
  }

  /** Fires the earliest timer due by `until` (ties in the order they were set); false when none is. */
  #fireEarliest(until: number): boolean {
    let next: Timer | undefined;
    for (const timer of this.#timers) {
      if (timer.at > until) continue;
      if (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) next = timer;
    }
    if (!next) return false;
    this.#timers = this.#timers.filter((timer) => timer !== next);
    this.#now = Math.max(this.#now, next.at);
    this.activity++;
    next.callback();
    return true;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting I/O settle after each. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await this.#idle();
    for (let fired = 0; fired < 100_000 && this.#fireEarliest(target); fired++) await this.#idle();
    this.#now = target;
    await this.#idle();
  }

  /** Sets the wall clock (as another machine's skewed clock would be). */
  set(ms: number): void {
    this.#now = ms;
  }
}

/**
 * Lets pending promise chains and in-process responses run (a bounded number of turns). One
 * real timer turn is included: ky schedules each retry with a real `setTimeout(0)`.
 */
export async function settle(turns = 10): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits until `condition` holds, looking every few ms for at most `ms` of real time: for what a
 * real timer ends (a server's delayed answer), which a count of turns of the loop bounds by the
 * machine's speed instead.
 */
export async function untilWithin(condition: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() >= deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits (bounded) until `condition` holds, letting the event loop run in between. */
export async function until(condition: () => boolean, what: string, turns = 2000): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Waits until `condition` holds while real I/O completes (a Redis round trip, however slow a loaded
 * machine makes it): checks once a real millisecond, for at most `realMs`. The test's clock stays put.
 */
export async function untilAfterIo(condition: () => boolean, what: string, realMs = 10_000): Promise<void> {
  for (let waited = 0; waited < realMs; waited++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

/**
 * Advances `clock` in steps of `stepMs` (bounded by `maxSteps`) until every promise settled,
 * letting the event loop (and real sockets) run between steps.
 */
export async function driveUntilSettled(
  clock: ManualClock,
  promises: readonly Promise<unknown>[],
  stepMs = 100,
  maxSteps = 200,
): Promise<void> {
  let done = false;
  void Promise.allSettled(promises).then(() => (done = true));
  for (let step = 0; step < maxSteps && !done; step++) {
    for (let turn = 0; turn < 5; turn++) await settle();
    await clock.advance(stepMs);
  }
}
