/**
 * OpenTelemetry, tested with the SDK's own in-memory exporters (no mock of the API): a span per
 * call with an event per wait, a client span per attempt with the stable HTTP client attributes,
 * and the metrics, whose attributes are templates, scopes and reasons, never ids.
 */
import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, createRelay, TollgateArgumentError, type ClientOptions } from '../../src/index.ts';
import { driveUntilSettled, ManualClock, settle } from '../support/manual-clock.ts';
import { SPENT_BUCKET_429 } from '../support/headers.ts';

const CHANNEL = '81384788765712384';
const BASE = 'http://127.0.0.1:9/api/v10';
/** Collects on demand. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

function setup(answers: { status: number; headers?: Record<string, string> }[], options: Partial<ClientOptions> = {}) {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const clock = new ManualClock();
  const client = createClient({
    baseUrl: BASE,
    token: 'Bot telemetry',
    clock,
    telemetry: { tracerProvider, meterProvider },
    fetch: async () => {
      clock.set(clock.now() + 40);
      const answer = answers.shift() ?? { status: 200 };
      return new Response('{}', {
        status: answer.status,
        headers: { 'content-type': 'application/json', via: '1.1 google', ...answer.headers },
      });
    },
    ...options,
  });
  const collect = async () => (await reader.collect()).resourceMetrics;
  return { client, clock, spans, collect };
}

/** A metric's data points by name: [attributes, value] (histograms: their count and sum). */
function points(resourceMetrics: ResourceMetrics, name: string): [Record<string, unknown>, unknown][] {
  const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  if (!metric) return [];
  return metric.dataPoints.map((point) => [
    point.attributes,
    typeof point.value === 'object'
      ? { count: (point.value as { count: number }).count, sum: (point.value as { sum: number }).sum }
      : point.value,
  ]);
}

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('spans', () => {
  it('a call span with an event per wait, and a client span per attempt with the HTTP client attributes', async () => {
    const { client, clock, spans } = setup([{ status: 429, headers: SPENT_BUCKET_429 }]);
    const call = client.channels.get(CHANNEL);
    await driveUntilSettled(clock, [call]);
    await call;
    const finished = spans.getFinishedSpans();
    const callSpan = finished.find((span) => span.kind === 0)!; // INTERNAL
    const attempts = finished.filter((span) => span.kind === 2); // CLIENT
    expect(callSpan.name).toBe('GET /channels/{id}');
    expect(callSpan.events.map((event) => [event.name, event.attributes])).toEqual([
      ['wait', { 'tollgate.wait.reason': 'bucket', 'tollgate.wait.ms': 2000 }],
    ]);
    expect(attempts.map((span) => span.attributes)).toEqual([
      {
        'http.request.method': 'GET',
        'url.template': '/channels/{id}',
        'server.address': '127.0.0.1',
        'server.port': 9,
        'http.response.status_code': 429,
        'error.type': '429',
      },
      {
        'http.request.method': 'GET',
        'url.template': '/channels/{id}',
        'server.address': '127.0.0.1',
        'server.port': 9,
        'http.request.resend_count': 1,
        'http.response.status_code': 200,
      },
    ]);
    for (const attempt of attempts) expect(attempt.parentSpanContext?.spanId).toBe(callSpan.spanContext().spanId);
    expect(JSON.stringify(finished.map((span) => [span.name, span.attributes, span.events]))).not.toContain(CHANNEL);
    await client.close();
  });

  it('a call that fails on the network: its span says so, by error type', async () => {
    const { client, spans } = setup([], {
      transportRetries: 0,
      fetch: async () => {
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      },
    });
    await expect(client.channels.get(CHANNEL)).rejects.toMatchObject({ name: 'NetworkError' });
    const [attempt, callSpan] = spans.getFinishedSpans();
    expect(attempt!.attributes['error.type']).toBe('NetworkError');
    expect(callSpan!.attributes['error.type']).toBe('NetworkError');
    expect(callSpan!.status.code).toBe(2); // ERROR
    await client.close();
  });
});

describe('a relay', () => {
  it('a span per relayed request with its wait and its one attempt; a bad telemetry option is refused', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const clock = new ManualClock();
    let answered = 0;
    let firstAnsweredAt = 0;
    const relay = createRelay({
      apiRoot: 'http://127.0.0.1:9/api',
      clock,
      telemetry: { tracerProvider },
      fetch: async () => {
        clock.set(clock.now() + 40);
        if (answered === 0) firstAnsweredAt = clock.now();
        // The first answer spends the bucket for 2 s: the second request waits for it.
        const headers = answered++ === 0 ? SPENT_BUCKET_429 : {};
        return new Response('{}', { status: answered === 1 ? 429 : 200, headers: { via: '1.1 google', ...headers } });
      },
    });
    const url = `http://127.0.0.1:9/api/v10/channels/${CHANNEL}`;
    const first = relay(url, { headers: { authorization: 'Bot relayed' } });
    await driveUntilSettled(clock, [first]);
    expect((await first).status).toBe(429); // a relayed call hands the 429 back
    const secondAskedAt = clock.now();
    const second = relay(url, { headers: { authorization: 'Bot relayed' } });
    await driveUntilSettled(clock, [second]);
    expect((await second).status).toBe(200);
    const finished = spans.getFinishedSpans();
    const calls = finished.filter((span) => span.kind === 0); // INTERNAL
    const attempts = finished.filter((span) => span.kind === 2); // CLIENT
    expect(calls.map((span) => span.name)).toEqual(['GET /channels/{id}', 'GET /channels/{id}']);
    // The rest of the 429's 2 s, from when the second request came.
    expect(calls[1]!.events.map((event) => [event.name, event.attributes])).toEqual([
      ['wait', { 'tollgate.wait.reason': 'bucket', 'tollgate.wait.ms': firstAnsweredAt + 2000 - secondAskedAt }],
    ]);
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual([429, 200]);
    expect(JSON.stringify(finished.map((span) => [span.name, span.attributes, span.events]))).not.toMatch(
      new RegExp(`${CHANNEL}|relayed`),
    );
    await relay.close();
    expect(() => createRelay({ telemetry: 'yes' as never })).toThrow(/telemetry must be true, false/);
  });
});

describe('metrics', () => {
  it('request durations, waits, 429s by scope, calls waiting and the invalid-request count', async () => {
    const { client, clock, collect } = setup([{ status: 429, headers: SPENT_BUCKET_429 }]);
    const call = client.channels.get(CHANNEL);
    await driveUntilSettled(clock, [call]);
    await call;
    const collected = await collect();
    expect(points(collected, 'http.client.request.duration')).toEqual([
      [
        {
          'http.request.method': 'GET',
          'url.template': '/channels/{id}',
          'server.address': '127.0.0.1',
          'http.response.status_code': 429,
          'error.type': '429',
        },
        { count: 1, sum: 0.04 },
      ],
      [
        {
          'http.request.method': 'GET',
          'url.template': '/channels/{id}',
          'server.address': '127.0.0.1',
          'http.response.status_code': 200,
        },
        { count: 1, sum: 0.04 },
      ],
    ]);
    expect(points(collected, 'tollgate.wait.duration')).toEqual([
      [
        { 'tollgate.wait.reason': 'bucket', 'url.template': '/channels/{id}' },
        { count: 1, sum: 2 },
      ],
    ]);
    expect(points(collected, 'tollgate.rate_limited')).toEqual([
      [{ 'tollgate.rate_limit.scope': 'user', 'url.template': '/channels/{id}' }, 1],
    ]);
    expect(points(collected, 'tollgate.queue.depth')).toEqual([[{ 'url.template': '/channels/{id}' }, 0]]);
    expect(points(collected, 'tollgate.invalid_requests')).toEqual([[{}, 1]]);
    await client.close();
  });

  it('calls waiting show in the queue depth while they wait', async () => {
    const { client, clock, collect } = setup([{ status: 429, headers: SPENT_BUCKET_429 }]);
    const calls = [client.channels.get(CHANNEL), client.channels.get(CHANNEL)];
    for (let turn = 0; turn < 5; turn++) await settle();
    expect(points(await collect(), 'tollgate.queue.depth')).toEqual([[{ 'url.template': '/channels/{id}' }, 2]]);
    await driveUntilSettled(clock, [Promise.all(calls)]);
    expect(points(await collect(), 'tollgate.queue.depth')).toEqual([[{ 'url.template': '/channels/{id}' }, 0]]);
    await client.close();
  });
});

describe('turning it on', () => {
  it('telemetry: true uses the global providers', async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const client = createClient({
      baseUrl: BASE,
      telemetry: true,
      fetch: async () => new Response('{}', { headers: { 'content-type': 'application/json' } }),
    });
    await client.gateway.get();
    expect(spans.getFinishedSpans().map((span) => span.name)).toEqual(['GET /gateway', 'GET /gateway']);
    await client.close();
  });

  it('closed, a client or relay is no longer read by the meter (its gauge callback goes)', async () => {
    /** A meter provider that keeps the gauge callbacks registered now. */
    const registered = new Set<unknown>();
    const provider = new MeterProvider({ readers: [new TestReader()] });
    const meterProvider = {
      getMeter: (name: string, version?: string) => {
        const meter = provider.getMeter(name, version);
        return Object.assign(Object.create(meter) as typeof meter, {
          createObservableGauge: (...args: Parameters<typeof meter.createObservableGauge>) => {
            const gauge = meter.createObservableGauge(...args);
            return Object.assign(Object.create(gauge) as typeof gauge, {
              addCallback: (callback: Parameters<typeof gauge.addCallback>[0]) => {
                registered.add(callback);
                gauge.addCallback(callback);
              },
              removeCallback: (callback: Parameters<typeof gauge.removeCallback>[0]) => {
                registered.delete(callback);
                gauge.removeCallback(callback);
              },
            });
          },
        });
      },
    };
    const client = createClient({ baseUrl: BASE, telemetry: { meterProvider } });
    const relay = createRelay({ apiRoot: 'http://127.0.0.1:9/api', telemetry: { meterProvider } });
    expect(registered.size).toBe(2);
    await client.close();
    expect(registered.size).toBe(1);
    await relay.close();
    expect(registered.size).toBe(0);
  });

  it('a bad telemetry option is refused', () => {
    expect(() => createClient({ telemetry: { tracer: {} } as never })).toThrow(TollgateArgumentError);
    expect(() => createClient({ telemetry: { tracerProvider: {} } as never })).toThrow(/telemetry must be true, false/);
  });

  it('off by default: no span, no meter', async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const client = createClient({
      baseUrl: BASE,
      fetch: async () => new Response('{}', { headers: { 'content-type': 'application/json' } }),
    });
    await client.gateway.get();
    expect(spans.getFinishedSpans()).toEqual([]);
    await client.close();
  });
});
