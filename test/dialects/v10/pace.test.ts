/**
 * V13's global pace, pure (`src/dialects/v10/pace.ts`): entries counted from answers, the wait
 * hint; and the process's global gate
 * letting its callers through one at a time once the pace frees up (`src/limiter/global-gate.ts`).
 */
import { describe, expect, it } from 'vitest';
import type { CallTarget } from '../../../src/contracts/dialect.ts';
import { answerAgeMs, GlobalPace } from '../../../src/dialects/v10/pace.ts';
import { describeCall, newCallState } from '../../../src/limiter/call.ts';
import { GlobalGate } from '../../../src/limiter/global-gate.ts';
import { ManualClock } from '../../support/manual-clock.ts';

describe('V13: GlobalPace', () => {
  const WINDOW = 1000 + 10;

  it('counts an answered request from its answer, not from when the store heard of it', () => {
    const pace = new GlobalPace(2, 10);
    pace.record('a');
    pace.record('b');
    expect(pace.waitMs(0)).toBe(WINDOW); // both in flight: a window from their grants at the soonest
    pace.answered('a', 50, 20); // answered at 30, settled at 50
    pace.answered('b', 60, 20); // answered at 40
    // The place frees a window after the first answer.
    expect(pace.waitMs(60)).toBe(30 + WINDOW - 60);
    expect(pace.waitMs(30 + WINDOW - 1)).toBe(1);
    expect(pace.waitMs(30 + WINDOW)).toBe(0);
  });

  it('a request never sent gives its place back; one ended without an answer counts from then', () => {
    const pace = new GlobalPace(1, 10);
    pace.record('a');
    pace.forget('a');
    expect(pace.waitMs(0)).toBe(0);
    pace.record('b');
    pace.answered('b', 500, 0);
    expect(pace.waitMs(500)).toBe(WINDOW);
  });

  it('the wait hint: the next answer to fall out of the window, or a window from now while requests in flight hold the pace', () => {
    const pace = new GlobalPace(3, 10);
    ['a', 'b', 'c'].forEach((id) => pace.record(id));
    pace.answered('a', 100, 0);
    pace.answered('b', 300, 0);
    // Full: a's place frees first, then b's.
    expect(pace.waitMs(400)).toBe(100 + WINDOW - 400);
    pace.record('d');
    expect(pace.waitMs(400)).toBe(300 + WINDOW - 400);
    // Held by requests in flight alone: each counts from its answer, a window from now at the soonest.
    pace.record('e');
    expect(pace.waitMs(400)).toBe(WINDOW);
  });

  it('answerAgeMs: how long before now the answer came (0 when not known, never negative)', () => {
    expect(answerAgeMs(100, 70)).toBe(30);
    expect(answerAgeMs(100)).toBe(0);
    expect(answerAgeMs(100, 130)).toBe(0);
  });
});

describe('the global gate once the pace frees up', () => {
  const target: CallTarget = { routeKey: 'GET /channels/:id', bucket: null, exempt: false, webhookWithToken: false };
  const call = () => newCallState(describeCall(target, 'GET', { maxWaitMs: Infinity, transportRetries: 0 }));

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
