/**
 * Sharing buckets through Redis against the reference service over real HTTP: several clients in
 * one process, several Node processes (on a single node, on Sentinel and on a Cluster, the last
 * two started for this file), skewed clocks, Redis lost and restarted. Redis decides by its own
 * clock, so these run in real time; what they assert (no 429, no window over its limit) does not
 * depend on how fast the machine is.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import { createClient, type TollgateClient } from '../../src/index.ts';
import { RedisStore, StoreUnavailableError } from '../../src/redis/index.ts';
import { ReferenceService } from '../../src/testing/index.ts';
import { startE2E } from '../support/e2e.ts';
import { connectedStore, testPrefix } from '../support/redis.ts';
import { redisDeploymentsForFile, type RedisDeployment } from '../support/redis-deployments.ts';
import { freePorts, startRedisServerOn, waitForRedis } from '../support/redis-processes.ts';

const root = join(import.meta.dirname, '..', '..');
const TOKEN = 'Bot shared-token';
const deployments = redisDeploymentsForFile();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const byKind = deployments.map((deployment) => [deployment.kind, deployment] as const);

async function startService(): Promise<ReferenceService> {
  const service = await new ReferenceService({
    api: 'v6',
    defaultLimit: { limit: 5, windowMs: 1000 },
    global: { limit: 1000, windowMs: 1000 },
  }).start();
  cleanups.push(() => service.stop());
  return service;
}

/** No bucket 429 (a scripted global one aside) and no window over its limit. */
function expectWithinLimits(service: ReferenceService): void {
  expect(service.requests.filter((request) => request.status === 429 && !request.global)).toEqual([]);
  for (const bucketKey of new Set(service.requests.map((request) => request.bucketKey))) {
    expect(service.maxPerWindow(bucketKey), bucketKey).toBeLessThanOrEqual(service.limitOf(bucketKey).limit);
  }
}

describe('several clients in one process on one Redis', () => {
  it('share every bucket: zero 429s, never more than the limit per window', async () => {
    const service = await startService();
    const store = await connectedStore('clients');
    cleanups.push(() => store.close());
    const clients = Array.from({ length: 3 }, () => createClient({ baseUrl: service.baseUrl, token: TOKEN, store }));
    cleanups.push(() => Promise.all(clients.map((client) => client.close())).then(() => undefined));
    const calls = Array.from({ length: 36 }, (_, i) => clients[i % 3]!.channels.get(String(1 + (i % 2))));
    const results = await Promise.allSettled(calls);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(service.requests).toHaveLength(36);
    expectWithinLimits(service);
  }, 30_000);

  it('clients whose clocks disagree by ±7 s still agree: Redis keeps the time', async () => {
    const service = await startService();
    const store = await connectedStore('skew');
    cleanups.push(() => store.close());
    const skewed = (offsetMs: number): Clock => ({
      now: () => Date.now() + offsetMs,
      setTimeout: (callback, ms) => {
        const handle = setTimeout(callback, ms);
        return () => clearTimeout(handle);
      },
    });
    const clients = [-7000, 0, 7000].map((offset) =>
      createClient({ baseUrl: service.baseUrl, token: TOKEN, store, clock: skewed(offset) }),
    );
    cleanups.push(() => Promise.all(clients.map((client) => client.close())).then(() => undefined));
    const results = await Promise.allSettled(Array.from({ length: 24 }, (_, i) => clients[i % 3]!.channels.get('1')));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expectWithinLimits(service);
  }, 30_000);
});

/** One process of test/support/workers/redis-worker.ts; killed after the test. */
function worker(options: object): { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, ['test/support/workers/redis-worker.ts', JSON.stringify(options)], {
    cwd: root,
  });
  cleanups.push(() => {
    child.kill();
  });
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

/** A worker's options: fifteen calls on the token from six lanes, spread over `buckets` (channel ids). */
function fifteenCalls(service: ReferenceService, deployment: RedisDeployment, prefix: string, buckets: string[]) {
  return {
    baseUrl: service.baseUrl,
    ...deployment.worker(),
    prefix,
    token: TOKEN,
    requests: 15,
    concurrency: 6,
    buckets,
  };
}

interface WorkerReport {
  readonly completed: number;
  readonly failures: string[];
  readonly waits: Record<string, number>;
  /** When each request left, epoch ms. */
  readonly sends: number[];
  /** Each global wait the process announced: its start (epoch ms) and length (ms). */
  readonly globalWaits: [at: number, ms: number][];
}

/** One worker per options object, all ready, then let go at once (`beforeGo` just before): their reports. */
async function runWorkers(options: readonly object[], beforeGo = () => {}): Promise<WorkerReport[]> {
  const workers = options.map((workerOptions) => worker({ ...workerOptions, waitForGo: true }));
  for (const { lines } of workers) expect(JSON.parse((await lines.next()).value as string)).toEqual({ ready: true });
  beforeGo();
  for (const { child } of workers) child.stdin.write('go\n');
  return Promise.all(
    workers.map(async ({ lines }) => JSON.parse((await lines.next()).value as string) as WorkerReport),
  );
}

// One deployment after another: side by side, twelve processes on a small machine delay requests
// admitted before the global 429 past its moment, and the test would measure the machine.
describe('several Node processes on one Redis', () => {
  it.for(byKind)(
    '%s: zero 429s, every window within its limit, and a global wait seen by all',
    { timeout: 60_000 },
    async ([, deployment]) => {
      const service = await startService();
      const prefix = deployment.prefix('processes');
      const options = fifteenCalls(service, deployment, prefix, ['1', '2', '3']);
      // The first request after "go" meets a global 429: every process must hold back.
      const reports = await runWorkers([options, options, options, options], () =>
        service.inject({ fault: { kind: 'global', retryAfterMs: 2500 } }),
      );
      for (const report of reports) {
        expect(report.failures).toEqual([]);
        expect(report.completed).toBe(15);
        expect(report.waits.global ?? 0).toBeGreaterThan(0);
      }
      expect(service.requests.filter((request) => request.global)).toHaveLength(1);
      // Once a process has heard of the global lock (from its own 429, from the store's answer or
      // from the lock's message), it sends nothing until the lock ends. Requests it let through
      // before may still be on their way: how long they take depends on the machine's load.
      for (const [index, report] of reports.entries()) {
        const sentWhileWaiting = report.sends.filter((sentAt) =>
          report.globalWaits.some(([at, ms]) => sentAt > at && sentAt < at + ms - 1),
        );
        expect(
          sentWhileWaiting,
          `process ${index}: ${JSON.stringify({ globalWaits: report.globalWaits, sends: report.sends })}`,
        ).toEqual([]);
      }
      expect(service.requests.filter((request) => request.status === 200)).toHaveLength(60);
      expectWithinLimits(service);
    },
  );
});

describe('v10: several Node processes on one Redis', () => {
  it.for(byKind)(
    '%s: share hashes, buckets and the global pace: zero 429s, no global 429, the pace held across processes',
    { timeout: 60_000 },
    async ([, deployment]) => {
      const service = await new ReferenceService({
        api: 'v10',
        defaultLimit: { limit: 5, windowMs: 1000 },
        global: { limit: 20, windowMs: 1000 },
      }).start();
      cleanups.push(() => service.stop());
      const prefix = deployment.prefix('v10-processes');
      const reports = await runWorkers(
        Array.from({ length: 4 }, () => ({
          ...fifteenCalls(service, deployment, prefix, ['1', '2', '3', '4', '5', '6']),
          globalLimit: 20,
        })),
      );
      for (const report of reports) expect(report).toMatchObject({ completed: 15, failures: [] });
      const first = service.requests[0]!.at;
      expect(
        service.requests
          .filter((request) => request.status === 429)
          .map((request) => ({ ...request, at: request.at - first })),
      ).toEqual([]);
      // 60 requests at 20 per second over four processes: the pace is one, so at least 2 s.
      const times = service.requests.map((request) => request.at);
      expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(2000);
      for (let i = 20; i < times.length; i++)
        expect(times[i]! - times[i - 20]!, `request ${i}`).toBeGreaterThanOrEqual(1000);
    },
  );
});

describe('v10: eight Node processes on one token, 40 ms from the service', () => {
  it(
    'only the global limit binds (a channel per call): zero 429s, never more than 50 in a second at the service',
    { timeout: 60_000 },
    async () => {
      const service = await new ReferenceService({
        api: 'v10',
        defaultLimit: { limit: 5, windowMs: 5000 },
        global: { limit: 50, windowMs: 1000 },
        latencyMs: 40,
      }).start();
      cleanups.push(() => service.stop());
      const [singleNode] = deployments;
      const prefix = singleNode!.prefix('v10-eight');
      const reports = await runWorkers(
        Array.from({ length: 8 }, (_, index) => ({
          baseUrl: service.baseUrl,
          ...singleNode!.worker(),
          prefix,
          token: TOKEN,
          requests: 25,
          concurrency: 25,
          buckets: Array.from({ length: 25 }, (_, call) => String(10_000 + index * 100 + call)),
        })),
      );
      for (const report of reports) expect(report).toMatchObject({ completed: 25, failures: [] });
      expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
      // Arrivals at the service: any 51 span more than a second.
      const times = service.requests.map((request) => request.at);
      expect(times).toHaveLength(200);
      for (let i = 50; i < times.length; i++)
        expect(times[i]! - times[i - 50]!, `request ${i}`).toBeGreaterThanOrEqual(1000);
    },
  );
});

describe('v10: calls without Authorization on one Redis', () => {
  it("share the IP's budget across clients of different tokens (V13)", async () => {
    const e2e = await startE2E({
      api: 'v10',
      global: { limit: 10, windowMs: 1000 },
      defaultLimit: { limit: 50, windowMs: 1000 },
    });
    cleanups.push(() => e2e.stop());
    // On the file's single node: its keys go after the file.
    const store = await deployments[0].store('v10-per-ip', { time: 'client' });
    const clients = ['Bot first-token', 'Bot second-token'].map((token) =>
      e2e.newClient({ token, store, globalLimit: 10 }),
    );
    const guild = (i: number) => String(41771983423143937n + BigInt(i));
    const calls = clients.flatMap((client, c) =>
      Array.from({ length: 8 }, (_, i) => client.guilds.widgetJson.get(guild(c * 8 + i))),
    );
    const results = await e2e.drive<unknown>(calls, 20);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    // 16 calls, one budget of 10 per second between the two clients: 6 wait for the next second.
    const times = e2e.service.requests.map((request) => request.at - e2e.service.requests[0]!.at);
    expect(times.filter((at) => at === 0)).toHaveLength(10);
    expect(times.filter((at) => at >= 1000)).toHaveLength(6);
  });
});

describe('Redis faults', () => {
  it('Redis unreachable at start: a clear error, and no request is sent', async () => {
    const port = (await freePorts(1))[0]!;
    const store = new RedisStore({ url: `redis://127.0.0.1:${port}`, prefix: testPrefix('down') });
    cleanups.push(() => store.close());
    await expect(store.connect()).rejects.toThrow(new RegExp(`Redis at redis://127.0.0.1:${port}/? is unreachable`));
    const service = await startService();
    const client = createClient({ baseUrl: service.baseUrl, token: TOKEN, store });
    cleanups.push(() => client.close());
    await expect(client.gateway.get()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(service.requests).toHaveLength(0);
  });

  it('Redis stopped mid-run fails requests clearly (or falls back locally, if chosen); a restart resumes', async () => {
    const port = (await freePorts(1))[0]!;
    let server = startRedisServer(port);
    await waitForRedis(port);
    const service = await startService();
    const failing = new RedisStore({ url: `redis://127.0.0.1:${port}`, prefix: testPrefix('restart') });
    const fallback = new RedisStore({
      url: `redis://127.0.0.1:${port}`,
      prefix: testPrefix('restart'),
      onUnavailable: 'local',
    });
    cleanups.push(
      () => failing.close(),
      () => fallback.close(),
    );
    const strict: TollgateClient = createClient({ baseUrl: service.baseUrl, token: TOKEN, store: failing });
    const lenient: TollgateClient = createClient({ baseUrl: service.baseUrl, token: TOKEN, store: fallback });
    cleanups.push(
      () => strict.close(),
      () => lenient.close(),
    );
    await strict.channels.get('1');
    await lenient.channels.get('2');

    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    await expect(strict.channels.get('1')).rejects.toBeInstanceOf(StoreUnavailableError);
    const sentBefore = service.requests.length;
    await lenient.channels.get('2'); // the local limiter: one request in flight per unknown bucket
    expect(service.requests.length).toBe(sentBefore + 1);

    server = startRedisServer(port);
    await waitForRedis(port);
    let resumed = false;
    for (let attempt = 0; attempt < 100 && !resumed; attempt++) {
      try {
        await strict.channels.get('1');
        resumed = true;
      } catch (error) {
        expect(error).toBeInstanceOf(StoreUnavailableError);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(resumed).toBe(true);
    expectWithinLimits(service);
  }, 60_000);

  function startRedisServer(port: number) {
    const child = startRedisServerOn(port);
    cleanups.push(() => {
      child.kill('SIGKILL');
    });
    return child;
  }
});
