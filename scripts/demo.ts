/**
 * `npm start`: starts the reference service on loopback and drives the generated SDK through a
 * realistic burst (several channels and guilds, concurrent callers, a global limit that bites),
 * with live progress per bucket, then reports what happened.
 *
 *   npm start -- [--api v10|v6] [--base-url URL --token TOKEN] [--requests 300] [--concurrency 24] [--metrics]
 *
 * `-h`/`--help` prints the usage (exit 0); bad input (an unknown flag, an extra argument, a bad
 * value) is one line naming the problem and the usage, on stderr, exit 2.
 *
 * Under v10 (the default) the service also enforces its global limit of 50 per second, which
 * the client paces ahead; under v6 the global limit is 25 per second and reactive, as the spec
 * has it, so global 429s show.
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { apiOfBaseUrl, createClient, type ApiVersion } from '../src/index.ts';
import { demoMetrics } from './demo/metrics.ts';
import { ReferenceService, type RateLimit } from '../src/testing/index.ts';
import { burstCalls, countingFetch, newStats, recordWait, runBurst } from './demo/burst.ts';

const USAGE =
  'usage: npm start -- [--api v10|v6] [--base-url URL --token TOKEN] [--requests 300] [--concurrency 24] [--metrics]';
const values = parseOptions();
const requests = wholeNumber('requests', 1, 100_000);
const concurrency = wholeNumber('concurrency', 1, 1000);

checkBaseUrl();
const api = apiOption();
const BUCKET_LIMIT: RateLimit = { limit: 5, windowMs: 1000 };
const GLOBAL_LIMIT: RateLimit = { limit: api === 'v10' ? 50 : 25, windowMs: 1000 };
const service =
  values['base-url'] === undefined
    ? await new ReferenceService({ api, defaultLimit: BUCKET_LIMIT, global: GLOBAL_LIMIT }).start()
    : undefined;
const baseUrl = values['base-url'] ?? service!.baseUrl;
const token = values.token ?? 'Bot demo-token';

const calls = burstCalls(requests, api);
const stats = newStats(calls);
const telemetry = values.metrics ? demoMetrics() : undefined;
const client = newClient();

console.log(
  `tollgate demo (${api}): ${requests} calls, ${concurrency} concurrent callers, against ${service ? 'the bundled reference service' : baseUrl}`,
);
if (service) {
  console.log(
    `limits: ${BUCKET_LIMIT.limit} per ${BUCKET_LIMIT.windowMs} ms per bucket, ${GLOBAL_LIMIT.limit} per ${GLOBAL_LIMIT.windowMs} ms globally\n`,
  );
}

const bars = new cliProgress.MultiBar(
  {
    format: ' {bucket} {bar} {value}/{total} calls · {waits} waits',
    hideCursor: true,
    clearOnComplete: false,
    barsize: 24,
    // Without a terminal (CI, pipes) the bars redraw on a slower schedule.
    noTTYOutput: !process.stdout.isTTY,
    notTTYSchedule: 5000,
  },
  cliProgress.Presets.shades_classic,
);
const width = Math.max(...[...stats.perBucket.keys()].map((key) => key.length));
const barByBucket = new Map(
  [...stats.perBucket].map(([bucketKey, entry]) => [
    bucketKey,
    bars.create(entry.total, 0, { bucket: bucketKey.padEnd(width), waits: 0 }),
  ]),
);

const started = performance.now();
const deadline = setTimeout(() => {
  bars.stop();
  console.error('demo: did not finish within 60 s');
  process.exit(1);
}, 60_000);
try {
  await runBurst(client, calls, concurrency, stats, () => {
    for (const [bucketKey, bar] of barByBucket) {
      const entry = stats.perBucket.get(bucketKey)!;
      bar.update(entry.sent, { waits: entry.waits });
    }
  });
} catch (error) {
  // One clear line (a closed port, a refused token), not a stack trace.
  bars.stop();
  console.error(`demo: ${describe(error)}`);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  bars.stop();
  await client.close();
  await service?.stop();
}
if (process.exitCode === 1) process.exit(1);
const seconds = (performance.now() - started) / 1000;

// ── Report ──────────────────────────────────────────────────────────────────────────────────
const rows: [string, string][] = [
  ['calls completed', `${requests - stats.failures} of ${requests}`],
  ['requests sent', String(stats.responses)],
  [
    '429s received',
    `${stats.tooManyRequests}${service ? ` (global: ${service.requests.filter((r) => r.global).length}, bucket: ${service.requests.filter((r) => r.status === 429 && !r.global).length})` : ''}`,
  ],
  ['elapsed', `${seconds.toFixed(1)} s`],
  ['achieved rate', `${(stats.responses / seconds).toFixed(1)} requests/s`],
];
if (service) {
  rows.push(['429s after first contact', String(tooManyAfterFirstContact(service.requests))]);
  // The least time the limits allow for this mix: each bucket's calls in windows of `limit`,
  // the first window at once; and the global limit over all of them.
  const windows = (count: number, limit: RateLimit) => (Math.ceil(count / limit.limit) - 1) * limit.windowMs;
  let leastMs = windows(requests, GLOBAL_LIMIT);
  for (const entry of stats.perBucket.values()) leastMs = Math.max(leastMs, windows(entry.total, BUCKET_LIMIT));
  rows.push([
    'least time the limits allow',
    `${(leastMs / 1000).toFixed(1)} s (${stats.perBucket.size} buckets × ${BUCKET_LIMIT.limit}/s, global ${GLOBAL_LIMIT.limit}/s)`,
  ]);
  rows.push(['achieved / allowed', `${((100 * leastMs) / 1000 / seconds).toFixed(0)} % of the allowed rate`]);
  if (api === 'v6') {
    // v6 sleeps 500 ms past each reset, so no span of a window holds more than the limit. v10's
    // service counts fixed windows and the client follows them closely (50 ms): a span across
    // two windows may hold up to twice the limit, and the 429 count is the evidence.
    let worst = 0;
    for (const bucketKey of stats.perBucket.keys()) worst = Math.max(worst, service.maxPerWindow(bucketKey));
    rows.push(['most per bucket window', `${worst} (limit ${BUCKET_LIMIT.limit})`]);
  }
}
for (const [reason, ms] of [...stats.waitMsByReason].sort())
  rows.push([`waited: ${reason}`, `${(ms / 1000).toFixed(1)} s (summed over callers)`]);
console.log('\nReport');
for (const [label, value] of rows) console.log(`  ${label.padEnd(28)} ${value}`);
await telemetry?.print();
if (stats.failures > 0) process.exitCode = 1;

/** 429s on a route after an earlier request of that route (its first contact) was answered. */
function tooManyAfterFirstContact(requests: ReferenceService['requests']): number {
  const contacted = new Set<string>();
  let count = 0;
  for (const request of requests) {
    if (request.status === 429 && contacted.has(request.routeKey)) count += 1;
    contacted.add(request.routeKey);
  }
  return count;
}

/** Bad input: the problem and the usage on stderr, exit 2 (no stack trace). */
function fail(problem: string): never {
  console.error(`demo: ${problem.replaceAll('\n', ' ')}\n${USAGE}`);
  process.exit(2);
}

function apiOption(): ApiVersion {
  const chosen = values.api;
  if (chosen !== undefined && chosen !== 'v10' && chosen !== 'v6') fail(`--api must be v10 or v6, got ${chosen}`);
  return (
    (chosen as ApiVersion | undefined) ?? (values['base-url'] ? apiOfBaseUrl(values['base-url']) : undefined) ?? 'v10'
  );
}

function checkBaseUrl(): void {
  const given = values['base-url'];
  if (given === undefined) return;
  let protocol: string | undefined;
  try {
    protocol = new URL(given).protocol;
  } catch {
    // not a URL: protocol stays undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') fail(`--base-url must be an absolute http(s) URL, got ${given}`);
}

/** The client; options it refuses (an empty token, an api the base URL contradicts) are bad input. */
function newClient() {
  try {
    return createClient({
      api,
      baseUrl,
      token,
      fetch: countingFetch(stats),
      onWait: (event) => recordWait(stats, event),
      ...(telemetry && { telemetry: { meterProvider: telemetry.meterProvider } }),
    });
  } catch (error) {
    return fail((error as Error).message);
  }
}

function wholeNumber(name: 'requests' | 'concurrency', min: number, max: number): number {
  const text = values[name];
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    fail(`--${name} must be a whole number from ${min} to ${max}, got ${text}`);
  return value;
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        api: { type: 'string' },
        'base-url': { type: 'string' },
        token: { type: 'string' },
        requests: { type: 'string', default: '300' },
        concurrency: { type: 'string', default: '24' },
        metrics: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return values;
  } catch (error) {
    return fail((error as Error).message);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
