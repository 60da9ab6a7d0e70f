/**
 * The v10 global pace (V13) and the invalid-request log (V15), pure: time is an argument. The
 * memory view applies them; the Redis store's Lua (`../../redis/v10/scripts.ts`) ports the pace's
 * counting, and both views take their arrival credit from `RoundTripFloor`.
 */
import { GLOBAL_WINDOW_MS, INVALID_WINDOW_MS } from './rules.ts';

/**
 * V13: at most `limit` requests of a token in any `GLOBAL_WINDOW_MS + marginMs`, as the service
 * counts them: at their arrival there, which the client cannot see. A request in flight holds its
 * place until it is answered. An answered one counts from an estimate of its arrival (its *entry*):
 * the answer's time less the request's arrival credit, which `RoundTripFloor` bounds by half the
 * least round trip seen (the way back took at least that). A new request is checked against
 * entries from its own credit on (it takes at least that long to get there): so the next second's
 * requests arrive a window after the last one's, however long either took on the wire, as long as
 * each way takes at least half the least round trip. With no credit (none learned yet) a request
 * counts from its answer: the latest it can have arrived. O(limit) per decision.
 */
export class GlobalPace {
  readonly #limit: number;
  readonly #windowMs: number;
  /** Requests in flight: id → grant time. */
  readonly #inFlight = new Map<string, number>();
  /** Answered requests' entries (estimated arrivals), in order. */
  readonly #entries: SortedTimes;

  constructor(limit: number, marginMs: number) {
    this.#limit = limit;
    this.#windowMs = GLOBAL_WINDOW_MS + marginMs;
    this.#entries = new SortedTimes(this.#windowMs);
  }

  /** ms until one more request may go (0: now), for a request whose arrival credit is `creditMs`. */
  waitMs(now: number, creditMs: number): number {
    const since = now + creditMs - this.#windowMs;
    const counted = this.#entries.countAfter(since, now);
    const over = counted + this.#inFlight.size - this.#limit;
    if (over < 0) return 0;
    return Math.max(
      1,
      nthPlaceFree(over, this.#entries.after(since, over + 1), this.#inFlight.values(), now, creditMs) - since,
    );
  }

  /** A request granted at `now` under `id`. */
  record(id: string, now: number): void {
    this.#inFlight.set(id, now);
  }

  /** The request was answered (or ended without an answer, `backdateMs` 0): it counts from `backdateMs` before `now`. */
  answered(id: string, now: number, backdateMs: number): void {
    if (this.#inFlight.delete(id)) this.#entries.add(now - backdateMs);
  }

  /** The request was never sent: its place comes back. */
  forget(id: string): void {
    this.#inFlight.delete(id);
  }
}

/**
 * When the (`over` + 1)-th place of the pace frees up, as an entry that a request from then on is
 * no longer checked against: an answered request's entry falls out of the window; one in flight
 * counts, once answered, from no earlier than its grant and than now less the credit. A hint: the
 * count decides again then.
 */
export function nthPlaceFree(
  over: number,
  entries: Iterable<number>,
  grants: Iterable<number>,
  now: number,
  creditMs: number,
): number {
  const frees = [...entries];
  for (const granted of grants) frees.push(Math.max(granted, now - creditMs));
  return frees.sort((a, b) => a - b)[over]!;
}

/** Answers after this long without one start a new run of answers: the connections may be new again. */
export const ANSWER_RUN_GAP_MS = 4_000;
/** The least round trip is taken over this long. */
export const ROUND_TRIP_HORIZON_MS = 60_000;

/**
 * V13's arrival credit: half the least round trip (grant to answer) of the last minute. A round
 * trip is never shorter than its two ways' least delays together, so half of the least one is a
 * safe credit for each way when the two ways are alike (`globalMargin` absorbs what they differ
 * by); and since every answered request's own round trip is in the floor, one process is safe
 * however the delay splits between the ways.
 *
 * No credit until a request granted after an earlier answer of the same run was answered: the
 * first of a burst open new connections, whose handshake lengthens the way out only, and a floor
 * learned from them alone would credit warm requests with time they do not take. One per view:
 * each process (each machine) measures its own path.
 */
export class RoundTripFloor {
  /** The first answer of the current run: requests granted since are on warm connections. */
  #runStart = Number.NEGATIVE_INFINITY;
  #lastAnswer = Number.NEGATIVE_INFINITY;
  /** The last answer to a request of the run's: until a horizon after it, the floor is trusted. */
  #warmAnswer = Number.NEGATIVE_INFINITY;
  /** (time, round trip) with rising round trips: the least of the horizon is at the head. */
  readonly #samples: [at: number, ms: number][] = [];

  /** Half the least round trip, in whole ms: 0 until a warm one is known. */
  creditMs(now: number): number {
    const horizon = now - ROUND_TRIP_HORIZON_MS;
    if (this.#warmAnswer <= horizon) return 0;
    while (this.#samples[0]![0] <= horizon) this.#samples.shift();
    return Math.floor(this.#samples[0]![1] / 2);
  }

  /**
   * A request granted at `grantedAt` was answered at `answeredAt` (at `now` when not known): how
   * long before `now` it counts from in the pace, its answer's age plus its credit (never more than
   * half its own round trip); and its round trip is learned.
   */
  backdateMs(now: number, grantedAt = now, answeredAt = now): number {
    const answered = Math.min(answeredAt, now);
    const roundTrip = Math.max(0, answered - grantedAt);
    if (answered - this.#lastAnswer > ANSWER_RUN_GAP_MS) this.#runStart = answered;
    this.#lastAnswer = Math.max(this.#lastAnswer, answered);
    if (grantedAt >= this.#runStart) this.#warmAnswer = Math.max(this.#warmAnswer, answered);
    while (this.#samples.length > 0 && this.#samples.at(-1)![1] >= roundTrip) this.#samples.pop();
    this.#samples.push([answered, roundTrip]);
    // Its own round trip is in the floor now: the credit is never more than half of it.
    return now - answered + this.creditMs(answered);
  }
}

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

  /** The earliest `count` later than `since`. */
  after(since: number, count: number): number[] {
    const from = this.#indexAfter(since);
    return this.#times.slice(from, from + count);
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
