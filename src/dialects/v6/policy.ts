/**
 * The concurrency policy on top of the spec's sequential table. The spec describes one request
 * at a time; with many callers on one bucket its literal rules over-send (after a reset every
 * caller sees "now > reset" and proceeds, and a late response can raise `remaining` again).
 * This policy keeps the spec's rows and adds what concurrency needs:
 *
 * - limits unknown (no bucket yet): one request in flight, the others wait for its headers;
 * - each request takes a reservation: at most `remaining` in a window;
 * - a window is refilled once (row 2), not once per caller, less the requests still in flight
 *   (they may land in the new window); once the spec's row-3 sleep has run, its window counts
 *   as over, as the spec lets the request proceed then;
 * - a response's `remaining` is lowered by the reservations still in flight (the service may not
 *   have counted them yet), and a response from an older window (smaller reset) does not move
 *   the window back;
 * - after a local refill, the local count is exact (see `BucketState.counting`) and is kept
 *   unless the service says fewer are left: subtracting requests in flight from the service's
 *   figure would count twice those it has already counted, and lose places.
 *
 * Pure: the state is passed in and changed in place (it is the shell's per-bucket record);
 * time comes in as an argument.
 */
import {
  applyUpdate,
  exhaustedSleepMs,
  initialBucket,
  preCheckRow,
  wholeSeconds,
  type BucketRecord,
  type V6Update,
} from './rules.ts';
import type { Reservation } from '../../contracts/store.ts';

export interface BucketState {
  /** The spec's bucket record; undefined until a response for the key was processed. */
  record: BucketRecord | undefined;
  /** Reservations granted whose response has not been processed yet. */
  inFlight: number;
  /** The reset value whose window was refilled locally (row 2), so it is refilled once. */
  openedWindow: number | undefined;
  /** The reset value whose row-3 sleep has run: that window is over. */
  sleptPast: number | undefined;
  /**
   * Since the last local refill, `remaining` counts every request the service can count in its
   * current window: those in flight at the refill and every grant since (all sent after the old
   * window ended). Off until a refill, and after an uncounted probe.
   */
  counting: boolean;
}

export const newBucketState = (): BucketState => ({
  record: undefined,
  inFlight: 0,
  openedWindow: undefined,
  sleptPast: undefined,
  counting: false,
});

export type ReserveDecision =
  | { readonly kind: 'grant'; readonly reservation: Reservation }
  /** Row 3: sleep until the window is over. */
  | { readonly kind: 'sleep'; readonly ms: number; readonly reset: number }
  /** Wait until a request in flight reports the bucket's limits. */
  | { readonly kind: 'await-response' };

const UNCOUNTED: Reservation = { counted: false, reset: 0 };

/** Tries to take a reservation at `nowMs`. A grant counts the request as in flight. */
export function reserve(state: BucketState, nowMs: number): ReserveDecision {
  const record = state.record;
  if (record === undefined) return probe(state);

  const nowSeconds = wholeSeconds(nowMs);
  const row = preCheckRow(record, nowSeconds);
  if (row === 'limit-is-zero') return grant(state, UNCOUNTED);

  const windowOver = row === 'reset-passed' || state.sleptPast === record.reset;
  if (windowOver && state.openedWindow !== record.reset) {
    // Row 2, once per window. A request still in flight may be counted in the new window (it
    // reached the service after the old one ended), so each takes a place until a response
    // from the new window says how many are left.
    record.remaining = Math.max(0, record.limit - state.inFlight);
    state.openedWindow = record.reset;
    state.counting = true;
  }
  if (record.remaining > 0) {
    record.remaining -= 1; // row 4
    return grant(state, { counted: true, reset: record.reset });
  }
  // The window was refilled and used up; its successor's reset is not known yet.
  if (windowOver) {
    const decision = probe(state);
    if (decision.kind === 'grant') state.counting = false; // a request the count does not hold
    return decision;
  }
  // Row 3 (a negative remaining, which no service sends, is treated as 0 here).
  return { kind: 'sleep', ms: exhaustedSleepMs(record.reset, nowSeconds), reset: record.reset };
}

/** One request in flight while the bucket's state is not known. */
function probe(state: BucketState): ReserveDecision {
  return state.inFlight === 0 ? grant(state, UNCOUNTED) : { kind: 'await-response' };
}

function grant(state: BucketState, reservation: Reservation): ReserveDecision {
  state.inFlight += 1;
  return { kind: 'grant', reservation };
}

/** Row 3's sleep has run for window `reset`: that window is over. */
export function markSleptPast(state: BucketState, reset: number): void {
  state.sleptPast = reset;
}

/**
 * A response was processed for a reservation (post-response rows 5–7), creating the bucket if
 * absent (Bucket record rule 1).
 */
export function settle(state: BucketState, update: V6Update): void {
  state.inFlight = Math.max(0, state.inFlight - 1);
  const previous = state.record;
  if (previous === undefined) {
    state.record = applyUpdate(initialBucket(), { ...update, remaining: minus(update.remaining, state.inFlight) });
    return;
  }
  if (update.limit !== undefined) previous.limit = update.limit;
  if (update.reset !== undefined && update.reset < previous.reset) return; // a response from an older window
  const newWindow = update.reset !== undefined && update.reset !== previous.reset;
  if (update.reset !== undefined) previous.reset = update.reset;
  if (update.remaining === undefined) return;
  // Requests in flight may or may not be counted in the service's figure: assume not.
  const fromServer = update.remaining - state.inFlight;
  if (!state.counting) {
    previous.remaining = newWindow ? fromServer : Math.min(previous.remaining, fromServer);
    return;
  }
  // Counting since a refill: the local count is exact, and the service's figure (which may
  // already include requests still in flight here) would count those twice. A response from the
  // refilled window itself says nothing of the next one; the service's figure lowers the count
  // only when it says fewer are left than the count does (someone else used the token).
  if (!newWindow && update.reset === state.openedWindow) return;
  if (update.remaining < previous.remaining) previous.remaining = fromServer;
}

/** A reservation ended without a processed response (network error, global response, abort). */
export function release(state: BucketState): void {
  state.inFlight = Math.max(0, state.inFlight - 1);
}

/** A reservation that was never sent: give its place back if its window is still current. */
export function giveBack(state: BucketState, reservation: Reservation): void {
  release(state);
  if (reservation.counted && state.record && state.record.reset === reservation.reset) state.record.remaining += 1;
}

const minus = (value: number | undefined, amount: number): number | undefined =>
  value === undefined ? undefined : value - amount;
