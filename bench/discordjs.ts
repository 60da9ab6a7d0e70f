/**
 * The discord.js fleet (`npm run bench -- discordjs`): four processes of one bot, each
 * @discordjs/core on @discordjs/rest, create messages in the same eight channels at once, plain
 * and through tollgate/discordjs on one Redis, against the reference service speaking Discord's
 * headers (5 per channel a second, 50 a second for the token, `latencyMs` of round trip). What
 * each run drew (429s, by scope), and how long it took against the least its limits allow.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DiscordjsWorkerReport } from '../scripts/discordjs-worker.ts';
import { ReferenceService } from '../src/testing/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNELS = Array.from({ length: 8 }, (_, i) => String(81384788765712384n + BigInt(i)));
const PER_CHANNEL = 5;
const GLOBAL = 50;

export interface DiscordjsFleetResult {
  readonly client: 'plain @discordjs/rest' | '@discordjs/rest + tollgate/discordjs (Redis)';
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

async function fleet(bridged: boolean, processes: number, messages: number, latencyMs: number) {
  const service = await new ReferenceService({
    dialect: 'discord',
    latencyMs,
    defaultLimit: { limit: PER_CHANNEL, windowMs: 1000 },
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
      const child = spawn(process.execPath, [join(root, 'scripts', 'discordjs-worker.ts'), JSON.stringify(options)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
    });
    for (const { lines } of workers) await lines.next(); // ready
    for (const { child } of workers) child.stdin.write('go\n');
    const reports = await Promise.all(
      workers.map(async ({ lines }) => JSON.parse((await lines.next()).value as string) as DiscordjsWorkerReport),
    );
    const accepted = service.requests.filter((request) => request.status < 400);
    const perChannel = Math.ceil(messages / CHANNELS.length);
    const result: DiscordjsFleetResult = {
      client: bridged ? '@discordjs/rest + tollgate/discordjs (Redis)' : 'plain @discordjs/rest',
      processes,
      messages,
      latencyMs,
      bucket429s: service.requests.filter((request) => request.status === 429 && !request.global).length,
      global429s: service.requests.filter((request) => request.status === 429 && request.global).length,
      failures: reports.reduce((sum, report) => sum + report.failures.length, 0),
      spanSeconds: (accepted.at(-1)!.at - service.requests[0]!.at) / 1000,
      leastSeconds: Math.max(Math.ceil(perChannel / PER_CHANNEL), Math.ceil(messages / GLOBAL)) - 1,
    };
    return result;
  } finally {
    await service.stop();
  }
}

export async function runDiscordjsFleetBench(): Promise<DiscordjsFleetResult[]> {
  const results: DiscordjsFleetResult[] = [];
  for (const latencyMs of [0, 40]) {
    for (const bridged of [false, true]) results.push(await fleet(bridged, 4, 240, latencyMs));
  }
  return results;
}
