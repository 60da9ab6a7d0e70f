/**
 * `npm run bench` (never part of `npm test`): every suite of bench/, one after the other, in one
 * run, so the ratios compare figures from the same machine and moment. Prints tables, writes
 * JSON and the chart to bench/results/, and rewrites the results section of docs/benchmarks.md.
 * This is the entry point (which suites, in turn, printed and saved); the report's rows, targets
 * and the doc's section are bench/report/'s.
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
import { runCloudflareBench } from '../bench/cloudflare.ts';
import { runDecisionBench } from '../bench/decision.ts';
import { BRIDGED_RUNS, runDiscordjsFleetBench } from '../bench/discordjs.ts';
import { INTERACTIONS_REQUESTS, runInteractionsBench } from '../bench/interactions.ts';
import { runProxyBench, type ProxyBenchResult } from '../bench/proxy.ts';
import { runMemoryBench } from '../bench/memory.ts';
import { runTokenClientsMemoryBench } from '../bench/token-clients-memory.ts';
import { runOverheadBench } from '../bench/overhead.ts';
import { runPaginationMemory, runPaginationWalk } from '../bench/pagination.ts';
import { runRateLimitBench, SCENARIO } from '../bench/rate-limits.ts';
import { updateBenchmarksDoc } from '../bench/report/doc.ts';
import { loadLatest, OVERHEAD_BASELINE, type Overhead } from '../bench/report/latest.ts';
import * as rows from '../bench/report/rows.ts';
import { summarise } from '../bench/report/targets.ts';
import { runGlobalPaceBench, runSharedStoreBench } from '../bench/shared-store.ts';
import { LATENCY_MS, runV10Bench } from '../bench/v10.ts';

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

if (suites.has('decision')) {
  console.log(
    "\n1. Decision cost: pre-check + post-update, memory store, and a typed call's v10 route (tinybench, 1000 per sample)",
  );
  const decisions = await runDecisionBench();
  console.table(decisions.map((r) => rows.decisionRow(r)));
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
  console.table(overhead.results.map((r) => rows.overheadRow(r, baseline)));
  console.table(overhead.ratios.map((r) => rows.ratioRow(r, baseline)));
}

if (suites.has('rate-limits')) {
  const { buckets, requestsPerBucket, callers, limit } = SCENARIO;
  console.log(
    `\n3. Rate limits: ${buckets} buckets × ${requestsPerBucket} requests, ${callers} callers, limit ${limit.limit} per ${limit.windowMs} ms`,
  );
  const runs = await runRateLimitBench();
  console.table(runs.map((r) => rows.rateLimitRow(r)));
  await save('rate-limits', runs);
  await writeFile(join(resultsDir, 'rate-limits.svg'), await renderRateLimitChart(runs, SCENARIO));
  console.log(`→ ${join('bench', 'results', 'rate-limits.svg')}`);
}

if (suites.has('shared-store')) {
  console.log('\n4. Shared store: processes on one Redis against the reference service (4 buckets)');
  const shared = await runSharedStoreBench();
  console.table(shared.map((r) => rows.sharedRow(r)));
  await save('shared-store', shared);
  console.log("\n4b. Shared store, v10: one token's global pace (50 per second) over 4 and 8 processes");
  const globalPace = await runGlobalPaceBench();
  console.table(globalPace.map((r) => rows.globalPaceRow(r)));
  await save('shared-store-global', globalPace);
}

if (suites.has('memory')) {
  console.log('\n5. Memory: a million distinct channel ids through the limiter (memory store)');
  const memory = await runMemoryBench();
  console.table([rows.memoryRow(memory)]);
  await save('memory', memory);
  console.log("\n5b. Memory: a client's withToken, 1000 users' tokens kept, then 2000 more in turn (maxTokens 1000)");
  const tokenClients = await runTokenClientsMemoryBench();
  console.table([rows.tokenMemoryRow(tokenClients)]);
  await save('memory-tokens', tokenClients);
}

if (suites.has('v10')) {
  console.log(`\n6. The v10 service, ${LATENCY_MS} ms latency: time against the least the limits allow, and 429s`);
  const v10 = await runV10Bench();
  console.table(v10.runs.map((r) => rows.v10Row(r)));
  await save('v10', v10);
}

if (suites.has('pagination')) {
  console.log('\n7. Paged lists: 10 000 messages at 5 requests a second; the heap while walking 100 000 items');
  const walk = await runPaginationWalk();
  const memory = await runPaginationMemory();
  console.table([rows.paginationRow({ walk, memory })]);
  await save('pagination', { walk, memory });
}

if (suites.has('cloudflare')) {
  console.log('\n8. Cloudflare Workers (workerd in miniflare): bundle sizes; a Durable Object store against memory');
  const cloudflare = await runCloudflareBench();
  console.table(cloudflare.bundles);
  console.table(rows.cloudflareRows(cloudflare));
  await save('cloudflare', cloudflare);
}

if (suites.has('discordjs')) {
  console.log(
    `\n9. discord.js fleet: 4 processes of one bot, 240 message creates in 10 channels (5 per channel each 5 s, 50 a second for the token), plain once and through tollgate/discordjs on one Redis ${BRIDGED_RUNS} times`,
  );
  const fleet = await runDiscordjsFleetBench();
  console.table(fleet.map((r) => rows.discordjsRow(r)));
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
  console.table([rows.interactionsRow(interactions)]);
  await save('interactions', interactions);
}

// The targets, from the latest results of every suite (this run's where it ran them).
const latest = await loadLatest(load);
const targets = summarise(latest);
console.log('\nTargets');
console.table(targets);
await save('targets', targets);
await updateBenchmarksDoc(join(root, 'docs', 'benchmarks.md'), latest, targets);
console.log(`\nbench finished in ${rows.fixed((performance.now() - benchStarted) / 1000, 1)} s`);

function printProxy(r: ProxyBenchResult): void {
  for (const table of rows.proxyTables(r)) console.table(table);
}
