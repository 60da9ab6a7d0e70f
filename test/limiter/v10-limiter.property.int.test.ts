/**
 * The v10 limiter against the reference service's v10 enforcer, on each store: for any
 * interleaving of calls on routes that share a hash or not, responses in any order and after
 * any delay, aborts and clock steps, the service never answers 429 to a route after its first
 * response (per-route or global: the pace keeps under the global limit), and every call ends.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCall, type CallState } from '../../src/limiter/call.ts';
import { Limiter } from '../../src/limiter/limiter.ts';
import { v10Judge } from '../../src/dialects/v10/judge.ts';
import { classifyV10 } from '../../src/dialects/v10/route.ts';
import { V10LimitEnforcer, type V10Decision } from '../../src/testing/v10-limits.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { runs } from '../support/property-runs.ts';
import { storesUnderTest, type StoreUnderTest } from '../support/stores-under-test.ts';
import { v10ViewRequest } from '../../src/dialects/v10/index.ts';

/** Routes: two share the reaction hash on channel 1, one is on another channel, one is exempt. */
const REQUESTS = [
  ['PUT', '/channels/1/messages/2/reactions/x/@me'],
  ['DELETE', '/channels/1/messages/2/reactions/x/@me'],
  ['PUT', '/channels/2/messages/2/reactions/x/@me'],
  ['GET', '/guilds/7'],
  ['POST', '/webhooks/5/token'],
] as const;

type Step =
  | { readonly kind: 'call'; readonly request: number }
  | { readonly kind: 'respond'; readonly pick: number }
  | { readonly kind: 'abort'; readonly pick: number }
  | { readonly kind: 'advance'; readonly ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('call' as const), request: fc.nat({ max: REQUESTS.length - 1 }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('respond' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 1500 }) }) },
);

interface Call {
  readonly state: CallState;
  readonly route: string;
  readonly abort: AbortController;
  decision?: V10Decision;
  ended: boolean;
  readonly resend: () => void;
}

const stores = storesUnderTest('v10-property', 300, 100);

let runNumber = 0;

async function run(
  target: StoreUnderTest,
  steps: readonly Step[],
  limit: number,
  windowMs: number,
  globalLimit: number,
): Promise<void> {
  const turns = target.idle;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0), turns);
  const token = `Bot v10 model ${++runNumber}`;
  const service = new V10LimitEnforcer(
    { defaultLimit: { limit, windowMs }, global: { limit: globalLimit, windowMs: 1000 }, headerless: [] },
    clock,
  );
  const limiter = new Limiter({
    clock,
    store: target.store.view(
      v10ViewRequest({ globalLimit, resetMarginMs: 50, globalMarginMs: 10, invalidRequestLimit: 9000 }),
      token,
      clock,
    ),
    judge: v10Judge(1000, () => clock.now()),
    sharedBuckets: true,
  });
  const { beforeRequest, afterResponse } = limiter.hooks();
  const request = new Request('http://model.invalid/');
  const calls: Call[] = [];
  const answered = new Set<string>();
  const violations: string[] = [];

  /** Steps 1–2 of an attempt: the limiter admits the call, then the service counts it. */
  const send = (call: Call, method: string, path: string, exempt: boolean) => {
    const options = { context: call.state.context } as never;
    Promise.resolve(beforeRequest![0]!({ request, options, retryCount: 0 })).then(
      () => {
        const decision = service.count(classifyV10(method, path, clock.now()), exempt ? '' : token);
        call.decision = decision;
        const limited = decision.kind === 'global' || (decision.kind === 'counted' && decision.limited !== undefined);
        if (limited && (decision.kind === 'global' || answered.has(call.route))) {
          violations.push(`${decision.kind === 'global' ? 'global 429' : '429'} on ${call.route} at ${clock.now()}`);
        }
      },
      () => {
        call.ended = true;
      },
    );
  };
  const start = (index: number) => {
    const [method, path] = REQUESTS[index]!;
    const route = classifyV10(method, path, clock.now());
    const abort = new AbortController();
    const state = limiter.newCall(
      describeCall(
        { routeKey: route.route, bucket: route, exempt: route.exempt, webhookWithToken: route.webhookWithToken },
        method,
        { signal: abort.signal, maxWaitMs: Number.POSITIVE_INFINITY, transportRetries: 0 },
      ),
    );
    const call: Call = {
      state,
      route: route.route,
      abort,
      ended: false,
      resend: () => send(call, method, path, route.exempt),
    };
    calls.push(call);
    call.resend();
  };
  const respond = async (call: Call) => {
    const decision = call.decision!;
    answered.add(call.route);
    const options = { context: call.state.context } as never;
    let response: Response;
    if (decision.kind === 'global') {
      const seconds = decision.retryAfterMs / 1000;
      response = Response.json(
        { message: 'You are being rate limited.', retry_after: seconds, global: true },
        {
          status: 429,
          headers: {
            'x-ratelimit-global': 'true',
            'x-ratelimit-scope': 'global',
            'retry-after': String(Math.ceil(seconds)),
          },
        },
      );
    } else if (decision.kind !== 'counted') {
      throw new Error(`the model never answers ${decision.kind}`);
    } else if (decision.limited !== undefined) {
      const seconds = decision.retryAfterMs / 1000;
      response = Response.json(
        { message: 'You are being rate limited.', retry_after: seconds, global: false },
        {
          status: 429,
          headers: {
            ...decision.headers,
            'x-ratelimit-scope': decision.limited,
            'retry-after': String(Math.ceil(seconds)),
          },
        },
      );
    } else {
      response = new Response(null, { status: 200, headers: decision.headers });
    }
    call.decision = undefined;
    try {
      const verdict = await afterResponse![0]!({ request, options, response: response as never, retryCount: 0 });
      if (response.status === 200) {
        if (verdict !== undefined) violations.push(`a retry on ${call.route}`);
        call.ended = true;
        return;
      }
      // A 429: the limiter settled it and asks for the request again (ky's retry → beforeRetry).
      call.resend();
    } catch {
      call.ended = true; // the wait was refused or the client closed
    }
  };
  const sent = () => calls.filter((call) => call.decision !== undefined && !call.ended);
  const waiting = () => calls.filter((call) => call.decision === undefined && !call.ended);

  for (const action of steps) {
    if (action.kind === 'call') start(action.request);
    else if (action.kind === 'advance') await clock.advance(action.ms);
    else {
      const candidates = action.kind === 'respond' ? sent() : waiting();
      const call = candidates[action.pick % Math.max(1, candidates.length)];
      if (call && action.kind === 'respond') await respond(call);
      if (call && action.kind === 'abort') call.abort.abort(new Error('caller left'));
    }
    await turns();
  }
  for (let round = 0; round < 200 && calls.some((call) => !call.ended); round++) {
    for (const call of sent()) await respond(call);
    await clock.advance(windowMs + 1100);
  }
  expect(violations).toEqual([]);
  expect(calls.filter((call) => !call.ended).map((call) => call.state.identity.bucketKey)).toEqual([]);
  await limiter.close();
  expect(clock.pendingTimers).toBe(0);
}

describe.each(stores)('properties: the v10 limiter against the v10 service, on %s', (_, count, make) => {
  it('no 429 after a route’s first response, no global 429, and every call ends', async () => {
    const target = await make();
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 60, size: 'max' }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(250, 1000, 2500),
        fc.integer({ min: 2, max: 6 }),
        (steps, limit, windowMs, globalLimit) => run(target, steps, limit, windowMs, globalLimit),
      ),
      runs(count),
    );
  }, 180_000);
});
