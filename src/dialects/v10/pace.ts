/**
 * The v10 global pace (V13) and the invalid-request log (V15), pure: time is an argument. The
 * memory view applies them; the Redis store's Lua (`../../redis/v10/scripts.ts`) ports the pace's
 * counting.
 */
import { GLOBAL_WINDOW_MS, INVALID_WINDOW_MS } from './rules.ts';

/**
 * V13: at most `limit` requests of a token in any `GLOBAL_WINDOW_MS + globalMarginMs`, as the service
 * counts them: at their arrival there, which the client cannot see. A request in flight holds its
 * place until it is answered; an answered one counts from its answer, the latest it can have
 * arrived. So the next window's requests arrive a window after the last one's, however long
 * either took on the wire. Counting from an estimate of the arrival (the answer less half the
 * least round trip) drew global 429s: `docs/design.md`. O(limit) per decision.
 */
export class GlobalPace {
  readonly #limit: number;
  readonly #windowMs: number;
  /** Requests in flight, by id. */
  readonly #inFlight = new Set<string>();
  /** Answered requests' answer times, in order. */
  readonly #entries: SortedTimes;

  constructor(limit: number, globalMarginMs: number) {
    this.#limit = limit;
    this.#windowMs = GLOBAL_WINDOW_MS + globalMarginMs;
    this.#entries = new SortedTimes(this.#windowMs);
  }

  /**
   * ms until one more request may go (0: now). A hint when the pace is full: the (over + 1)-th
   * place frees up when an answer falls out of the window, or, held by a request in flight, a
   * window from now at the soonest (it counts from its answer, still to come). The count decides
   * again then.
   */
  waitMs(now: number): number {
    const since = now - this.#windowMs;
    const counted = this.#entries.countAfter(since, now);
    const over = counted + this.#inFlight.size - this.#limit;
    if (over < 0) return 0;
    const frees = over < counted ? this.#entries.nthAfter(since, over) : now;
    return Math.max(1, frees - since);
  }

  /** Nothing in flight, and nothing answered within the window: a new pace would decide the same. */
  idle(now: number): boolean {
    return this.#inFlight.size === 0 && this.#entries.countAfter(now - this.#windowMs, now) === 0;
  }

  /** A request granted under `id`. */
  record(id: string): void {
    this.#inFlight.add(id);
  }

  /** The request was answered `ageMs` before `now` (or ended without an answer, 0): it counts from then. */
  answered(id: string, now: number, ageMs: number): void {
    if (this.#inFlight.delete(id)) this.#entries.add(now - ageMs);
  }

  /** The request was never sent: its place comes back. */
  forget(id: string): void {
    this.#inFlight.delete(id);
  }
}

/**
 * How long before `now` a request was answered (`answeredAt`, on the limiter's clock; `now` when
 * not known): it counts in the pace from its answer, not from when the store heard of it.
 */
export const answerAgeMs = (now: number, answeredAt = now): number => Math.max(0, now - answeredAt);

/**
 * Times kept in order over the last `windowMs`, added in any order: the global pace's entries.
 * At most a window's worth are kept (the pace's limit, plus what answers add at once).
 */
class SortedTimes {
  readonly #windowMs: number;
  #times: number[] = [];

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  add(time: number): void {
    let index = this.#times.length;
    while (index > 0 && this.#times[index - 1]! > time) index -= 1;
    this.#times.splice(index, 0, time);
  }

  /** How many are later than `since`; those a window old at `now` are dropped (none counts for anyone then). */
  countAfter(since: number, now: number): number {
    const expired = this.#indexAfter(now - this.#windowMs);
    if (expired > 0) this.#times.splice(0, expired);
    return this.#times.length - this.#indexAfter(since);
  }

  /** The `n`-th (from 0) later than `since`; there must be more than `n`. */
  nthAfter(since: number, n: number): number {
    return this.#times[this.#indexAfter(since) + n]!;
  }

  #indexAfter(since: number): number {
    let index = 0;
    while (index < this.#times.length && this.#times[index]! <= since) index += 1;
    return index;
  }
}

/**
 * Times added in order, counted over the last `windowMs`: the invalid-request log (V15). Expired
 * times are skipped by an index and compacted now and then.
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
