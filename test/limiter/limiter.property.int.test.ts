/**
 * The limiter against a model of the service: for any interleaving of calls, responses (in any
 * order, after any delay), aborts and clock steps, the service never sees more requests in a
 * window than the bucket allows, and every call ends (no deadlock, no waiter left behind).
 * The limiter runs as ky calls it (the hook pair) on each store, with a manual clock (the Redis
 * store takes the client's clock here).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCall, type CallState } from '../../src/limiter/call.ts';
import { judgeV6 } from '../../src/dialects/v6/judge.ts';
import { Limiter } from '../../src/limiter/limiter.ts';
import { LimitEnforcer, type LimitDecision } from '../../src/testing/limits.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { runs } from '../support/property-runs.ts';
import { storesUnderTest, type StoreUnderTest } from '../support/stores-under-test.ts';
import { V6_VIEW_REQUEST } from '../../src/dialects/v6/index.ts';

type Step =
  | { readonly kind: 'call'; readonly bucket: number }
  | { readonly kind: 'respond'; readonly pick: number }
  | { readonly kind: 'abort'; readonly pick: number }
  | { readonly kind: 'advance'; readonly ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('call' as const), bucket: fc.nat({ max: 2 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('respond' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2500 }) }) },
);

interface Call {
  readonly state: CallState;
  readonly abort: AbortController;
  /** Set when the limiter let it go: the service counted it then. */
  decision?: LimitDecision;
  ended: boolean;
}

const stores = storesUnderTest('property', 500, 150);

let runNumber = 0;

async function run(
  target: StoreUnderTest,
  steps: readonly Step[],
  limit: number,
  windowMs: number,
  startOffsetMs: number,
): Promise<void> {
  const turns = target.idle;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0) + startOffsetMs, turns);
  const service = new LimitEnforcer(
    { defaultLimit: { limit, windowMs }, global: { limit: 1_000_000, windowMs: 1000 } },
    clock,
  );
  const limiter = new Limiter({
    clock,
    // A token of each run's own: runs on a shared store never see each other's buckets.
    store: target.store.view(V6_VIEW_REQUEST, `Bot model ${++runNumber}`, clock),
    judge: judgeV6,
  });
  const { beforeRequest, afterResponse } = limiter.hooks();
  const request = new Request('http://model.invalid/');
  const calls: Call[] = [];
  const violations: string[] = [];

  const start = (bucket: number) => {
    const abort = new AbortController();
    const state = limiter.newCall(
      describeCall(
        {
          routeKey: 'ChannelsId',
          bucket: { bucketKey: `ChannelsId:${bucket}` },
          exempt: false,
          webhookWithToken: false,
        },
        'GET',
        { signal: abort.signal, maxWaitMs: Number.POSITIVE_INFINITY, transportRetries: 0 },
      ),
    );
    const call: Call = { state, abort, ended: false };
    calls.push(call);
    const options = { context: state.context } as never;
    Promise.resolve(beforeRequest![0]!({ request, options, retryCount: 0 })).then(
      () => {
        call.decision = service.count(state.identity.bucketKey, 'Bot model');
        if (!call.decision.global && call.decision.limited)
          violations.push(`over the limit on ${state.identity.bucketKey} at ${clock.now()}`);
      },
      () => {
        call.ended = true; // aborted while waiting
      },
    );
  };
  const respond = async (call: Call) => {
    const decision = call.decision!;
    if (decision.global) throw new Error('the model never binds the global limit');
    if (decision.limited) {
      call.ended = true; // already a violation; its retry-after wait would need the clock
      return;
    }
    const response = new Response(null, { status: 200, headers: decision.headers });
    const options = { context: call.state.context } as never;
    const verdict = await afterResponse![0]!({ request, options, response: response as never, retryCount: 0 });
    if (verdict !== undefined) violations.push(`a retry on ${call.state.identity.bucketKey}`);
    call.ended = true;
  };
  const sent = () => calls.filter((call) => call.decision !== undefined && !call.ended);
  const waiting = () => calls.filter((call) => call.decision === undefined && !call.ended);

  for (const action of steps) {
    if (action.kind === 'call') start(action.bucket);
    else if (action.kind === 'advance') await clock.advance(action.ms);
    else {
      const candidates = action.kind === 'respond' ? sent() : waiting();
      const call = candidates[action.pick % Math.max(1, candidates.length)];
      if (call && action.kind === 'respond') await respond(call);
      if (call && action.kind === 'abort') call.abort.abort(new Error('caller left'));
    }
    await turns();
  }
  // Drain: answer whatever was sent, let time pass; every call must end (bounded).
  for (let round = 0; round < 200 && calls.some((call) => !call.ended); round++) {
    for (const call of sent()) await respond(call);
    await clock.advance(windowMs + 1000);
  }
  expect(violations).toEqual([]);
  expect(calls.filter((call) => !call.ended).map((call) => call.state.identity.bucketKey)).toEqual([]);
  await limiter.close();
  expect(clock.pendingTimers).toBe(0);
}

describe.each(stores)('properties: the limiter against a model of the service, on %s', (_, count, make) => {
  it('never more than a bucket allows per window, and every call ends', async () => {
    const target = await make();
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 60, size: 'max' }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(500, 1000, 1500, 3000),
        fc.integer({ min: 0, max: 999 }),
        (steps, limit, windowMs, startOffsetMs) => run(target, steps, limit, windowMs, startOffsetMs),
      ),
      runs(count),
    );
  }, 120_000);
});
