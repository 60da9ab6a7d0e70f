/**
 * The v10 global pace (V13) and the invalid-request log (V15), pure: time is an argument. The
 * memory view applies them; the Redis store's Lua (`../../redis/v10/scripts.ts`) ports them.
 */
import { GLOBAL_WINDOW_MS, INVALID_WINDOW_MS } from './rules.ts';

/**
 * V13: at most `limit` requests of a token in any `GLOBAL_WINDOW_MS + marginMs`, as the service
 * counts them: at their arrival there, which the client cannot see. A request counts from its
 * grant while in flight and from its response's arrival once answered (the latest it can have
 * reached the service); a place frees up a window after that. So a request sent after another's
 * window is over arrives after it, however long either took on the wire: pacing by send times
 * alone let a burst on new connections (slow first requests) and the next window's requests (on
 * warm ones) meet inside one second of the service's — found by the four-process v10 test.
 * A request still in flight holds its place until it is answered (a wait of one window, then
 * checked again). O(limit) per decision, `limit` entries of memory.
 */
export class GlobalPace {
  readonly #limit: number;
  readonly #windowMs: number;
  /** Requests in flight: id → grant time. */
  readonly #inFlight = new Map<string, number>();
  /** Answered requests' answer times (answers come in time order). */
  readonly #answered: RecentTimes;

  constructor(limit: number, marginMs: number) {
    this.#limit = limit;
    this.#windowMs = GLOBAL_WINDOW_MS + marginMs;
    this.#answered = new RecentTimes(this.#windowMs);
  }

  /** ms until one more request may go (0: now). */
  waitMs(now: number): number {
    const answered = this.#answered.count(now);
    if (answered + this.#inFlight.size < this.#limit) return 0;
    const oldest = this.#answered.oldest();
    return oldest === undefined ? this.#windowMs : Math.max(1, oldest + this.#windowMs - now);
  }

  /** A request granted at `now` under `id`. */
  record(id: string, now: number): void {
    this.#inFlight.set(id, now);
  }

  /** The request's answer arrived (or it ended without one) at `now`. */
  answered(id: string, now: number): void {
    if (this.#inFlight.delete(id)) this.#answered.add(now);
  }

  /** The request was never sent: its place comes back. */
  forget(id: string): void {
    this.#inFlight.delete(id);
  }
}

/**
 * Times added in order, counted over the last `windowMs`: the global pace's answers (V13) and the
 * invalid-request log (V15). Expired times are skipped by an index and compacted now and then.
 */
export class RecentTimes {
  readonly #windowMs: number;
  #times: number[] = [];
  #head = 0;

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  add(now: number): void {
    this.#times.push(now);
  }

  count(now: number): number {
    const since = now - this.#windowMs;
    while (this.#head < this.#times.length && this.#times[this.#head]! <= since) this.#head += 1;
    // Compact now and then: the array never holds more than the window's entries for long.
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
    return this.#times.length - this.#head;
  }

  /** The oldest time still counted (after the last `count`). */
  oldest(): number | undefined {
    return this.#times[this.#head];
  }

  /** ms until fewer than `limit` remain in the window. */
  msUntilBelow(limit: number, now: number): number {
    const count = this.count(now);
    if (count < limit) return 0;
    const oldestThatMustGo = this.#times[this.#head + count - limit]!;
    return Math.max(0, oldestThatMustGo + this.#windowMs - now);
  }
}

/** V15: the invalid requests of the last 10 minutes. */
export class InvalidRequestLog extends RecentTimes {
  constructor() {
    super(INVALID_WINDOW_MS);
  }
}
