/**
 * The chart of `npm run bench`: requests accepted over time for tollgate and @discordjs/rest on
 * the rate-limit scenario, against what the limits allow and what the spec's rules allow.
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
  const end = Math.max(...runs.map((run) => run.seconds));
  // The limits: a window's worth per bucket at the start of each window.
  const windowSeconds = scenario.limit.windowMs / 1000;
  const allowed: number[] = [];
  for (let window = 0; allowed.length < total; window++) {
    for (let index = 0; index < scenario.limit.limit * scenario.buckets && allowed.length < total; index++)
      allowed.push(window * windowSeconds);
  }
  const spec = runs[0]!.specScheduleSeconds.flatMap((seconds) => Array<number>(scenario.buckets).fill(seconds));
  const points: Point[] = [
    ...cumulative('the limits allow', allowed),
    ...cumulative("the spec's rules allow", spec),
    ...runs.flatMap((run) => cumulative(run.client, run.acceptedAt)),
  ];
  const rejected = runs.flatMap((run) => run.rejectedAt.map((seconds) => ({ series: `${run.client}: 429`, seconds })));
  const order = ['the limits allow', "the spec's rules allow", ...runs.map((run) => run.client)];
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
            title: 'seconds since the first call',
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
            condition: { test: "indexof(datum.series, 'allow') >= 0", value: [4, 3] },
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
