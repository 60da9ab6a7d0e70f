/** The proxy's Prometheus metrics (src/proxy/metrics.ts), rendered from sources a test sets. */
import { describe, expect, it } from 'vitest';
import { createProxyMetrics, type MetricSources } from '../../src/proxy/metrics.ts';

const sources = (overrides: Partial<MetricSources> = {}): MetricSources => ({
  underWay: () => 3,
  invalidRequests: async () => 40,
  invalidRequestLimit: 9000,
  storeUp: async () => true,
  ...overrides,
});

/** The sample lines of `name` in the exposition text. */
const samples = (text: string, name: string) =>
  text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe('the proxy metrics', () => {
  it('read the gauges from their sources at each scrape', async () => {
    const text = await (await createProxyMetrics(sources())).render();
    expect(samples(text, 'tollgate_proxy_requests_under_way')).toEqual(['tollgate_proxy_requests_under_way 3']);
    expect(samples(text, 'tollgate_proxy_invalid_request_budget')).toEqual([
      'tollgate_proxy_invalid_request_budget 8960',
    ]);
    expect(samples(text, 'tollgate_proxy_store_up')).toEqual(['tollgate_proxy_store_up 1']);
  });

  it('a source that fails reads as none counted and the store down; a dialect without a guard shows no budget', async () => {
    const failing = sources({
      invalidRequests: () => Promise.reject(new Error('down')),
      storeUp: () => Promise.reject(new Error('down')),
    });
    const text = await (await createProxyMetrics(failing)).render();
    expect(samples(text, 'tollgate_proxy_invalid_request_budget')).toEqual([
      'tollgate_proxy_invalid_request_budget 9000',
    ]);
    expect(samples(text, 'tollgate_proxy_store_up')).toEqual(['tollgate_proxy_store_up 0']);
    const unguarded = await (await createProxyMetrics(sources({ invalidRequestLimit: undefined }))).render();
    expect(unguarded).not.toContain('tollgate_proxy_invalid_request_budget');
  });

  it("count answers by route and status class, and 429s by scope: the proxy's own, or the service's", async () => {
    const metrics = await createProxyMetrics(sources());
    metrics.answered('GET /channels/:id', 200, false, undefined);
    metrics.answered('GET /channels/:id', 429, false, 'shared');
    metrics.answered('GET /channels/:id', 429, false, undefined);
    metrics.answered('POST /channels/:id/messages', 429, true, undefined);
    metrics.answered('-', 401, true, undefined);
    const text = await metrics.render();
    expect(samples(text, 'tollgate_proxy_requests_total').sort()).toEqual([
      'tollgate_proxy_requests_total{route="-",status_class="4xx",generated="true"} 1',
      'tollgate_proxy_requests_total{route="GET /channels/:id",status_class="2xx",generated="false"} 1',
      'tollgate_proxy_requests_total{route="GET /channels/:id",status_class="4xx",generated="false"} 2',
      'tollgate_proxy_requests_total{route="POST /channels/:id/messages",status_class="4xx",generated="true"} 1',
    ]);
    expect(samples(text, 'tollgate_proxy_rate_limited_total').sort()).toEqual([
      'tollgate_proxy_rate_limited_total{scope="proxy"} 1',
      'tollgate_proxy_rate_limited_total{scope="shared"} 1',
      'tollgate_proxy_rate_limited_total{scope="user"} 1',
    ]);
  });

  it('keep 256 routes by name, and count the rest as other', async () => {
    const metrics = await createProxyMetrics(sources());
    for (let route = 0; route < 257; route++) metrics.answered(`GET /r${route}`, 200, false, undefined);
    metrics.answered('GET /r0', 200, false, undefined);
    const lines = samples(await metrics.render(), 'tollgate_proxy_requests_total');
    expect(lines).toHaveLength(257);
    expect(lines).toContain('tollgate_proxy_requests_total{route="other",status_class="2xx",generated="false"} 1');
    expect(lines).toContain('tollgate_proxy_requests_total{route="GET /r0",status_class="2xx",generated="false"} 2');
    expect(lines).toContain('tollgate_proxy_requests_total{route="GET /r255",status_class="2xx",generated="false"} 1');
  });

  it('put each wait in its bucket, in seconds', async () => {
    const metrics = await createProxyMetrics(sources());
    metrics.waited(30);
    metrics.waited(1500);
    const text = await metrics.render();
    expect(samples(text, 'tollgate_proxy_wait_seconds_bucket')).toContain(
      'tollgate_proxy_wait_seconds_bucket{le="0.05"} 1',
    );
    expect(samples(text, 'tollgate_proxy_wait_seconds_bucket')).toContain(
      'tollgate_proxy_wait_seconds_bucket{le="2"} 2',
    );
    expect(samples(text, 'tollgate_proxy_wait_seconds_sum')).toEqual(['tollgate_proxy_wait_seconds_sum 1.53']);
  });
});
