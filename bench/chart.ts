/**
 * The chart of `npm run bench`: requests accepted over time for tollgate and @discordjs/rest on
 * the rate-limit scenario, against what the limits allow and what a spec client (zero latency) does.
 * Rendered to SVG by Vega-Lite (compiled to Vega, rendered headless: no canvas, no browser).
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { RateLimitRun, RateLimitScenario } from './rate-limits.ts';

interface Point {
  readonly series: string;
  readonly seconds: number;
  readonly requests: number;
}

/** A cumulative count: one point per event, starting at zero. */
const cumulative = (series: string, times: readonly number[]): Point[] => [
  { series, seconds: 0, requests: 0 },
  ...[...times].sort((a, b) => a - b).map((seconds, index) => ({ series, seconds, requests: index + 1 })),
];

export async function renderRateLimitChart(
  runs: readonly RateLimitRun[],
  scenario: RateLimitScenario,
): Promise<string> {
  const total = scenario.buckets * scenario.requestsPerBucket;
  // The limits: a window's worth per bucket at the start of each window.
  const windowSeconds = scenario.limit.windowMs / 1000;
  const allowed: number[] = [];
  for (let window = 0; allowed.length < total; window++) {
    for (let index = 0; index < scenario.limit.limit * scenario.buckets && allowed.length < total; index++)
      allowed.push(window * windowSeconds);
  }
  // The spec's schedule depends on the point of the second each bucket began at: tollgate's run's.
  const spec = runs[0]!.specScheduleSeconds;
  const end = Math.max(...runs.map((run) => run.spanSeconds), spec.at(-1) ?? 0);
  const points: Point[] = [
    ...cumulative('the limits allow', allowed),
    ...cumulative('a spec client, zero latency', spec),
    ...runs.flatMap((run) => cumulative(run.client, run.acceptedAt)),
  ];
  const rejected = runs.flatMap((run) => run.rejectedAt.map((seconds) => ({ series: `${run.client}: 429`, seconds })));
  const order = ['the limits allow', 'a spec client, zero latency', ...runs.map((run) => run.client)];
  const chart: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Requests accepted over time',
      subtitle: `${scenario.buckets} buckets × ${scenario.requestsPerBucket} requests, ${scenario.callers} callers, limit ${scenario.limit.limit} per ${windowSeconds} s`,
    },
    width: 640,
    height: 320,
    background: 'white',
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
        encoding: {
          x: {
            field: 'seconds',
            type: 'quantitative',
            title: 'seconds since the first request arrived',
            scale: { domain: [0, Math.ceil(end)] },
          },
          y: { field: 'requests', type: 'quantitative', title: 'requests accepted (cumulative)' },
          color: {
            field: 'series',
            type: 'nominal',
            sort: order,
            title: null,
            legend: { orient: 'bottom-right', labelLimit: 0 },
          },
          strokeDash: {
            condition: {
              test: "indexof(datum.series, 'allow') >= 0 || indexof(datum.series, 'spec') >= 0",
              value: [4, 3],
            },
            value: [1, 0],
          },
        },
      },
      {
        data: { values: rejected.length > 0 ? rejected : [{ series: 'none', seconds: -1 }] },
        transform: [{ filter: 'datum.seconds >= 0' }],
        mark: { type: 'tick', color: '#d62728', thickness: 2 },
        encoding: { x: { field: 'seconds', type: 'quantitative' } },
      },
    ],
  };
  const view = new View(parse(compile(chart).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
