/**
 * What the report is made of: the latest results of every suite, as bench/results/ keeps them
 * (`npm run bench` writes them; a run of some suites reads the others' last results back).
 */
import type { CloudflareResult } from '../cloudflare.ts';
import type { DecisionResult } from '../decision.ts';
import type { DiscordjsFleetResult } from '../discordjs.ts';
import type { InteractionsBenchResult } from '../interactions.ts';
import type { MemoryResult } from '../memory.ts';
import type { OverheadRatio, OverheadResult } from '../overhead.ts';
import type { PaginationMemoryResult, PaginationWalkResult } from '../pagination.ts';
import type { ProxyBenchResult } from '../proxy.ts';
import type { RateLimitRun } from '../rate-limits.ts';
import type { GlobalPaceResult, SharedStoreResult } from '../shared-store.ts';
import type { TokenMemoryResult } from '../token-memory.ts';
import type { V10Run } from '../v10.ts';

/** Where `--save-baseline` keeps the overhead figures later runs are compared with (bench/results/). */
export const OVERHEAD_BASELINE = 'overhead-baseline';

/** One target of the report: what is aimed at, what the latest results measure, and whether it is met. */
export interface Target {
  readonly target: string;
  readonly measured: string;
  readonly met: string;
}

/** The overhead suite's figures, and the baseline later runs are compared with (`--save-baseline`). */
export interface Overhead {
  readonly results: OverheadResult[];
  readonly ratios: OverheadRatio[];
}

/** The paged lists suite's figures: the walk at 5 requests a second, and the heap while walking. */
export interface PaginationResult {
  readonly walk: PaginationWalkResult;
  readonly memory: PaginationMemoryResult;
}

/** The latest results of every suite, from bench/results/. */
export interface Latest {
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

/** Reads a suite's saved results by its file's name in bench/results/ (undefined: never saved). */
export type LoadResults = <T>(name: string) => Promise<T | undefined>;

/** The latest results of every suite, each read by its file's name. */
export async function loadLatest(load: LoadResults): Promise<Latest> {
  return {
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
}
