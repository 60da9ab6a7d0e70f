/**
 * The discord.js fleet (`npm run bench -- discordjs`): four processes of one bot, each
 * @discordjs/core on @discordjs/rest, create 240 messages in the same ten channels at once, plain
 * once and through tollgate/discordjs on one Redis five times, against the reference service
 * speaking Discord's headers (5 per channel each 5 s, as Discord limits a channel's message
 * creates; 50 a second for the token). What each run drew (429s, by scope), and how long it took
 * against the least its limits allow.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DiscordjsWorkerReport } from '../test/support/workers/discordjs-worker.ts';
import { ReferenceService } from '../src/testing/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNELS = Array.from({ length: 10 }, (_, i) => String(81384788765712384n + BigInt(i)));
const PER_WINDOW = 5;
const WINDOW_MS = 5000;
const GLOBAL = 50;
const PROCESSES = 4;
const MESSAGES = 240;
/** Runs through tollgate/discordjs: the goal holds in every one. */
export const BRIDGED_RUNS = 5;

export interface DiscordjsFleetResult {
  readonly client: 'plain @discordjs/rest' | '@discordjs/rest + tollgate/discordjs (Redis)';
  /** Which run of its client (1, 2, …). */
  readonly run: number;
  readonly processes: number;
  readonly messages: number;
  readonly latencyMs: number;
  /** 429s the service answered: bucket or sublimit ones, and global ones. */
  readonly bucket429s: number;
  readonly global429s: number;
  readonly failures: number;
  /** From the first request the service saw to the last it accepted. */
  readonly spanSeconds: number;
  /** The least the limits allow: the last window either limit needs opens this long after the first. */
  readonly leastSeconds: number;
}

/**
 * The least the limits allow, in s: the last window the busiest channel needs opens this long
 * after its first (each worker spreads its creates over the channels in turn), or the global's.
 */
export function leastSecondsOf(processes: number, messages: number): number {
  const perChannel = new Map<number, number>();
  for (let process = 0; process < processes; process++) {
    for (let index = 0; index < messages / processes; index++) {
      const channel = index % CHANNELS.length;
      perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
    }
  }
  const busiest = Math.max(...perChannel.values());
  const windowsMs = (Math.ceil(busiest / PER_WINDOW) - 1) * WINDOW_MS;
  const globalMs = (Math.ceil(messages / GLOBAL) - 1) * 1000;
  return Math.max(windowsMs, globalMs) / 1000;
}

async function fleet(bridged: boolean, run: number, processes: number, messages: number, latencyMs: number) {
  const service = await new ReferenceService({
    dialect: 'discord',
    latencyMs,
    defaultLimit: { limit: PER_WINDOW, windowMs: WINDOW_MS },
    global: { limit: GLOBAL, windowMs: 1000 },
  }).start();
  try {
    const options = {
      apiRoot: service.baseUrl.replace(/\/v10$/, ''),
      redisUrl: REDIS_URL,
      prefix: `tollgate-bench:${randomUUID().slice(0, 8)}`,
      token: 'ODQ1NTY0ODc2NTQzMjE5NTIw.bench.discordjs',
      requests: messages / processes,
      channels: CHANNELS,
      bridged,
      waitForGo: true,
    };
    const workers = Array.from({ length: processes }, () => {
      const child = spawn(
        process.execPath,
        [join(root, 'test', 'support', 'workers', 'discordjs-worker.ts'), JSON.stringify(options)],
        {
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      );
      return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
    });
    for (const { lines } of workers) await lines.next(); // ready
    for (const { child } of workers) child.stdin.write('go\n');
    const reports = await Promise.all(
      workers.map(async ({ lines }) => JSON.parse((await lines.next()).value as string) as DiscordjsWorkerReport),
    );
    const accepted = service.requests.filter((request) => request.status < 400);
    const result: DiscordjsFleetResult = {
      client: bridged ? '@discordjs/rest + tollgate/discordjs (Redis)' : 'plain @discordjs/rest',
      run,
      processes,
      messages,
      latencyMs,
      bucket429s: service.requests.filter((request) => request.status === 429 && !request.global).length,
      global429s: service.requests.filter((request) => request.status === 429 && request.global).length,
      failures: reports.reduce((sum, report) => sum + report.failures.length, 0),
      spanSeconds: (accepted.at(-1)!.at - service.requests[0]!.at) / 1000,
      leastSeconds: leastSecondsOf(processes, messages),
    };
    return result;
  } finally {
    await service.stop();
  }
}

export async function runDiscordjsFleetBench(): Promise<DiscordjsFleetResult[]> {
  const results: DiscordjsFleetResult[] = [await fleet(false, 1, PROCESSES, MESSAGES, 0)];
  for (let run = 1; run <= BRIDGED_RUNS; run++) results.push(await fleet(true, run, PROCESSES, MESSAGES, 0));
  return results;
}
