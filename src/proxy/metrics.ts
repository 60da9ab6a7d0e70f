/**
 * The proxy's Prometheus metrics (`GET /metrics`, with `metrics: true`), on prom-client, an
 * optional peer loaded only then. No label holds a token or an id: routes are templates, and
 * past a bound of distinct ones (a bot inventing paths) they count as `other`.
 */
import type * as PromClient from 'prom-client';
import { TollgateArgumentError } from '../errors.ts';

/** Distinct route labels kept before the rest count as `other`. */
const MAX_ROUTES = 256;

export interface ProxyMetrics {
  readonly contentType: string;
  /** A request answered: its route template, its status, and whether the proxy made the answer. */
  answered(route: string, status: number, generated: boolean, rateLimitScope: string | undefined): void;
  /** A wait before a request went upstream, in ms. */
  waited(ms: number): void;
  /** The exposition text. */
  render(): Promise<string>;
}

export interface MetricSources {
  /** Requests under way in the proxy now (waiting or upstream). */
  readonly underWay: () => number;
  /** The IP's invalid requests of the last 10 minutes, and the guard's limit (the relay's dialect's). */
  readonly invalidRequests: () => Promise<number>;
  readonly invalidRequestLimit: number | undefined;
  /** Whether the limits store answers. */
  readonly storeUp: () => Promise<boolean>;
}

export async function createProxyMetrics(sources: MetricSources): Promise<ProxyMetrics> {
  let prom: typeof PromClient;
  try {
    prom = await import('prom-client');
  } catch {
    throw new TollgateArgumentError('createProxy: metrics needs the prom-client package (npm install prom-client)');
  }
  const registry = new prom.Registry();
  const registers = [registry];
  const requests = new prom.Counter({
    name: 'tollgate_proxy_requests_total',
    help: 'Requests answered, by route template and status class; generated: answered by the proxy itself',
    labelNames: ['route', 'status_class', 'generated'] as const,
    registers,
  });
  const rateLimited = new prom.Counter({
    name: 'tollgate_proxy_rate_limited_total',
    help: "429s handed back, by scope: the service's (user, shared, global) or the proxy's own (proxy)",
    labelNames: ['scope'] as const,
    registers,
  });
  const waits = new prom.Histogram({
    name: 'tollgate_proxy_wait_seconds',
    help: 'Waits before a request went upstream, in seconds',
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers,
  });
  new prom.Gauge({
    name: 'tollgate_proxy_requests_under_way',
    help: 'Requests in the proxy now, waiting for their place or upstream (the queue depth)',
    registers,
    collect() {
      this.set(sources.underWay());
    },
  });
  // Only where the relay's dialect keeps a guard: a budget of 0 would read as a guard at its limit.
  const guard = sources.invalidRequestLimit;
  if (guard !== undefined) {
    new prom.Gauge({
      name: 'tollgate_proxy_invalid_request_budget',
      help: "What is left of the invalid-request guard's budget (401, 403 and non-shared 429s of the last 10 minutes)",
      registers,
      async collect() {
        this.set(guard - (await sources.invalidRequests().catch(() => 0)));
      },
    });
  }
  new prom.Gauge({
    name: 'tollgate_proxy_store_up',
    help: 'Whether the limits store answers (1) or the proxy runs on its fallback limits (0)',
    registers,
    async collect() {
      this.set((await sources.storeUp().catch(() => false)) ? 1 : 0);
    },
  });
  const routes = new Set<string>();
  return {
    contentType: registry.contentType,
    answered(route, status, generated, rateLimitScope) {
      if (!routes.has(route) && routes.size < MAX_ROUTES) routes.add(route);
      const label = routes.has(route) ? route : 'other';
      requests.inc({ route: label, status_class: `${Math.floor(status / 100)}xx`, generated: String(generated) });
      if (status === 429) rateLimited.inc({ scope: generated ? 'proxy' : (rateLimitScope ?? 'user') });
    },
    waited(ms) {
      waits.observe(ms / 1000);
    },
    render: () => registry.metrics(),
  };
}
