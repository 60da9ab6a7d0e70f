/**
 * V13's global pace, pure (`src/dialects/v10/pace.ts`): the arrival credit learned from round
 * trips, entries counted from estimated arrivals, the wait hint; and the process's global gate
 * letting its callers through one at a time once the pace frees up (`src/limiter/global-gate.ts`).
 */
import { describe, expect, it } from 'vitest';
import type { CallTarget } from '../../src/contracts/dialect.ts';
import {
  ANSWER_RUN_GAP_MS,
  GlobalPace,
  nthPlaceFree,
  ROUND_TRIP_HORIZON_MS,
  RoundTripFloor,
} from '../../src/dialects/v10/pace.ts';
import { newCallState } from '../../src/limiter/call.ts';
import { GlobalGate } from '../../src/limiter/global-gate.ts';
import { ManualClock } from '../support/manual-clock.ts';

describe('V13: RoundTripFloor, the arrival credit', () => {
  it('gives no credit while only the run’s first (cold) requests were answered', () => {
    const floor = new RoundTripFloor();
    // A burst granted at 0 on new connections, answered 30–60 ms later.
    for (const answeredAt of [30, 45, 60]) expect(floor.backdateMs(answeredAt, 0, answeredAt)).toBe(0);
    expect(floor.creditMs(61)).toBe(0);
  });

  it('once a request granted after an answer of the run is answered, credits half the least round trip', () => {
    const floor = new RoundTripFloor();
    floor.backdateMs(90, 0, 90); // cold: 90 ms
    // Granted at 100 (after the first answer), answered at 150: 50 ms, warm. It counts from 25 ms before its answer.
    expect(floor.backdateMs(150, 100, 150)).toBe(25);
    expect(floor.creditMs(151)).toBe(25);
    // A quicker one lowers the floor; a slower one leaves it.
    floor.backdateMs(200, 160, 200); // 40 ms
    floor.backdateMs(300, 220, 300); // 80 ms
    expect(floor.creditMs(301)).toBe(20);
  });

  it('never backdates an answer by more than half its own round trip, and counts the answer’s age', () => {
    const floor = new RoundTripFloor();
    floor.backdateMs(100, 0, 100);
    floor.backdateMs(150, 110, 150); // 40 ms: credit 20
    // A 10 ms round trip: its own half, 5 ms. Settled 7 ms after the answer arrived: 7 + 5.
    expect(floor.backdateMs(207, 190, 200)).toBe(12);
  });

  it(`forgets the floor ${ROUND_TRIP_HORIZON_MS} ms after the last warm answer`, () => {
    const floor = new RoundTripFloor();
    floor.backdateMs(100, 0, 100);
    floor.backdateMs(150, 110, 150);
    expect(floor.creditMs(150 + ROUND_TRIP_HORIZON_MS - 1)).toBe(20);
    expect(floor.creditMs(150 + ROUND_TRIP_HORIZON_MS)).toBe(0);
  });

  it(`a pause of over ${ANSWER_RUN_GAP_MS} ms between answers starts a new run: its first requests are cold again`, () => {
    const floor = new RoundTripFloor();
    floor.backdateMs(100, 0, 100);
    floor.backdateMs(150, 110, 150); // warm 40 ms
    const later = 150 + ROUND_TRIP_HORIZON_MS + 1; // the floor is forgotten, and the run is over
    // Granted before the new run's first answer: cold, so no credit is learned from it.
    expect(floor.backdateMs(later + 30, later, later + 30)).toBe(0);
    expect(floor.creditMs(later + 31)).toBe(0);
  });
});

describe('V13: GlobalPace', () => {
  const WINDOW = 1000 + 10;

  it('counts an answered request from its entry, and checks a new one from its own credit on', () => {
    const pace = new GlobalPace(2, 10);
    pace.record('a', 0);
    pace.record('b', 0);
    expect(pace.waitMs(0, 0)).toBe(WINDOW); // both in flight, no credit: a window
    pace.answered('a', 50, 20); // entry 30
    pace.answered('b', 60, 20); // entry 40
    // Without credit, the place frees a window after the first entry.
    expect(pace.waitMs(60, 0)).toBe(30 + WINDOW - 60);
    // With 20 ms of credit, 20 ms sooner.
    expect(pace.waitMs(60, 20)).toBe(30 + WINDOW - 60 - 20);
    expect(pace.waitMs(30 + WINDOW - 20, 20)).toBe(0);
  });

  it('a request never sent gives its place back; one ended without an answer counts from then', () => {
    const pace = new GlobalPace(1, 10);
    pace.record('a', 0);
    pace.forget('a');
    expect(pace.waitMs(0, 0)).toBe(0);
    pace.record('b', 0);
    pace.answered('b', 500, 0);
    expect(pace.waitMs(500, 0)).toBe(WINDOW);
  });

  it('nthPlaceFree: entries as they are; requests in flight from their grant, and no earlier than now less the credit', () => {
    expect(nthPlaceFree(0, [300, 100], [], 1000, 20)).toBe(100);
    expect(nthPlaceFree(1, [300, 100], [], 1000, 20)).toBe(300);
    // In flight since 990 and 500, now 1000, credit 20: they count from 990 and 980 at the earliest.
    expect(nthPlaceFree(0, [1200], [990, 500], 1000, 20)).toBe(980);
    expect(nthPlaceFree(2, [1200], [990, 500], 1000, 20)).toBe(1200);
  });
});

describe('the global gate once the pace frees up', () => {
  const target: CallTarget = { routeKey: 'GET /channels/:id', bucket: null, exempt: false, webhookWithToken: false };
  const call = () => newCallState(target, 'GET', undefined, { maxWaitMs: Infinity, transportRetries: 0 });

  it('lets its callers through one at a time, each once the store answered the one before', async () => {
    const clock = new ManualClock(0);
    const gate = new GlobalGate(clock, () => {});
    gate.hold(100, true);
    const calls = [call(), call(), call()];
    const through: number[] = [];
    calls.forEach((waiting, index) => {
      expect(gate.shuts(waiting)).toBe(true);
      void gate.wait(waiting).then(() => through.push(index));
    });
    await clock.advance(100);
    expect(through).toEqual([0]);
    // Another caller arriving now waits too, behind the one going through.
    const late = call();
    expect(gate.shuts(late)).toBe(true);
    expect(gate.shuts(calls[0]!)).toBe(false);
    gate.passed(calls[0]!);
    await clock.advance(0);
    expect(through).toEqual([0, 1]);
    // The store answered the pace spent again: the rest wait for it to free up.
    gate.hold(50, true);
    gate.passed(calls[1]!);
    await clock.advance(0);
    expect(through).toEqual([0, 1]);
    await clock.advance(50);
    expect(through).toEqual([0, 1, 2]);
    gate.passed(calls[2]!);
    expect(gate.shuts(late)).toBe(false);
  });
});
