/**
 * The v10 bucket policy (V3, V5, V7–V9, V14), pure: state is passed in and changed in place, time
 * is an argument. The memory view applies it; the Redis store's Lua (`../../redis/v10/scripts.ts`)
 * ports it line for line. The global pace and the invalid-request log are `pace.ts`.
 *
 * The concurrency policy is v6's (`../v6/policy.ts`) on v10's clock: windows end at a
 * monotonic instant (arrival + Reset-After), not at a whole second.
 * - limits unknown: one request in flight (V5); a route without headers has no limit (V14);
 * - at most `remaining` reservations per window; at 0, sleep until the end + margin (V8);
 * - a window is refilled once, less the requests still in flight (they may count in the new one);
 * - `remaining` is the lowest seen in a window, less what is in flight, unless the limit changed
 *   (V7); an end within the tolerance of the known one is the same window (V7, §8);
 * - after a local refill the count is exact and only a lower figure from the service lowers it;
 * - a first request of a route whose hash is not known yet may count in any bucket of its
 *   resource (routes share hashes, rule V6): while it is in flight, it takes a place in every known
 *   bucket of that resource (`probesElsewhere`), and a bucket not known yet waits for it. Found
 *   by the v10 model property: a reaction PUT and DELETE probing together both counted in one
 *   hash; a route that learned its hash on one channel probed again on a channel where its
 *   first request was still in flight.
 */
import type { V10Reservation as Reservation } from './settings.ts';
import { SAME_WINDOW_TOLERANCE_MS, type V10Update } from './rules.ts';

export interface V10Record {
  limit: number;
  remaining: number;
  /**
   * Which window this is (V7): the service's `Reset` in ms, which names a window to within a few
   * ms whatever the latency; the local end when a response has no `Reset`.
   */
  window: number;
  /**
   * When the window ends, in ms on the store's clock: arrival + Reset-After (V3), the earliest
   * such estimate of the window (each is late by its response's latency, never early).
   */
  windowEnd: number;
}

export interface V10BucketState {
  record: V10Record | undefined;
  inFlight: number;
  /** The window refilled locally (its `window`), so it is refilled once. */
  openedWindow: number | undefined;
  /** `remaining` is an exact count since the last local refill. */
  counting: boolean;
  /** V9: the key is held until then (a user-scope 429 at Remaining 0). */
  holdUntil: number;
}

export const newV10BucketState = (): V10BucketState => ({
  record: undefined,
  inFlight: 0,
  openedWindow: undefined,
  counting: false,
  holdUntil: 0,
});

export type V10ReserveDecision =
  | { readonly kind: 'grant'; readonly reservation: Reservation }
  | { readonly kind: 'sleep'; readonly ms: number; readonly reset: number }
  | { readonly kind: 'await-response' };

const UNCOUNTED: Reservation = { counted: false, reset: 0 };
const FIRST_CONTACT: Reservation = { counted: false, reset: 0, firstContact: true };

/**
 * Tries to take a reservation at `now`; `resetMarginMs` is V8's margin after a window's end;
 * `probesElsewhere`: first requests of not-yet-hashed routes of the same resource in flight.
 */
export function reserveV10(
  state: V10BucketState,
  now: number,
  resetMarginMs: number,
  probesElsewhere = 0,
): V10ReserveDecision {
  const record = state.record;
  // V9: a held key waits out its retry_after.
  if (state.holdUntil > now) return { kind: 'sleep', ms: state.holdUntil - now, reset: record?.windowEnd ?? 0 };
  // V5: limits unknown, one request in flight; and one first contact per resource at a time, as
  // the bucket may be the one another route's first request is about to name.
  if (record === undefined) return probesElsewhere === 0 ? probe(state) : { kind: 'await-response' };
  // V14: a route that answered without headers has no per-route limit.
  if (record.limit === 0) return grant(state, UNCOUNTED);

  const windowOver = now >= record.windowEnd + resetMarginMs;
  if (windowOver && state.openedWindow !== record.window) {
    record.remaining = Math.max(0, record.limit - state.inFlight);
    state.openedWindow = record.window;
    state.counting = true;
  }
  if (record.remaining - probesElsewhere > 0) {
    record.remaining -= 1;
    return grant(state, { counted: true, reset: record.window });
  }
  // A place held by another route's first request frees up when its response names its hash.
  if (record.remaining > 0) return { kind: 'await-response' };
  if (windowOver) {
    const decision = probe(state);
    if (decision.kind === 'grant') state.counting = false;
    return decision;
  }
  // V8: hold the key until the window ends plus the margin.
  return { kind: 'sleep', ms: record.windowEnd + resetMarginMs - now, reset: record.windowEnd };
}

function probe(state: V10BucketState): V10ReserveDecision {
  if (state.inFlight > 0) return { kind: 'await-response' };
  // A route's first request: its bucket (and so its hash) is not known yet.
  return grant(state, state.record === undefined ? FIRST_CONTACT : UNCOUNTED);
}

function grant(state: V10BucketState, reservation: Reservation): V10ReserveDecision {
  state.inFlight += 1;
  return { kind: 'grant', reservation };
}

/** V7: a response for a reservation of this bucket, processed at `now`. */
export function settleV10(state: V10BucketState, update: V10Update, now: number): void {
  state.inFlight = Math.max(0, state.inFlight - 1);
  if (update.holdBucketMs !== undefined) state.holdUntil = Math.max(state.holdUntil, now + update.holdBucketMs);
  const end = update.windowLeftMs === undefined ? undefined : now + update.windowLeftMs;
  const window = update.resetMs ?? end;
  const record = state.record;
  if (record === undefined) {
    // A 429 without bucket headers: the bucket stays unknown (one request in flight, V5).
    if (update.limitsUnknown) return;
    const reported = update.remaining ?? update.limit ?? 0;
    state.record = {
      limit: update.limit ?? 0,
      remaining: reported - state.inFlight,
      window: window ?? now,
      windowEnd: end ?? now,
    };
    return;
  }
  const limitChanged = update.limit !== undefined && update.limit !== record.limit;
  if (update.limit !== undefined) record.limit = update.limit;
  // A response from an older window does not move the window back.
  if (window !== undefined && window < record.window - SAME_WINDOW_TOLERANCE_MS) return;
  const newWindow = window !== undefined && window > record.window + SAME_WINDOW_TOLERANCE_MS;
  if (newWindow) {
    record.window = window;
    record.windowEnd = end!;
  } else if (end !== undefined) {
    record.windowEnd = Math.min(record.windowEnd, end);
  }
  if (update.remaining === undefined) return;
  // Requests in flight may or may not be counted in the service's figure: assume not.
  const fromServer = update.remaining - state.inFlight;
  if (!state.counting || limitChanged) {
    record.remaining = newWindow || limitChanged ? fromServer : Math.min(record.remaining, fromServer);
    return;
  }
  // Counting since a refill: a response from the refilled window says nothing of the next one;
  // a lower figure than the count means someone else used the token.
  const fromRefilledWindow =
    !newWindow &&
    window !== undefined &&
    state.openedWindow !== undefined &&
    Math.abs(window - state.openedWindow) <= SAME_WINDOW_TOLERANCE_MS;
  if (fromRefilledWindow) return;
  if (update.remaining < record.remaining) record.remaining = fromServer;
}

/** A reservation ended without a processed response. */
export function releaseV10(state: V10BucketState): void {
  state.inFlight = Math.max(0, state.inFlight - 1);
}

/** A reservation never sent: its place comes back if its window is still the current one. */
export function giveBackV10(state: V10BucketState, reservation: Reservation): void {
  releaseV10(state);
  if (reservation.counted && state.record && state.record.window === reservation.reset) state.record.remaining += 1;
}

/** Nothing needs the bucket any more: nothing in flight, no hold, and its window (plus margin) is over. */
export function isIdleV10(state: V10BucketState, now: number, resetMarginMs: number): boolean {
  return (
    state.inFlight === 0 &&
    state.holdUntil <= now &&
    (state.record === undefined || now >= state.record.windowEnd + resetMarginMs)
  );
}
