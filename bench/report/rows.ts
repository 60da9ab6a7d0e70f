/**
 * The report's rows: one suite's results as the rows of a table, the same for the console
 * (`console.table`) and for docs/benchmarks.md (doc.ts).
 */
import type { CloudflareResult } from '../cloudflare.ts';
import type { DecisionResult } from '../decision.ts';
import type { DiscordjsFleetResult } from '../discordjs.ts';
import type { InteractionsBenchResult } from '../interactions.ts';
import type { MemoryResult } from '../memory.ts';
import type { OverheadRatio, OverheadResult } from '../overhead.ts';
import type { ProxyBenchResult } from '../proxy.ts';
import type { RateLimitRun } from '../rate-limits.ts';
import type { GlobalPaceResult, SharedStoreResult } from '../shared-store.ts';
import type { TokenMemoryResult } from '../token-memory.ts';
import type { V10Run } from '../v10.ts';
import type { Overhead, PaginationResult } from './latest.ts';

export const fixed = (value: number, digits = 0) => value.toFixed(digits);

export function decisionRow(r: DecisionResult) {
  return {
    task: r.name,
    'ns/decision': fixed(r.nsPerDecision, 1),
    '±%': fixed(r.relativeMarginPercent, 2),
    samples: r.samples,
  };
}

export function rateLimitRow(r: RateLimitRun) {
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

export function proxyTables(r: ProxyBenchResult) {
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

export function discordjsRow(r: DiscordjsFleetResult) {
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

export function v10Row(r: V10Run) {
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

export function sharedRow(r: SharedStoreResult) {
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

export function globalPaceRow(r: GlobalPaceResult) {
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

export function paginationRow(r: PaginationResult) {
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

export function interactionsRow(r: InteractionsBenchResult) {
  return { requests: r.requests, 'p50 ms': fixed(r.p50Ms, 3), 'p99 ms': fixed(r.p99Ms, 3), 'not PONG': r.failures };
}

export function tokenMemoryRow(r: TokenMemoryResult) {
  return {
    tokens: r.tokens,
    'heap KiB/token': fixed(r.heapKiBPerToken, 1),
    [`views held after ${r.churnTokens} more`]: r.viewsHeldAfterChurn,
    'heap after (MiB)': fixed(r.heapMiBAfterChurn, 1),
  };
}

export function memoryRow(r: MemoryResult) {
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

export function overheadRow(r: OverheadResult, baseline: Overhead | undefined) {
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

export function ratioRow(r: OverheadRatio, baseline: Overhead | undefined) {
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

export function cloudflareRows(r: CloudflareResult) {
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
