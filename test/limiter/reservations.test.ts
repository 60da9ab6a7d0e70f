import { describe, expect, it } from 'vitest';
import {
  giveBack,
  markSleptPast,
  newBucketState,
  release,
  reserve,
  settle,
  type BucketState,
} from '../../src/limiter/reservations.ts';

const T = 1_700_000_000; // whole seconds
const at = (seconds: number, ms = 0) => seconds * 1000 + ms;

function known(limit: number, remaining: number, reset: number): BucketState {
  return { ...newBucketState(), record: { limit, remaining, reset } };
}

describe('reservation policy (concurrency beyond the spec table)', () => {
  it('limits unknown: one request in flight, the rest wait for its headers', () => {
    const state = newBucketState();
    expect(reserve(state, at(T)).kind).toBe('grant');
    expect(reserve(state, at(T)).kind).toBe('await-response');
    settle(state, { limit: 5, remaining: 4, reset: T + 1 });
    expect(state.record).toEqual({ limit: 5, remaining: 4, reset: T + 1 });
    expect(reserve(state, at(T)).kind).toBe('grant');
  });

  it('a failed probe (no response) lets the next one go', () => {
    const state = newBucketState();
    reserve(state, at(T));
    release(state);
    expect(reserve(state, at(T)).kind).toBe('grant');
  });

  it('at most `remaining` reservations in a window, then row 3 sleeps to reset + 500 ms', () => {
    const state = known(3, 3, T);
    for (let i = 0; i < 3; i++) expect(reserve(state, at(T, 100)).kind).toBe('grant');
    expect(reserve(state, at(T, 100))).toEqual({ kind: 'sleep', ms: 500, reset: T });
    expect(state.record!.remaining).toBe(0);
  });

  it('after the row-3 sleep the window is over: refilled once, not once per caller', () => {
    const state = known(2, 0, T);
    markSleptPast(state, T);
    expect(reserve(state, at(T, 600)).kind).toBe('grant');
    expect(reserve(state, at(T, 600)).kind).toBe('grant');
    // Literal row 2 would refill again for every caller; the policy waits for new headers.
    expect(reserve(state, at(T, 600)).kind).toBe('await-response');
  });

  it('a refill leaves out requests still in flight: sent at the boundary, they may count in the new window', () => {
    // Found by the model property: limit 2, one request sent as the window ended is counted by
    // the service in the next window; refilling to 2 would let three into that window.
    const state = known(2, 1, T);
    expect(reserve(state, at(T, 999)).kind).toBe('grant'); // still window T by the spec's rows
    markSleptPast(state, T);
    expect(reserve(state, at(T, 999)).kind).toBe('grant'); // refilled to 2 − 1 in flight
    expect(reserve(state, at(T, 999)).kind).toBe('await-response');
  });

  it('after a refill the local count is exact: in-flight requests the service already counted are not subtracted twice', () => {
    // Traced in the 4-process benchmark: three requests sent after a refill; the service answers
    // the second one first ("2 left" — it counted all three); the other two are still in flight.
    const state = known(5, 0, T);
    markSleptPast(state, T);
    for (let i = 0; i < 3; i++) expect(reserve(state, at(T, 600)).kind).toBe('grant');
    settle(state, { limit: 5, remaining: 2, reset: T + 3 });
    expect(state.record).toEqual({ limit: 5, remaining: 2, reset: T + 3 }); // not 2 − 2 in flight
    settle(state, { limit: 5, remaining: 4, reset: T + 3 });
    settle(state, { limit: 5, remaining: 3, reset: T + 3 });
    expect(state.record!.remaining).toBe(2);
  });

  it('after a refill, a response from the refilled window says nothing of the next; a figure below the count lowers it', () => {
    const state = known(5, 0, T);
    reserve(state, at(T)); // row 3 sleep (remaining 0): nothing granted
    markSleptPast(state, T);
    expect(reserve(state, at(T, 600)).kind).toBe('grant');
    expect(reserve(state, at(T, 600)).kind).toBe('grant');
    settle(state, { limit: 5, remaining: 0, reset: T }); // counted in the old window
    expect(state.record!.remaining).toBe(3);
    // The service says 1 left where the count says 3: someone else used the token.
    settle(state, { limit: 5, remaining: 1, reset: T + 3 });
    expect(state.record!.remaining).toBe(1);
  });

  it('row 2 (now > reset) refills once per reset value', () => {
    const state = known(2, 0, T);
    expect(reserve(state, at(T + 1)).kind).toBe('grant');
    expect(reserve(state, at(T + 1)).kind).toBe('grant');
    expect(reserve(state, at(T + 2)).kind).toBe('await-response');
  });

  it('a used-up window with nothing in flight lets one probe through', () => {
    const state = known(1, 0, T);
    expect(reserve(state, at(T + 1)).kind).toBe('grant');
    release(state);
    expect(reserve(state, at(T + 1)).kind).toBe('grant');
    expect(reserve(state, at(T + 1)).kind).toBe('await-response');
  });

  it('limit 0: row 1, every request proceeds', () => {
    const state = known(0, 0, 0);
    for (let i = 0; i < 10; i++) expect(reserve(state, at(T)).kind).toBe('grant');
  });

  it('a response counts the other reservations still in flight', () => {
    const state = known(5, 5, T + 1);
    for (let i = 0; i < 5; i++) reserve(state, at(T));
    settle(state, { limit: 5, remaining: 4, reset: T + 1 }); // the first of five, answered first
    expect(state.record!.remaining).toBe(0);
  });

  it('a late response of the same window cannot raise remaining', () => {
    const state = known(5, 1, T + 1);
    reserve(state, at(T));
    settle(state, { remaining: 3, reset: T + 1 });
    expect(state.record!.remaining).toBe(0);
  });

  it('a response from an older window does not move the window back', () => {
    const state = known(5, 2, T + 5);
    reserve(state, at(T));
    settle(state, { limit: 6, remaining: 4, reset: T + 1 });
    expect(state.record).toEqual({ limit: 6, remaining: 1, reset: T + 5 });
  });

  it('a new window takes the server remaining, less what is in flight', () => {
    const state = known(5, 0, T);
    markSleptPast(state, T);
    for (let i = 0; i < 3; i++) reserve(state, at(T, 600));
    settle(state, { limit: 5, remaining: 4, reset: T + 2 });
    expect(state.record).toEqual({ limit: 5, remaining: 2, reset: T + 2 });
  });

  it('giving back an unsent reservation restores its place in the same window only', () => {
    const state = known(5, 5, T + 1);
    const decision = reserve(state, at(T));
    if (decision.kind !== 'grant') throw new Error('expected a grant');
    giveBack(state, decision.reservation);
    expect(state.record!.remaining).toBe(5);
    expect(state.inFlight).toBe(0);

    const second = reserve(state, at(T));
    if (second.kind !== 'grant') throw new Error('expected a grant');
    state.record!.reset = T + 9; // the window moved on meanwhile
    giveBack(state, second.reservation);
    expect(state.record!.remaining).toBe(4);
  });

  it('sequential use matches the spec table: L, then L−1, L−2 … and the reset refill', () => {
    const state = newBucketState();
    reserve(state, at(T));
    settle(state, { limit: 3, remaining: 2, reset: T + 1 });
    reserve(state, at(T));
    expect(state.record!.remaining).toBe(1); // row 4
    settle(state, { remaining: 1, reset: T + 1 });
    reserve(state, at(T + 2)); // row 2, then this request's reservation
    expect(state.record!.remaining).toBe(2);
  });
});
