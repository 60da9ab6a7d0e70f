/**
 * OpenTelemetry for REST, which no peer has: a span per call with an event per wait, a client
 * span per attempt with the stable HTTP client attributes, and metrics for request durations,
 * waits, 429s by scope, calls waiting and the invalid-request count. Attributes are route
 * templates, methods, statuses, scopes and reasons: never an id or a token, so their cardinality
 * stays bounded. `@opentelemetry/api` is an optional peer dependency, loaded only when telemetry
 * is asked for.
 */
import type * as Api from '@opentelemetry/api';
import type { WaitReason } from '../errors.ts';
import { TollgateArgumentError } from '../errors.ts';
import type { CallState } from '../limiter/call.ts';
import type { RateLimitedEvent } from '../limiter/events.ts';
import type { CallObserver } from '../limiter/observer.ts';

/** `createClient({ telemetry })`: providers of your own (either may be left out), or `true` for the global ones. */
export type TelemetryOption =
  | boolean
  | {
      /** An OpenTelemetry `TracerProvider` (spans); the global one when left out. */
      readonly tracerProvider?: { getTracer(name: string, version?: string): unknown };
      /** An OpenTelemetry `MeterProvider` (metrics); the global one when left out. */
      readonly meterProvider?: { getMeter(name: string, version?: string): unknown };
    };

const SCOPE_NAME = 'tollgate';

interface CallTrace {
  readonly span: Api.Span;
  /** The call's `url.template`, computed once. */
  readonly template: string;
  attempt: Api.Span | undefined;
  waiting: boolean;
}

/** What a client's or a relay's telemetry reads of it: where it sends, its events, its invalid-request count. */
export interface TelemetrySource {
  readonly baseUrl: string;
  /** The package's version, as the tracer and meter name it. */
  readonly version: string;
  readonly clock: { now(): number };
  readonly events: { on(name: 'rateLimited', listener: (event: RateLimitedEvent) => void): unknown };
  readonly invalidRequests: () => Promise<number>;
}

/** The telemetry `option` asks for over `source`, or none when it is off. */
export const telemetryOf = (option: TelemetryOption | undefined, source: TelemetrySource): Telemetry | undefined =>
  option ? new Telemetry(option, source) : undefined;

/** The stable HTTP client conventions' template form: `GET /channels/:id` → `/channels/{id}` (v6: the route key). */
const templateOfRoute = (route: string): string => {
  const at = route.indexOf(' ');
  return (at === -1 ? route : route.slice(at + 1)).replace(/:([A-Za-z]\w*)/g, '{$1}');
};
const templateOf = (call: CallState): string => templateOfRoute(call.identity.route);

export class Telemetry implements CallObserver {
  readonly #api: typeof Api;
  readonly #tracer: Api.Tracer;
  readonly #traces = new WeakMap<CallState, CallTrace>();
  readonly #duration: Api.Histogram;
  readonly #waits: Api.Histogram;
  readonly #rateLimited: Api.Counter;
  readonly #queueDepth: Api.UpDownCounter;
  readonly #server: { readonly address: string; readonly port: number };
  readonly #clock: () => number;
  /** The client or relay is closed: its gauge is no longer read. */
  readonly close: () => void;

  constructor(
    option: Exclude<TelemetryOption, false>,
    { baseUrl, version, clock, events, invalidRequests }: TelemetrySource,
  ) {
    const api = loadApi();
    this.#api = api;
    this.#clock = () => clock.now();
    const url = new URL(baseUrl);
    this.#server = { address: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
    const providers = option === true ? {} : option;
    const tracerProvider = (providers.tracerProvider ?? api.trace.getTracerProvider()) as Api.TracerProvider;
    const meterProvider = (providers.meterProvider ?? api.metrics.getMeterProvider()) as Api.MeterProvider;
    this.#tracer = tracerProvider.getTracer(SCOPE_NAME, version);
    const meter = meterProvider.getMeter(SCOPE_NAME, version);
    this.#duration = meter.createHistogram('http.client.request.duration', {
      unit: 's',
      description: 'Duration of HTTP client requests (each attempt).',
    });
    this.#waits = meter.createHistogram('tollgate.wait.duration', {
      unit: 's',
      description: 'Time calls were told to wait before being sent, by reason.',
    });
    this.#rateLimited = meter.createCounter('tollgate.rate_limited', {
      unit: '{response}',
      description: '429 responses, by scope.',
    });
    this.#queueDepth = meter.createUpDownCounter('tollgate.queue.depth', {
      unit: '{call}',
      description: 'Calls waiting to be sent (global gate or their bucket), by route template.',
    });
    const gauge = meter.createObservableGauge('tollgate.invalid_requests', {
      unit: '{request}',
      description: 'Invalid requests (401, 403, non-shared 429) of the last 10 minutes, as the guard counts them.',
    });
    const observe: Api.ObservableCallback = async (result) => result.observe(await invalidRequests().catch(() => 0));
    gauge.addCallback(observe);
    // The meter provider outlives the client: closed, it stops asking (and holding) this one.
    this.close = () => gauge.removeCallback(observe);
    events.on('rateLimited', ({ scope, route }) =>
      this.#rateLimited.add(1, { 'tollgate.rate_limit.scope': scope, 'url.template': templateOfRoute(route) }),
    );
  }

  /** A call begins: its span, a child of whatever span is active. */
  startCall(call: CallState): void {
    const template = templateOf(call);
    const span = this.#tracer.startSpan(`${call.identity.method} ${template}`, {
      kind: this.#api.SpanKind.INTERNAL,
      attributes: { 'http.request.method': call.identity.method, 'url.template': template },
    });
    this.#traces.set(call, { span, template, attempt: undefined, waiting: false });
  }

  /** The call is over: a value, or `error`. */
  endCall(call: CallState, error?: unknown): void {
    const trace = this.#traces.get(call);
    if (!trace) return;
    if (trace.attempt) this.attemptEnded(call, undefined, error);
    if (error !== undefined) {
      trace.span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: errorTypeOf(error) });
      trace.span.setAttribute('error.type', errorTypeOf(error));
    }
    trace.span.end();
    this.#traces.delete(call);
  }

  admitting(call: CallState): void {
    const trace = this.#traces.get(call);
    if (!trace || trace.waiting) return;
    trace.waiting = true;
    this.#queueDepth.add(1, { 'url.template': trace.template });
  }

  admitted(call: CallState): void {
    const trace = this.#traces.get(call);
    if (!trace?.waiting) return;
    trace.waiting = false;
    this.#queueDepth.add(-1, { 'url.template': trace.template });
  }

  attemptStarted(call: CallState): void {
    const trace = this.#traces.get(call);
    if (!trace) return;
    const template = trace.template;
    const api = this.#api;
    const parent = api.trace.setSpan(api.context.active(), trace.span);
    trace.attempt = this.#tracer.startSpan(
      `${call.identity.method} ${template}`,
      {
        kind: api.SpanKind.CLIENT,
        attributes: {
          'http.request.method': call.identity.method,
          'url.template': template,
          'server.address': this.#server.address,
          'server.port': this.#server.port,
          ...(call.attempts > 1 && { 'http.request.resend_count': call.attempts - 1 }),
        },
      },
      parent,
    );
  }

  attemptEnded(call: CallState, status: number | undefined, error?: unknown): void {
    const trace = this.#traces.get(call);
    const span = trace?.attempt;
    if (!trace || !span) return;
    trace.attempt = undefined;
    const attributes: Api.Attributes = {
      'http.request.method': call.identity.method,
      'url.template': trace.template,
      'server.address': this.#server.address,
    };
    if (status !== undefined) {
      span.setAttribute('http.response.status_code', status);
      attributes['http.response.status_code'] = status;
    }
    const errorType = status !== undefined ? (status >= 400 ? String(status) : undefined) : errorTypeOf(error);
    if (errorType !== undefined) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
      attributes['error.type'] = errorType;
    }
    span.end();
    this.#duration.record(Math.max(0, this.#clock() - call.attemptStartedAt) / 1000, attributes);
  }

  waited(call: CallState, reason: WaitReason, ms: number): void {
    const trace = this.#traces.get(call);
    this.#waits.record(ms / 1000, {
      'tollgate.wait.reason': reason,
      'url.template': trace?.template ?? templateOf(call),
    });
    trace?.span.addEvent('wait', { 'tollgate.wait.reason': reason, 'tollgate.wait.ms': ms });
  }
}

/** `error.type`: the error's name (`TimeoutError`, `NetworkError`, …), never its message. */
function errorTypeOf(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}

/**
 * The optional peer, loaded on first use only, synchronously (a client is made at once) with
 * Node.js's module loader, found at run time so the core imports nothing from `node:` (Bun and
 * Deno have it too; elsewhere, telemetry says it needs the peer).
 */
function loadApi(): typeof Api {
  const loader = globalThis.process?.getBuiltinModule?.('node:module');
  if (!loader) {
    throw new TollgateArgumentError(
      'createClient: telemetry loads @opentelemetry/api with process.getBuiltinModule (Node.js 22.3 or newer, Bun, Deno), which this runtime lacks',
    );
  }
  try {
    return loader.createRequire(import.meta.url)('@opentelemetry/api') as typeof Api;
  } catch {
    throw new TollgateArgumentError(
      'createClient: telemetry needs the optional peer dependency @opentelemetry/api (npm install @opentelemetry/api)',
    );
  }
}
