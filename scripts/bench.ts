/**
 * `npm run bench` (never part of `npm test`): every suite of bench/, one after the other, in one
 * run, so the ratios compare figures from the same machine and moment. Prints tables, writes
 * JSON and the chart to bench/results/, and rewrites the results section of docs/benchmarks.md.
 *
 *   npm run bench                    all suites (about 4 minutes here)
 *   npm run bench -- overhead memory only the suites named (decision, overhead, rate-limits,
 *                                    shared-store, memory, v10, pagination, cloudflare, discordjs,
 *                                    proxy, interactions)
 *   npm run bench -- overhead --save-baseline
 *                                    also keeps this run's overhead figures as the baseline
 *                                    (bench/results/overhead-baseline.json) that later runs print
 *                                    their change against
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderRateLimitChart } from '../bench/chart.ts';
import { runCloudflareBench, type CloudflareResult } from '../bench/cloudflare.ts';
import { runDecisionBench, type DecisionResult } from '../bench/decision.ts';
import { BRIDGED_RUNS, runDiscordjsFleetBench, type DiscordjsFleetResult } from '../bench/discordjs.ts';
import { INTERACTIONS_REQUESTS, runInteractionsBench, type InteractionsBenchResult } from '../bench/interactions.ts';
import { runProxyBench, type ProxyBenchResult } from '../bench/proxy.ts';
import { runMemoryBench, type MemoryResult } from '../bench/memory.ts';
import { runTokenClientsMemoryBench } from '../bench/token-clients-memory.ts';
import type { TokenMemoryResult } from '../bench/token-memory.ts';
import { runOverheadBench, type OverheadRatio, type OverheadResult } from '../bench/overhead.ts';
import {
  runPaginationMemory,
  runPaginationWalk,
  type PaginationMemoryResult,
  type PaginationWalkResult,
} from '../bench/pagination.ts';
import { runRateLimitBench, SCENARIO, type RateLimitRun } from '../bench/rate-limits.ts';
import {
  runGlobalPaceBench,
  runSharedStoreBench,
  type GlobalPaceResult,
  type SharedStoreResult,
} from '../bench/shared-store.ts';
import { LATENCY_MS, runV10Bench, type V10Run } from '../bench/v10.ts';

const SUITES = [
  'decision',
  'overhead',
  'rate-limits',
  'shared-store',
  'memory',
  'v10',
  'pagination',
  'cloudflare',
  'discordjs',
  'proxy',
  'interactions',
] as const;
type Suite = (typeof SUITES)[number];

const root = fileURLToPath(new URL('..', import.meta.url));
/** Where `--save-baseline` keeps the overhead figures later runs are compared with (bench/results/). */
const OVERHEAD_BASELINE = 'overhead-baseline';
const resultsDir = join(root, 'bench', 'results');

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
for (const name of asked) {
  if (!(SUITES as readonly string[]).includes(name)) {
    console.error(`unknown suite "${name}"; suites: ${SUITES.join(', ')}`);
    process.exit(2);
  }
}
const suites = new Set<Suite>(asked.length > 0 ? (asked as Suite[]) : SUITES);
const benchStarted = performance.now();
await mkdir(resultsDir, { recursive: true });

async function save(name: string, results: unknown): Promise<void> {
  const file = join(resultsDir, `${name}.json`);
  await writeFile(
    file,
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2)}\n`,
  );
  console.log(`→ ${join('bench', 'results', `${name}.json`)}`);
}

async function load<T>(name: string): Promise<T | undefined> {
  try {
    return (JSON.parse(await readFile(join(resultsDir, `${name}.json`), 'utf8')) as { results: T }).results;
  } catch {
    return undefined;
  }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

if (suites.has('decision')) {
  console.log(
    "\n1. Decision cost: pre-check + post-update, memory store, and a typed call's v10 route (tinybench, 1000 per sample)",
  );
  const decisions = await runDecisionBench();
  console.table(
    decisions.map((r) => ({
      task: r.name,
      'ns/decision': fixed(r.nsPerDecision, 1),
      '±%': fixed(r.relativeMarginPercent, 2),
      samples: r.samples,
    })),
  );
  await save('decision', decisions);
}

if (suites.has('overhead')) {
  console.log(
    '\n2. Overhead: requests/s against one upstream in its own process (32 concurrent; each client in a process of its own, all taking turns; 4 s warm-up, median of 5 rounds of 1.5 s)',
  );
  const overhead = await runOverheadBench({ concurrency: 32, seconds: 1.5, warmupSeconds: 4, rounds: 5 });
  const baseline = await load<Overhead>(OVERHEAD_BASELINE);
  await save('overhead', overhead);
  if (process.argv.includes('--save-baseline')) await save(OVERHEAD_BASELINE, overhead);
  console.table(overhead.results.map((r) => overheadRow(r, baseline)));
  console.table(overhead.ratios.map((r) => ratioRow(r, baseline)));
}

if (suites.has('rate-limits')) {
  const { buckets, requestsPerBucket, callers, limit } = SCENARIO;
  console.log(
    `\n3. Rate limits: ${buckets} buckets × ${requestsPerBucket} requests, ${callers} callers, limit ${limit.limit} per ${limit.windowMs} ms`,
  );
  const runs = await runRateLimitBench();
  console.table(runs.map((r) => rateLimitRow(r)));
  await save('rate-limits', runs);
  await writeFile(join(resultsDir, 'rate-limits.svg'), await renderRateLimitChart(runs, SCENARIO));
  console.log(`→ ${join('bench', 'results', 'rate-limits.svg')}`);
}

if (suites.has('shared-store')) {
  console.log('\n4. Shared store: processes on one Redis against the reference service (4 buckets)');
  const shared = await runSharedStoreBench();
  console.table(shared.map((r) => sharedRow(r)));
  await save('shared-store', shared);
  console.log("\n4b. Shared store, v10: one token's global pace (50 per second) over 4 and 8 processes");
  const globalPace = await runGlobalPaceBench();
  console.table(globalPace.map((r) => globalPaceRow(r)));
  await save('shared-store-global', globalPace);
}

if (suites.has('memory')) {
  console.log('\n5. Memory: a million distinct channel ids through the limiter (memory store)');
  const memory = await runMemoryBench();
  console.table([memoryRow(memory)]);
  await save('memory', memory);
  console.log("\n5b. Memory: a client's withToken, 1000 users' tokens kept, then 2000 more in turn (maxTokens 1000)");
  const tokenClients = await runTokenClientsMemoryBench();
  console.table([tokenMemoryRow(tokenClients)]);
  await save('memory-tokens', tokenClients);
}

if (suites.has('v10')) {
  console.log(`\n6. The v10 service, ${LATENCY_MS} ms latency: time against the least the limits allow, and 429s`);
  const v10 = await runV10Bench();
  console.table(v10.runs.map((r) => v10Row(r)));
  await save('v10', v10);
}

if (suites.has('pagination')) {
  console.log('\n7. Paged lists: 10 000 messages at 5 requests a second; the heap while walking 100 000 items');
  const walk = await runPaginationWalk();
  const memory = await runPaginationMemory();
  console.table([paginationRow({ walk, memory })]);
  await save('pagination', { walk, memory });
}

if (suites.has('cloudflare')) {
  console.log('\n8. Cloudflare Workers (workerd in miniflare): bundle sizes; a Durable Object store against memory');
  const cloudflare = await runCloudflareBench();
  console.table(cloudflare.bundles);
  console.table(cloudflareRows(cloudflare));
  await save('cloudflare', cloudflare);
}

if (suites.has('discordjs')) {
  console.log(
    `\n9. discord.js fleet: 4 processes of one bot, 240 message creates in 10 channels (5 per channel each 5 s, 50 a second for the token), plain once and through tollgate/discordjs on one Redis ${BRIDGED_RUNS} times`,
  );
  const fleet = await runDiscordjsFleetBench();
  console.table(fleet.map((r) => discordjsRow(r)));
  await save('discordjs', fleet);
}

if (suites.has('proxy')) {
  console.log(
    '\n10. Proxy: tollgate proxy beside @discordjs/proxy, each in its own process, before an upstream that answers at once; two replicas on Redis at 40 ms',
  );
  const proxy = await runProxyBench();
  printProxy(proxy);
  await save('proxy', proxy);
}

if (suites.has('interactions')) {
  console.log(
    `\n11. Interactions: tollgate/interactions' Node handler on loopback, ${INTERACTIONS_REQUESTS} signed PINGs one after another (each verified in full)`,
  );
  const interactions = await runInteractionsBench();
  console.table([interactionsRow(interactions)]);
  await save('interactions', interactions);
}

// The targets, from the latest results of every suite (this run's where it ran them).
const latest: Latest = {
  decision: await load<DecisionResult[]>('decision'),
  overhead: await load<Overhead>('overhead'),
  overheadBaseline: await load<Overhead>(OVERHEAD_BASELINE),
  rateLimits: await load<RateLimitRun[]>('rate-limits'),
  shared: await load<SharedStoreResult[]>('shared-store'),
  globalPace: await load<GlobalPaceResult[]>('shared-store-global'),
  memory: await load<MemoryResult>('memory'),
  tokenClients: await load<TokenMemoryResult>('memory-tokens'),
  v10: (await load<{ runs: V10Run[] }>('v10'))?.runs,
  pagination: await load<PaginationResult>('pagination'),
  cloudflare: await load<CloudflareResult>('cloudflare'),
  discordjs: await load<DiscordjsFleetResult[]>('discordjs'),
  proxy: await load<ProxyBenchResult>('proxy'),
  interactions: await load<InteractionsBenchResult>('interactions'),
};
const targets = summarise(latest);
console.log('\nTargets');
console.table(targets);
await save('targets', targets);
await updateBenchmarksDoc(latest, targets);
console.log(`\nbench finished in ${fixed((performance.now() - benchStarted) / 1000, 1)} s`);

function rateLimitRow(r: RateLimitRun) {
  return {
    client: r.client,
    s: fixed(r.seconds, 2),
    'span s': fixed(r.spanSeconds, 2),
    'spec client s': fixed(r.specClientSeconds, 2),
    'of spec client': fixed(r.specClientSeconds / r.spanSeconds, 2),
    'limits minimum s': fixed(r.limitsMinimumSeconds, 2),
    sent: r.requestsSent,
    '429s': r.status429,
    '429s after first contact': r.status429AfterFirstContact,
    'max/window': r.maxPerWindow,
  };
}

function proxyTables(r: ProxyBenchResult) {
  return [
    r.throughput.map((t) => ({
      proxy: t.proxy,
      tokens: t.tokens,
      'requests/s': fixed(t.requestsPerSecond, 0),
      'rounds (requests/s)': t.roundsPerSecond?.map((each) => fixed(each, 0)).join(', ') ?? '',
      'CPU µs/request': fixed(t.cpuMicrosPerRequest, 0),
      'KB allocated/request':
        t.allocatedBytesPerRequest === undefined ? '' : fixed(t.allocatedBytesPerRequest / 1000, 1),
    })),
    r.latency.map((l) => ({
      proxy: l.proxy,
      'requests/s': l.rate,
      'p50 ms': fixed(l.p50Ms, 2),
      'p99 ms': fixed(l.p99Ms, 2),
      'added p50 ms': fixed(l.addedP50Ms, 2),
      'added p99 ms': fixed(l.addedP99Ms, 2),
    })),
    [
      {
        tokens: r.memory.tokens,
        'RSS with 1 (MiB)': fixed(r.memory.rssMiBWithOne, 1),
        [`RSS with ${r.memory.tokens} (MiB)`]: fixed(r.memory.rssMiBWithAll, 1),
        'KiB/token': fixed(r.memory.kibPerToken, 1),
        'relay heap KiB/token': fixed(r.relayMemory.heapKiBPerToken, 1),
        [`views held after ${r.relayMemory.churnTokens} tokens (maxTokens ${r.relayMemory.maxTokens})`]:
          r.relayMemory.viewsHeldAfterChurn,
      },
    ],
    [
      {
        replicas: r.replicas.replicas,
        'latency ms': r.replicas.latencyMs,
        requests: r.replicas.requests,
        'span s (runs)': r.replicas.spansSeconds.map((span) => fixed(span, 2)).join(', '),
        'median span s': fixed(r.replicas.spanSeconds, 2),
        'least s': fixed(r.replicas.leastSeconds, 2),
        'of the least': fixed(r.replicas.ofLeast, 3),
        'safe bound s': fixed(r.replicas.safeSeconds, 2),
        'of the safe bound': fixed(r.replicas.ofSafe, 3),
        '429s': r.replicas.status429,
      },
    ],
  ];
}

function printProxy(r: ProxyBenchResult): void {
  for (const table of proxyTables(r)) console.table(table);
}

function discordjsRow(r: DiscordjsFleetResult) {
  return {
    client: r.client,
    run: r.run ?? 1,
    'latency ms': r.latencyMs,
    messages: r.messages,
    'span s': fixed(r.spanSeconds, 2),
    'least s': fixed(r.leastSeconds, 2),
    'of the least': fixed(r.leastSeconds / r.spanSeconds, 3),
    'bucket 429s': r.bucket429s,
    'global 429s': r.global429s,
    failures: r.failures,
  };
}

function v10Row(r: V10Run) {
  return {
    scenario: r.scenario,
    client: r.client,
    requests: r.requests,
    'span s': fixed(r.spanSeconds, 2),
    'least s': fixed(r.minimumSeconds, 2),
    'of the least': fixed(r.minimumSeconds / r.spanSeconds, 3),
    '429s': r.status429,
    '429s after first contact': r.status429AfterFirstContact,
    'global 429s': r.global429,
  };
}

function sharedRow(r: SharedStoreResult) {
  return {
    scenario: r.scenario,
    processes: r.processes,
    requests: r.requests,
    s: fixed(r.seconds, 2),
    'requests/s': fixed(r.requestsPerSecond, 1),
    'span s': fixed(r.spanSeconds, 2),
    'of spec client': r.specClientSeconds === undefined ? '' : fixed(r.specClientSeconds / r.spanSeconds, 2),
    'round trips/request': fixed(r.roundTripsPerRequest, 2),
    'bucket 429s': r.bucket429s,
    'max/window (limit)': `${r.maxPerWindow} (${r.limitPerWindow})`,
  };
}

function globalPaceRow(r: GlobalPaceResult) {
  return {
    processes: r.processes,
    'latency ms': r.latencyMs,
    requests: r.requests,
    'span s': fixed(r.spanSeconds, 2),
    'least s': fixed(r.minimumSeconds, 2),
    'of the least': fixed(r.minimumSeconds / r.spanSeconds, 3),
    '429s': r.status429,
    'global 429s': r.global429,
  };
}

interface PaginationResult {
  readonly walk: PaginationWalkResult;
  readonly memory: PaginationMemoryResult;
}

/** Heap growth between the first and the last checkpoint of the 100 000-item walk (MiB). */
function heapGrowth({ memory }: PaginationResult): number {
  return memory.heapMiB.at(-1)!.heapMiB - memory.heapMiB[0]!.heapMiB;
}

function paginationRow(r: PaginationResult) {
  return {
    messages: r.walk.items,
    requests: r.walk.requests,
    'span s': fixed(r.walk.spanSeconds, 2),
    'least s': fixed(r.walk.minimumSeconds, 2),
    'of the least': fixed(r.walk.minimumSeconds / r.walk.spanSeconds, 3),
    '429s': r.walk.status429,
    'heap MiB at 10k / 50k / 100k items': r.memory.heapMiB.map((sample) => fixed(sample.heapMiB, 2)).join(' / '),
  };
}

function interactionsRow(r: InteractionsBenchResult) {
  return { requests: r.requests, 'p50 ms': fixed(r.p50Ms, 3), 'p99 ms': fixed(r.p99Ms, 3), 'not PONG': r.failures };
}

function tokenMemoryRow(r: TokenMemoryResult) {
  return {
    tokens: r.tokens,
    'heap KiB/token': fixed(r.heapKiBPerToken, 1),
    [`views held after ${r.churnTokens} more`]: r.viewsHeldAfterChurn,
    'heap after (MiB)': fixed(r.heapMiBAfterChurn, 1),
  };
}

function memoryRow(r: MemoryResult) {
  return {
    buckets: r.buckets,
    'heap/bucket (B)': fixed(r.heapPerBucketBytes),
    'heap with them (MiB)': fixed(r.heapWithBucketsMiB, 1),
    'buckets after reset': r.bucketsAfterShed,
    'heap after (MiB)': fixed(r.heapAfterShedMiB, 1),
    'long run: ids': r.longRunIds,
    'long run: most held': r.longRunMostBuckets,
    'long run: heap (MiB)': fixed(r.longRunHeapMiB, 1),
  };
}

interface Target {
  readonly target: string;
  readonly measured: string;
  readonly met: string;
}

/** The latest results of every suite, from bench/results/. */
interface Latest {
  readonly decision: DecisionResult[] | undefined;
  readonly overhead: Overhead | undefined;
  readonly overheadBaseline: Overhead | undefined;
  readonly rateLimits: RateLimitRun[] | undefined;
  readonly shared: SharedStoreResult[] | undefined;
  readonly globalPace: GlobalPaceResult[] | undefined;
  readonly memory: MemoryResult | undefined;
  readonly tokenClients: TokenMemoryResult | undefined;
  readonly v10: V10Run[] | undefined;
  readonly pagination: PaginationResult | undefined;
  readonly cloudflare: CloudflareResult | undefined;
  readonly discordjs: DiscordjsFleetResult[] | undefined;
  readonly proxy: ProxyBenchResult | undefined;
  readonly interactions: InteractionsBenchResult | undefined;
}

/** The overhead suite's figures, and the baseline later runs are compared with (`--save-baseline`). */
interface Overhead {
  readonly results: OverheadResult[];
  readonly ratios: OverheadRatio[];
}

/** A figure, with the baseline's beside it when there is one (`now (was before)`). */
function optional(now: number | undefined, before: number | undefined, digits = 0): string {
  if (now === undefined) return '';
  return before === undefined ? fixed(now, digits) : `${fixed(now, digits)} (was ${fixed(before, digits)})`;
}

function kilobytes(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : bytes / 1024;
}

function change(now: number, before: number | undefined): string {
  return before === undefined ? '' : `${now >= before ? '+' : ''}${fixed((now / before - 1) * 100)} %`;
}

function overheadRow(r: OverheadResult, baseline: Overhead | undefined) {
  const before = baseline?.results.find((b) => b.mix === r.mix && b.client === r.client)?.requestsPerSecond;
  const was = baseline?.results.find((b) => b.mix === r.mix && b.client === r.client);
  return {
    mix: r.mix,
    client: r.client,
    'requests/s': fixed(r.requestsPerSecond),
    'of undici request': fixed(r.ofCeiling, 2),
    'vs baseline': change(r.requestsPerSecond, before),
    'CPU µs/request': optional(r.cpuMicrosPerRequest, was?.cpuMicrosPerRequest),
    'GCs/1000 requests': optional(r.gcPerThousand, was?.gcPerThousand, 1),
    'GC µs/request': optional(r.gcMicrosPerRequest, was?.gcMicrosPerRequest, 1),
    'KB allocated/request': optional(
      kilobytes(r.allocatedBytesPerRequest),
      kilobytes(was?.allocatedBytesPerRequest),
      1,
    ),
  };
}

function ratioRow(r: OverheadRatio, baseline: Overhead | undefined) {
  const before = baseline?.ratios.find(
    (b) => b.mix === r.mix && b.client === r.client && b.against === r.against,
  )?.ratio;
  return {
    mix: r.mix,
    client: r.client,
    against: r.against,
    ratio: fixed(r.ratio, 2),
    rounds: r.rounds.map((ratio) => fixed(ratio, 2)).join(' '),
    baseline: before === undefined ? '' : fixed(before, 2),
  };
}

function cloudflareRows(r: CloudflareResult) {
  const memory = r.runs.find((run) => run.store === 'memory')!;
  return r.runs.map((run) => ({
    store: run.store,
    'calls, one after another': r.calls,
    'ms/request': fixed(run.msPerRequest, 3),
    'added ms/request': fixed(run.msPerRequest - memory.msPerRequest, 3),
    'object calls/request': fixed(run.objectCallsPerRequest, 2),
    'one call to the object (ms)': run.store === 'memory' ? '' : fixed(r.roundTripMs, 3),
    '429s': run.status429,
  }));
}

function summarise(results: Latest): Target[] {
  const targets: Target[] = [];
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  if (results.overhead) {
    const { results: overhead, ratios } = results.overhead;
    for (const { mix, transport, ratio } of ratios.filter((r) => r.goal)) {
      targets.push({
        target: `tollgate ≥ 0.9× the requests/s of ky with two hooks doing nothing, same fetch (${transport}, ${mix})`,
        measured: `${fixed(ratio, 2)}×`,
        met: yes(ratio >= 0.9),
      });
    }
    for (const mix of new Set(overhead.map((r) => r.mix))) {
      const of = (client: string) =>
        overhead.find((r) => r.mix === mix && r.client === client)?.requestsPerSecond ?? NaN;
      const ratio = of('tollgate (memory, undiciFetch)') / of('@discordjs/rest');
      targets.push({
        target: `tollgate with tollgate/undici ≥ @discordjs/rest requests/s (${mix})`,
        measured: `${fixed(ratio, 2)}×`,
        met: yes(ratio >= 1),
      });
    }
  }
  if (results.decision) {
    const pure = results.decision[0]!;
    targets.push({
      target: 'one decision < 300 ns',
      measured: `${fixed(pure.nsPerDecision)} ns`,
      met: yes(pure.nsPerDecision < 300),
    });
  }
  const after = [
    ...(results.rateLimits?.filter((r) => r.client === 'tollgate').map((r) => r.status429AfterFirstContact) ?? []),
    ...(results.shared?.map((r) => r.bucket429s) ?? []),
  ];
  if (after.length > 0) {
    const total = after.reduce((sum, count) => sum + count, 0);
    targets.push({
      target: 'zero 429s after first contact (rate-limit and shared-store scenarios)',
      measured: String(total),
      met: yes(total === 0),
    });
  }
  const four = results.shared?.find((r) => r.scenario === 'limited' && r.processes === 4);
  if (four?.specClientSeconds !== undefined) {
    const ratio = four.specClientSeconds / four.spanSeconds;
    targets.push({
      target: '4 processes on Redis ≥ 0.9× a spec client (time of a zero-latency client / span)',
      measured: `${fixed(ratio, 2)}×`,
      met: yes(ratio >= 0.9),
    });
  }
  if (results.globalPace) {
    const worst = Math.min(...results.globalPace.map((r) => r.minimumSeconds / r.spanSeconds));
    const limited = results.globalPace.reduce((sum, r) => sum + r.status429, 0);
    targets.push({
      target: 'v10 global pace over 4 and 8 processes on Redis: ≥ 0.97 of the least time, zero 429s',
      measured: `${fixed(worst, 3)}, ${limited} 429s`,
      met: yes(worst >= 0.97 && limited === 0),
    });
  }
  if (results.v10) {
    const ours = results.v10.filter((r) => r.client === 'tollgate');
    const worst = Math.min(...ours.map((r) => r.minimumSeconds / r.spanSeconds));
    targets.push({
      target: `v10, ${LATENCY_MS} ms latency: ≥ 0.95 of the least time the limits allow (worst scenario)`,
      measured: fixed(worst, 3),
      met: yes(worst >= 0.95),
    });
    const global = ours.find((r) => r.scenario === 'global');
    if (global)
      targets.push({
        target: 'v10 global pace: ≥ 0.97 of the least time, zero global 429s',
        measured: `${fixed(global.minimumSeconds / global.spanSeconds, 3)}, ${global.global429} global 429s`,
        met: yes(global.minimumSeconds / global.spanSeconds >= 0.97 && global.global429 === 0),
      });
    const after = ours.reduce((sum, r) => sum + r.status429AfterFirstContact, 0);
    targets.push({ target: 'v10: zero 429s after first contact', measured: String(after), met: yes(after === 0) });
    const versus = ours.map((r) => {
      const peer = results.v10!.find((p) => p.scenario === r.scenario && p.client === '@discordjs/rest')!;
      return `${r.scenario} ${fixed(r.spanSeconds, 2)} vs ${fixed(peer.spanSeconds, 2)} s`;
    });
    const ahead = ours.every((r) => {
      const peer = results.v10!.find((p) => p.scenario === r.scenario && p.client === '@discordjs/rest')!;
      return r.spanSeconds <= peer.spanSeconds * 1.01;
    });
    targets.push({
      target: 'v10: ahead of @discordjs/rest (span; within 1 % counts as even)',
      measured: versus.join('; '),
      met: yes(ahead),
    });
  }
  if (results.memory) {
    targets.push({
      target: 'bucket map bounded over a million distinct ids',
      measured: `${fixed(results.memory.heapPerBucketBytes)} B/bucket; most held in the long run ${results.memory.longRunMostBuckets}`,
      met: yes(
        results.memory.bucketsAfterShed <= 1 && results.memory.longRunMostBuckets < results.memory.longRunIds / 100,
      ),
    });
  }
  if (results.pagination) {
    const { walk } = results.pagination;
    const ratio = walk.minimumSeconds / walk.spanSeconds;
    targets.push({
      target: 'walking 10 000 messages at 5 requests a second: ≥ 0.95 of the least time, no 429',
      measured: `${fixed(ratio, 3)} (${fixed(walk.spanSeconds, 2)} s for ${fixed(walk.minimumSeconds)} s), ${walk.status429} 429s`,
      met: yes(ratio >= 0.95 && walk.status429 === 0),
    });
    const growth = heapGrowth(results.pagination);
    targets.push({
      target: 'walking 100 000 items lazily: the heap does not grow with them (< 1 MiB from 10 000 to 100 000)',
      measured: `${fixed(growth, 2)} MiB`,
      met: yes(growth < 1),
    });
  }
  if (results.cloudflare) {
    const largest = Math.max(...results.cloudflare.bundles.map((bundle) => bundle.gzipKiB));
    targets.push({
      target: "a Worker with tollgate far under Workers' 3 MB gzipped (free plan): < 10 % of it",
      measured: `${fixed(largest, 1)} KiB gzipped`,
      met: yes(largest < 0.1 * 3 * 1024),
    });
    const object = results.cloudflare.runs.find((run) => run.store === 'durable-object');
    if (object) {
      targets.push({
        target: 'Durable Object store: 2 object calls per request (admit, settle), no 429',
        measured: `${fixed(object.objectCallsPerRequest, 2)} calls, ${object.status429} 429s`,
        met: yes(object.objectCallsPerRequest <= 2 && object.status429 === 0),
      });
    }
  }
  if (results.discordjs) {
    const bridged = results.discordjs.filter((r) => r.client !== 'plain @discordjs/rest');
    const ratios = bridged.map((r) => r.leastSeconds / r.spanSeconds);
    const status429 = bridged.reduce((sum, r) => sum + r.bucket429s + r.global429s, 0);
    targets.push({
      target:
        'discord.js fleet (4 processes) through tollgate/discordjs: ≥ 0.95 of the least time in every run, zero 429s',
      measured: `${ratios.map((ratio) => fixed(ratio, 3)).join(', ')}; ${status429} 429s`,
      met: yes(ratios.length > 0 && ratios.every((ratio) => ratio >= 0.95) && status429 === 0),
    });
  }
  if (results.proxy) {
    const { throughput, latency, replicas } = results.proxy;
    const ours = throughput.find((t) => t.proxy === 'tollgate proxy' && t.tokens === 1);
    const theirs = throughput.find((t) => t.proxy === '@discordjs/proxy');
    if (ours && theirs) {
      targets.push({
        target: 'tollgate proxy ≥ @discordjs/proxy requests/s on one token',
        measured: `${fixed(ours.requestsPerSecond / theirs.requestsPerSecond, 2)}× (${fixed(ours.requestsPerSecond, 0)} vs ${fixed(theirs.requestsPerSecond, 0)})`,
        met: yes(ours.requestsPerSecond >= theirs.requestsPerSecond),
      });
    }
    const at250 = (proxy: string) => latency.find((l) => l.proxy === proxy && l.rate === 250);
    const [ours250, theirs250] = [at250('tollgate proxy'), at250('@discordjs/proxy')];
    if (ours250 && theirs250) {
      targets.push({
        target: "tollgate proxy: p99 added latency at 250 requests/s ≤ 2× @discordjs/proxy's, same run",
        measured: `${fixed(ours250.addedP99Ms, 2)} vs ${fixed(theirs250.addedP99Ms, 2)} ms (p99 ${fixed(ours250.p99Ms, 2)} vs ${fixed(theirs250.p99Ms, 2)} ms)`,
        met: yes(ours250.addedP99Ms <= 2 * theirs250.addedP99Ms),
      });
    }
    const added = latency.find((l) => l.proxy === 'tollgate proxy' && l.rate === 1000);
    if (added) {
      targets.push({
        target: 'tollgate proxy: p99 added latency < 2 ms at 1000 requests/s',
        measured: `${fixed(added.addedP99Ms, 2)} ms`,
        met: yes(added.addedP99Ms < 2),
      });
    }
    targets.push({
      target: 'two proxy replicas on one Redis, 40 ms: ≥ 0.97 of the safe bound of the global limit, zero 429s',
      measured: `${fixed(replicas.ofSafe, 3)} (${fixed(replicas.ofLeast, 3)} of the least at 0 ms), ${replicas.status429} 429s`,
      met: yes(replicas.ofSafe >= 0.97 && replicas.status429 === 0),
    });
  }
  return targets;
}

/** Rewrites docs/benchmarks.md between its bench markers with the latest tables (a Markdown copy of them). */
async function updateBenchmarksDoc(
  {
    decision,
    overhead,
    overheadBaseline,
    rateLimits,
    shared,
    globalPace,
    memory,
    tokenClients,
    v10,
    pagination,
    cloudflare,
    discordjs,
    proxy,
    interactions,
  }: Latest,
  targets: Target[],
): Promise<void> {
  const docPath = join(root, 'docs', 'benchmarks.md');
  const doc = await readFile(docPath, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to < from) throw new Error('docs/benchmarks.md: the bench markers are missing');
  const sections: string[] = [];
  sections.push('**Targets**\n\n' + markdownTable(targets.map((t) => ({ ...t }))));
  if (overhead) {
    sections.push(
      '**Overhead** (requests/s, 32 callers, the upstream in its own process; every client in its own process, taking turns; the change against the committed baseline)\n\n' +
        markdownTable(overhead.results.map((r) => overheadRow(r, overheadBaseline))) +
        '\n\n' +
        markdownTable(overhead.ratios.map((r) => ratioRow(r, overheadBaseline))),
    );
  }
  if (decision)
    sections.push(
      '**Decision cost**\n\n' +
        markdownTable(decision.map((r) => ({ task: r.name, 'ns/decision': fixed(r.nsPerDecision, 1) }))),
    );
  if (rateLimits) {
    const { buckets, requestsPerBucket, callers, limit } = SCENARIO;
    sections.push(
      `**Rate limits** (${buckets} buckets × ${requestsPerBucket} requests, ${callers} callers, limit ${limit.limit} per ${limit.windowMs} ms)\n\n` +
        markdownTable(rateLimits.map((r) => rateLimitRow(r))) +
        '\n\n![Requests accepted over time: tollgate and @discordjs/rest against what the limits and the spec allow](https://raw.githubusercontent.com/tollgate-dev/tollgate/main/bench/results/rate-limits.svg)',
    );
  }
  if (shared)
    sections.push(
      '**Shared store** (processes on one Redis, 4 buckets)\n\n' + markdownTable(shared.map((r) => sharedRow(r))),
    );
  if (globalPace)
    sections.push(
      '**Shared store, v10 global pace** (one token over processes on one Redis; 100 calls per process, each on a channel of its own; global 50 per second)\n\n' +
        markdownTable(globalPace.map((r) => globalPaceRow(r))),
    );
  if (memory)
    sections.push('**Memory** (memory store, a million distinct channel ids)\n\n' + markdownTable([memoryRow(memory)]));
  if (tokenClients)
    sections.push(
      "**Memory, `withToken`** (a client's heap per user's token, every lane kept; then more tokens in turn, 10 ms apart, with `maxTokens` lanes kept)\n\n" +
        markdownTable([tokenMemoryRow(tokenClients)]),
    );
  if (v10)
    sections.push(
      `**The v10 service** (${LATENCY_MS} ms latency; per-route: 4 channels × 15 message creates at 5 per 5 s; shared hash: reaction PUT/DELETE on 2 channels; global: 150 reads at 50 per second)\n\n` +
        markdownTable(v10.map((r) => v10Row(r))),
    );
  if (pagination)
    sections.push(
      '**Paged lists** (10 000 messages of one channel, 5 requests a second; the heap after a full collection while walking 100 000 items)\n\n' +
        markdownTable([paginationRow(pagination)]),
    );
  if (cloudflare)
    sections.push(
      '**Cloudflare Workers** (workerd in miniflare; bundles as wrangler bundles them; calls one after the other on one token, the Durable Object in the same workerd process)\n\n' +
        markdownTable(
          cloudflare.bundles.map((b) => ({
            worker: b.worker,
            'minified (KiB)': b.minifiedKiB,
            'gzipped (KiB)': b.gzipKiB,
          })),
        ) +
        '\n\n' +
        markdownTable(cloudflareRows(cloudflare)),
    );
  if (discordjs)
    sections.push(
      '**discord.js fleet** (4 processes of one bot, @discordjs/core on @discordjs/rest, 240 message creates in 8 channels at once; 5 per channel a second, 50 a second for the token; plain, and through tollgate/discordjs on one Redis)\n\n' +
        markdownTable(discordjs.map((r) => discordjsRow(r))),
    );
  if (proxy)
    sections.push(
      '**Proxy** (`tollgate proxy` beside @discordjs/proxy, each in its own process before an upstream that answers at once; 32 callers; one token in turns, three rounds, the median round; added latency at 250, 500 and 1000 requests/s against the upstream direct at the same rate; memory after 1 and 1000 tokens (resident, the proxy; heap, its relay in-process, and the store’s views after 10 000 tokens in turn); two replicas on one Redis, one token, 250 requests on distinct channels at 40 ms, the global limit of 50 a second binding, three runs; the safe bound waits a round trip a window)\n\n' +
        proxyTables(proxy)
          .map((table) => markdownTable(table))
          .join('\n\n'),
    );
  if (interactions)
    sections.push(
      `**Interactions** (tollgate/interactions' Node handler on loopback, ${interactions.requests} signed PINGs one after another, each verified in full, after a warm-up)\n\n` +
        markdownTable([interactionsRow(interactions)]),
    );
  const body = `\n_Latest \`npm run bench\`: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}/${process.arch}._\n\n${sections.join('\n\n')}\n`;
  await writeFile(docPath, doc.slice(0, from + start.length) + body + doc.slice(to));
}

function markdownTable(rows: readonly Record<string, string | number>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const line = (cells: readonly (string | number)[]) =>
    `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`;
  return [
    line(columns),
    line(columns.map(() => '---')),
    ...rows.map((row) => line(columns.map((column) => row[column] ?? ''))),
  ].join('\n');
}
