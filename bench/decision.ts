/**
 * Decision cost: one limiter decision (pre-check + post-update) in memory, in ns.
 * Each task makes BATCH decisions per iteration so the timer's resolution does not dominate.
 *
 * - pure rules: reserve() + judgeResponse() over plain header values + settle();
 * - hook pair: the async shell as ky calls it (beforeRequest → afterResponse) with a Response,
 *   no HTTP: what the limiter adds to every request; and the same with OpenTelemetry on;
 * - a typed call's v10 route: from its operation's plan, and read from its path as a raw call's.
 * Runs in a process of its own (see child.ts).
 */
import { Bench } from 'tinybench';
import { CHILD_FLAG, runInChild } from './child.ts';
import { systemClock } from '../src/clock.ts';
import { V6_VIEW_REQUEST } from '../src/dialects/v6/index.ts';
import { judgeV6 } from '../src/dialects/v6/judge.ts';
import { describeCall } from '../src/limiter/call.ts';
import { Limiter } from '../src/limiter/limiter.ts';
import { Telemetry } from '../src/telemetry/telemetry.ts';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MemoryStore } from '../src/index.ts';
import { newBucketState, reserve, settle } from '../src/dialects/v6/policy.ts';
import { judgeResponse } from '../src/dialects/v6/rules.ts';
import { v10 } from '../src/dialects/v10/index.ts';

/** v10's targets without the catalog's refused token kinds (with them, a call looks its route up in one map more). */
const v10Targets = v10.targets(undefined);
import { buildPath } from '../src/paths/path.ts';
import { operations } from '../generated/index.ts';

const BATCH = 1000;
const TARGET = {
  routeKey: 'ChannelsId',
  bucket: { bucketKey: 'ChannelsId:1' },
  exempt: false,
  webhookWithToken: false,
};
/** A client's call defaults: no bound on a wait, two transport retries. */
const UNBOUNDED = { maxWaitMs: Number.POSITIVE_INFINITY, transportRetries: 2 };

export interface DecisionResult {
  readonly name: string;
  readonly nsPerDecision: number;
  readonly relativeMarginPercent: number;
  readonly samples: number;
}

async function measure(): Promise<DecisionResult[]> {
  const nowMs = Date.now();
  const reset = String(Math.floor(nowMs / 1000) + 3600);
  const values: Record<string, string> = {
    'x-ratelimit-limit': '1000000000',
    'x-ratelimit-remaining': '999999999',
    'x-ratelimit-reset': reset,
  };
  const read = (name: string) => values[name] ?? null;
  const state = newBucketState();
  state.record = { limit: 1_000_000_000, remaining: 999_999_999, reset: Number(reset) };

  const limiter = new Limiter({
    clock: systemClock,
    store: new MemoryStore().view(V6_VIEW_REQUEST, undefined, systemClock),
    judge: judgeV6,
  });
  const hooks = limiter.hooks();
  const beforeRequest = hooks.beforeRequest![0]!;
  const afterResponse = hooks.afterResponse![0]!;
  const response = new Response(null, { status: 200, headers: values });
  const request = new Request('http://bench.invalid/channels/1');

  const bench = new Bench({ name: 'limiter decision', time: 1500, warmupTime: 300 });
  bench.add('pure rules: pre-check + post-update', () => {
    for (let i = 0; i < BATCH; i++) {
      reserve(state, nowMs);
      const verdict = judgeResponse(false, 200, read);
      if (verdict.action === 'return' && verdict.update) settle(state, verdict.update);
    }
  });
  bench.add('hook pair: beforeRequest + afterResponse (async shell)', async () => {
    for (let i = 0; i < BATCH; i++) {
      const call = limiter.newCall(describeCall(TARGET, 'GET', UNBOUNDED));
      const options = { context: call.context } as never;
      await beforeRequest({ request, options, retryCount: 0 });
      await afterResponse({ request, options, response: response as never, retryCount: 0 });
    }
  });
  // The same pair with OpenTelemetry on (a call span, an attempt span, the metrics), on the SDK's
  // own providers with an in-memory reader: what telemetry adds to every request.
  const telemetry = withTelemetry();
  const traced = new Limiter({
    clock: systemClock,
    store: new MemoryStore().view(V6_VIEW_REQUEST, undefined, systemClock),
    judge: judgeV6,
    observer: telemetry,
  });
  const tracedHooks = traced.hooks();
  bench.add('hook pair with telemetry on (spans and metrics)', async () => {
    for (let i = 0; i < BATCH; i++) {
      const call = traced.newCall(describeCall(TARGET, 'GET', UNBOUNDED));
      telemetry.startCall(call);
      const options = { context: call.context } as never;
      await tracedHooks.beforeRequest![0]!({ request, options, retryCount: 0 });
      await tracedHooks.afterResponse![0]!({ request, options, response: response as never, retryCount: 0 });
      telemetry.endCall(call);
    }
  });
  // A typed call's v10 route (V4): planned once per operation, against read from its path each time.
  const operation = operations['channels.messages.list'];
  const paths = Array.from({ length: 50 }, (_, id) => buildPath(operation.path, [String(100_000 + id)]));
  bench.add('v10 route of a typed call: from its planned operation', () => {
    for (let i = 0; i < BATCH; i++) {
      const { path, values } = paths[i % paths.length]!;
      v10Targets.targetOfOperation(operation, path, values, nowMs);
    }
  });
  bench.add('v10 route of a typed call: classified from its path (a raw call)', () => {
    for (let i = 0; i < BATCH; i++) v10Targets.targetOfRequest(operation.method, paths[i % paths.length]!.path, nowMs);
  });
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result as
      { latency?: { mean: number; rme: number; samplesCount?: number; samples?: unknown[] } } | undefined;
    const latency = result?.latency;
    if (!latency) throw new Error(`benchmark ${task.name} produced no result`);
    return {
      name: task.name,
      nsPerDecision: (latency.mean * 1e6) / BATCH,
      relativeMarginPercent: latency.rme,
      samples: latency.samplesCount ?? latency.samples?.length ?? 0,
    };
  });
}

/** Telemetry on the SDK's providers: spans to a processor that drops them, metrics to a reader. */
function withTelemetry(): Telemetry {
  class Reader extends MetricReader {
    protected override async onForceFlush(): Promise<void> {}
    protected override async onShutdown(): Promise<void> {}
  }
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] });
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  return new Telemetry(
    { tracerProvider, meterProvider },
    {
      baseUrl: 'http://bench.invalid/api',
      version: '0.0.0-bench',
      clock: { now: () => Date.now() },
      events: { on: () => {} },
      invalidRequests: async () => 0,
    },
  );
}

export const runDecisionBench = (): Promise<DecisionResult[]> => runInChild<DecisionResult[]>(import.meta.url);

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measure()));
