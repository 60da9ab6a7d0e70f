/**
 * Four discord.js processes (one bot, one token) on one Redis, bursting message creates into the
 * same channels and into the global limit, against the reference service speaking Discord's
 * headers: through tollgate/discordjs, zero 429s; plain @discordjs/rest, each process keeping its
 * limits to itself, draws 429s from half that load already (the control: the load is one that
 * needs sharing; `npm run bench -- discordjs` compares the four side by side). Real processes and real time: what is asserted
 * does not depend on the machine's speed.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ReferenceService } from '../../src/testing/index.ts';
import type { DiscordjsWorkerReport } from '../support/workers/discordjs-worker.ts';
import { REDIS_URL, connectedStore, testPrefix } from '../support/redis.ts';

const root = join(import.meta.dirname, '..', '..');
const TOKEN = 'ODQ1NTY0ODc2NTQzMjE5NTIw.fleet.discordjs';
const CHANNELS = Array.from({ length: 8 }, (_, i) => String(81384788765712384n + BigInt(i)));
const PROCESSES = 4;
const REQUESTS = 25;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fleetRun(
  bridged: boolean,
  processes: number,
): Promise<{ service: ReferenceService; reports: DiscordjsWorkerReport[] }> {
  const service = await new ReferenceService({
    dialect: 'discord',
    defaultLimit: { limit: 5, windowMs: 1000 },
    global: { limit: 50, windowMs: 1000 },
  }).start();
  cleanups.push(() => service.stop());
  const options = {
    apiRoot: service.baseUrl.replace(/\/v10$/, ''),
    redisUrl: REDIS_URL,
    prefix: testPrefix('discordjs-fleet'),
    token: TOKEN,
    requests: REQUESTS,
    channels: CHANNELS,
    bridged,
    waitForGo: true,
  };
  const workers = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, ['test/support/workers/discordjs-worker.ts', JSON.stringify(options)], {
      cwd: root,
    });
    cleanups.push(() => void child.kill());
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`a worker ended early: ${stderr}`);
      return JSON.parse(line.value as string) as unknown;
    };
    return { child, next };
  });
  for (const worker of workers) expect(await worker.next()).toEqual({ ready: true });
  for (const { child } of workers) child.stdin.write('go\n');
  const reports = (await Promise.all(workers.map((worker) => worker.next()))) as DiscordjsWorkerReport[];
  return { service, reports };
}

describe('four discord.js processes on one Redis', () => {
  it('through tollgate/discordjs: every message made, zero 429s', { timeout: 60_000 }, async () => {
    // Redis must be there: the test fails, never skips, without it.
    await (await connectedStore('discordjs-fleet-check')).close();
    const { service, reports } = await fleetRun(true, PROCESSES);
    for (const report of reports) {
      expect(report.failures).toEqual([]);
      expect(report.completed).toBe(REQUESTS);
    }
    expect(service.messages).toHaveLength(PROCESSES * REQUESTS);
    // The service counts each bucket in fixed windows and the global limit per second, and
    // answers 429 past either: none means no window went over. (Its sliding count,
    // maxPerWindow, does not apply: REST sends a bucket's requests one at a time, so a window's
    // five spread over it, and the next window's first can follow within a second of them.)
    expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
  });

  // Two processes are enough to show the load needs sharing (the bench compares all four).
  it('plain @discordjs/rest, half the processes: 429s (the control)', { timeout: 60_000 }, async () => {
    const { service, reports } = await fleetRun(false, 2);
    expect(reports.reduce((sum, report) => sum + report.completed, 0)).toBe(2 * REQUESTS);
    expect(service.requests.filter((request) => request.status === 429).length).toBeGreaterThan(0);
  });
});
