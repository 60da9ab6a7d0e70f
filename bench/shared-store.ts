/**
 * Shared store: 1, 2 and 4 processes (test/support/workers/redis-worker.ts) on one Redis against the
 * reference service. Two scenarios:
 * - limited: every bucket binds (5 per second); the aggregate must stay within the limits and
 *   reach what they allow, whatever the number of processes;
 * - overhead: limits far above what is sent; requests/s shows what the shared store costs.
 * Also: Redis round trips per request, counted by each worker's store.
 *
 * And the v10 global pace shared by many processes (`runGlobalPaceBench`): 4 processes at 20 ms
 * and 8 at 40 ms of latency, 100 calls each on one token, every call on a channel of its own so
 * that only the global limit (50 per second) binds. The span at the service (first arrival → last
 * accepted) against the least the global limit allows, and 429s.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ReferenceService, type RateLimit } from '../src/testing/index.ts';
import { specScheduleOfRun } from './rate-limits.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface SharedStoreResult {
  readonly scenario: 'limited' | 'overhead';
  readonly processes: number;
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly roundTripsPerRequest: number;
  readonly bucket429s: number;
  readonly maxPerWindow: number;
  readonly limitPerWindow: number;
  /** At the service: from the first request's arrival to the last accepted one's. */
  readonly spanSeconds: number;
  /** When a spec client would be done with the same requests from the same first arrival (limited scenario; see rate-limits.ts). */
  readonly specClientSeconds: number | undefined;
}

interface WorkerReport {
  readonly completed: number;
  readonly failures: string[];
  readonly roundTrips: number;
}

export interface GlobalPaceResult {
  readonly processes: number;
  readonly latencyMs: number;
  readonly requests: number;
  /** At the service: from the first arrival to the last accepted request. */
  readonly spanSeconds: number;
  /** The least span the global limit allows: its windows after the first. */
  readonly minimumSeconds: number;
  readonly status429: number;
  readonly global429: number;
}

/**
 * Starts one worker process per options object (test/support/workers/redis-worker.ts), lets them go at once once
 * all are ready, and collects their reports, with the seconds from "go" to the last report.
 */
async function runWorkers(
  options: readonly Record<string, unknown>[],
): Promise<{ reports: WorkerReport[]; seconds: number }> {
  const workers = options.map((worker) => {
    const child = spawn(
      process.execPath,
      [
        join(root, 'test', 'support', 'workers', 'redis-worker.ts'),
        JSON.stringify({ redisUrl: REDIS_URL, ...worker, waitForGo: true }),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
  });
  for (const { lines } of workers) await lines.next(); // ready
  const started = performance.now();
  for (const { child } of workers) child.stdin.write('go\n');
  const reports = await Promise.all(
    workers.map(async ({ lines }) => JSON.parse((await lines.next()).value as string) as WorkerReport),
  );
  const failures = reports.flatMap((report) => report.failures);
  if (failures.length > 0) throw new Error(`shared-store bench: ${failures.length} calls failed: ${failures[0]}`);
  return { reports, seconds: (performance.now() - started) / 1000 };
}

async function run(scenario: 'limited' | 'overhead', processes: number, total: number): Promise<SharedStoreResult> {
  const limit: RateLimit = scenario === 'limited' ? { limit: 5, windowMs: 1000 } : { limit: 100_000, windowMs: 1000 };
  const service = await new ReferenceService({
    api: 'v6',
    defaultLimit: limit,
    global: { limit: 1_000_000, windowMs: 1000 },
  }).start();
  const buckets = ['1', '2', '3', '4'];
  const prefix = `tollgate-bench:${randomUUID().slice(0, 8)}`;
  try {
    const { reports, seconds } = await runWorkers(
      Array.from({ length: processes }, () => ({
        baseUrl: service.baseUrl,
        prefix,
        token: 'Bot bench',
        requests: Math.floor(total / processes),
        concurrency: 16,
        buckets,
      })),
    );
    const completed = reports.reduce((sum, report) => sum + report.completed, 0);
    const firstAt = service.requests[0]!.at;
    const accepted = service.requests.filter((request) => request.status < 400);
    const roundTrips = reports.reduce((sum, report) => sum + report.roundTrips - 1, 0); // less each connect's PING
    return {
      scenario,
      processes,
      requests: completed,
      seconds,
      requestsPerSecond: completed / seconds,
      roundTripsPerRequest: roundTrips / completed,
      bucket429s: service.requests.filter((request) => request.status === 429 && !request.global).length,
      maxPerWindow: Math.max(...buckets.map((channel) => service.maxPerWindow(`ChannelsId:${channel}`))),
      limitPerWindow: limit.limit,
      spanSeconds: (accepted.at(-1)!.at - firstAt) / 1000,
      specClientSeconds:
        scenario === 'limited' ? (specScheduleOfRun(service.requests, limit).at(-1)! - firstAt) / 1000 : undefined,
    };
  } finally {
    await service.stop();
  }
}

export async function runSharedStoreBench(): Promise<SharedStoreResult[]> {
  const results: SharedStoreResult[] = [];
  for (const processes of [1, 2, 4]) results.push(await run('limited', processes, 80));
  for (const processes of [1, 2, 4]) results.push(await run('overhead', processes, 2000));
  return results;
}

const GLOBAL: RateLimit = { limit: 50, windowMs: 1000 };
const CALLS_PER_PROCESS = 100;

async function runGlobalPace(processes: number, latencyMs: number): Promise<GlobalPaceResult> {
  const service = await new ReferenceService({
    api: 'v10',
    defaultLimit: { limit: 5, windowMs: 5000 },
    global: GLOBAL,
    latencyMs,
  }).start();
  const prefix = `tollgate-bench:${randomUUID().slice(0, 8)}`;
  try {
    await runWorkers(
      Array.from({ length: processes }, (_, worker) => ({
        baseUrl: service.baseUrl,
        prefix,
        token: 'Bot bench-global',
        requests: CALLS_PER_PROCESS,
        concurrency: 25,
        // A channel of its own for every call: only the global limit binds.
        buckets: Array.from({ length: CALLS_PER_PROCESS }, (_, call) => String(500_000 + worker * 1000 + call)),
      })),
    );
    const requests = service.requests;
    const accepted = requests.filter((request) => request.status < 400);
    const limited = requests.filter((request) => request.status === 429);
    const total = processes * CALLS_PER_PROCESS;
    return {
      processes,
      latencyMs,
      requests: requests.length,
      spanSeconds: (accepted.at(-1)!.at - requests[0]!.at) / 1000,
      minimumSeconds: ((Math.ceil(total / GLOBAL.limit) - 1) * GLOBAL.windowMs) / 1000,
      status429: limited.length,
      global429: limited.filter((request) => request.global).length,
    };
  } finally {
    await service.stop();
  }
}

export async function runGlobalPaceBench(): Promise<GlobalPaceResult[]> {
  return [await runGlobalPace(4, 20), await runGlobalPace(8, 40)];
}
