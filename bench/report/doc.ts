/**
 * The report in docs/benchmarks.md: between its bench markers, the targets and a Markdown copy of
 * every suite's tables (the console's rows, rows.ts), one section a suite, from the latest results.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { SCENARIO } from '../rate-limits.ts';
import { LATENCY_MS } from '../v10.ts';
import type { Latest, Target } from './latest.ts';
import {
  cloudflareRows,
  discordjsRow,
  fixed,
  globalPaceRow,
  interactionsRow,
  memoryRow,
  overheadRow,
  paginationRow,
  proxyTables,
  rateLimitRow,
  ratioRow,
  sharedRow,
  tokenMemoryRow,
  v10Row,
} from './rows.ts';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** One suite's section: its caption and tables, or undefined when the suite has no results. */
type Section = (latest: Latest) => string | undefined;

/** A caption, then its tables (or the chart), a blank line apart. */
function section(caption: string, ...tables: string[]): string {
  return [caption, ...tables].join('\n\n');
}

/** Each suite's section, in the doc's order (after the targets). */
const SECTIONS: readonly Section[] = [
  ({ overhead, overheadBaseline }) =>
    overhead &&
    section(
      '**Overhead** (requests/s, 32 callers, the upstream in its own process; every client in its own process, taking turns; the change against the committed baseline)',
      markdownTable(overhead.results.map((r) => overheadRow(r, overheadBaseline))),
      markdownTable(overhead.ratios.map((r) => ratioRow(r, overheadBaseline))),
    ),
  ({ decision }) =>
    decision &&
    section(
      '**Decision cost**',
      markdownTable(decision.map((r) => ({ task: r.name, 'ns/decision': fixed(r.nsPerDecision, 1) }))),
    ),
  ({ rateLimits }) =>
    rateLimits &&
    section(
      `**Rate limits** (${SCENARIO.buckets} buckets × ${SCENARIO.requestsPerBucket} requests, ${SCENARIO.callers} callers, limit ${SCENARIO.limit.limit} per ${SCENARIO.limit.windowMs} ms)`,
      markdownTable(rateLimits.map((r) => rateLimitRow(r))),
      '![Requests accepted over time: tollgate and @discordjs/rest against what the limits and the spec allow](https://raw.githubusercontent.com/tollgate-dev/tollgate/main/bench/results/rate-limits.svg)',
    ),
  ({ shared }) =>
    shared &&
    section('**Shared store** (processes on one Redis, 4 buckets)', markdownTable(shared.map((r) => sharedRow(r)))),
  ({ globalPace }) =>
    globalPace &&
    section(
      '**Shared store, v10 global pace** (one token over processes on one Redis; 100 calls per process, each on a channel of its own; global 50 per second)',
      markdownTable(globalPace.map((r) => globalPaceRow(r))),
    ),
  ({ memory }) =>
    memory && section('**Memory** (memory store, a million distinct channel ids)', markdownTable([memoryRow(memory)])),
  ({ tokenClients }) =>
    tokenClients &&
    section(
      "**Memory, `withToken`** (a client's heap per user's token, every lane kept; then more tokens in turn, 10 ms apart, with `maxTokens` lanes kept)",
      markdownTable([tokenMemoryRow(tokenClients)]),
    ),
  ({ v10 }) =>
    v10 &&
    section(
      `**The v10 service** (${LATENCY_MS} ms latency; per-route: 4 channels × 15 message creates at 5 per 5 s; shared hash: reaction PUT/DELETE on 2 channels; global: 150 reads at 50 per second)`,
      markdownTable(v10.map((r) => v10Row(r))),
    ),
  ({ pagination }) =>
    pagination &&
    section(
      '**Paged lists** (10 000 messages of one channel, 5 requests a second; the heap after a full collection while walking 100 000 items)',
      markdownTable([paginationRow(pagination)]),
    ),
  ({ cloudflare }) =>
    cloudflare &&
    section(
      '**Cloudflare Workers** (workerd in miniflare; bundles as wrangler bundles them; calls one after the other on one token, the Durable Object in the same workerd process)',
      markdownTable(
        cloudflare.bundles.map((b) => ({
          worker: b.worker,
          'minified (KiB)': b.minifiedKiB,
          'gzipped (KiB)': b.gzipKiB,
        })),
      ),
      markdownTable(cloudflareRows(cloudflare)),
    ),
  ({ discordjs }) =>
    discordjs &&
    section(
      '**discord.js fleet** (4 processes of one bot, @discordjs/core on @discordjs/rest, 240 message creates in 10 channels at once; 5 per channel each 5 s, 50 a second for the token; plain, and through tollgate/discordjs on one Redis)',
      markdownTable(discordjs.map((r) => discordjsRow(r))),
    ),
  ({ proxy }) =>
    proxy &&
    section(
      '**Proxy** (`tollgate proxy` beside @discordjs/proxy, each in its own process before an upstream that answers at once; 32 callers; one token in turns, three rounds, the median round; added latency at 250, 500 and 1000 requests/s against the upstream direct at the same rate; memory after 1 and 1000 tokens (resident, the proxy; heap, its relay in-process, and the store’s views after 10 000 tokens in turn); two replicas on one Redis, one token, 250 requests on distinct channels at 40 ms, the global limit of 50 a second binding, three runs; the safe bound waits a round trip a window)',
      ...proxyTables(proxy).map((table) => markdownTable(table)),
    ),
  ({ interactions }) =>
    interactions &&
    section(
      `**Interactions** (tollgate/interactions' Node handler on loopback, ${interactions.requests} signed PINGs one after another, each verified in full, after a warm-up)`,
      markdownTable([interactionsRow(interactions)]),
    ),
];

/**
 * What goes between the bench markers: `stamp` (the run's date and platform), the targets, then
 * every suite's section that has results.
 */
export function benchSection(latest: Latest, targets: readonly Target[], stamp: string): string {
  const sections = [
    section('**Targets**', markdownTable(targets.map((t) => ({ ...t })))),
    ...SECTIONS.map((of) => of(latest)).filter((text) => text !== undefined),
  ];
  return `\n_Latest \`npm run bench\`: ${stamp}._\n\n${sections.join('\n\n')}\n`;
}

/** `doc` before and after what is between its bench markers (the markers kept). */
function splitAtBenchMarkers(doc: string): { readonly before: string; readonly after: string } {
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from === -1 || to < from) throw new Error('docs/benchmarks.md: the bench markers are missing');
  return { before: doc.slice(0, from + START.length), after: doc.slice(to) };
}

/** Rewrites docs/benchmarks.md (`docPath`) between its bench markers with the latest tables (a Markdown copy of them). */
export async function updateBenchmarksDoc(docPath: string, latest: Latest, targets: readonly Target[]): Promise<void> {
  const { before, after } = splitAtBenchMarkers(await readFile(docPath, 'utf8'));
  const stamp = `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}/${process.arch}`;
  await writeFile(docPath, before + benchSection(latest, targets, stamp) + after);
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
