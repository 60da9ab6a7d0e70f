/**
 * Failover under load: four worker processes create messages steadily (v10, the reference
 * service, one token, one RedisStore prefix) while the master holding the store's v10 keys is
 * killed outright (SIGKILL, by the pid the test started it with), on a Cluster and on Sentinel.
 * Both `onUnavailable` modes run side by side through the same kill, each with a service and a
 * prefix of its own (on the Cluster, the token's keys under both prefixes are in one slot, on the
 * master that dies).
 *
 * What it holds to:
 * - every call settles within a bound (its maxWait, its timeout and two store decisions held by
 *   ioredis), and fails only with StoreUnavailableError or RateLimitWaitError ('fail'), or
 *   RateLimitWaitError alone ('local', where Redis away means deciding locally);
 * - no message is made twice: creates go without `enforce_nonce`, so a resend would be a second
 *   message with the same content; every call that resolved made its message, and a message
 *   whose call failed is one a StoreUnavailableError reached after the service answered (a call
 *   in flight when the master died: its settle could not be written);
 * - no 429 before the kill; after it, bucket and global 429s within the bounds of `bounds()`
 *   (docs/redis.md states them with these figures), and calls go on once the new master serves.
 * The figures are logged (`[failover]` lines: shown when a test fails, or with TOLLGATE_TEST_LOG=1).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ReferenceService } from '../../src/testing/index.ts';
import { namespaceOf } from '../../src/redis/keys.ts';
import { testPrefix } from '../support/redis.ts';
import { redisDeploymentsForFile, type RedisDeployment } from '../support/redis-deployments.ts';
import type { Address } from '../support/redis-processes.ts';
import { testLog } from '../support/test-log.ts';

const root = join(import.meta.dirname, '..', '..');
const TOKEN = 'Bot failover-token';
const [, sentinel, cluster] = redisDeploymentsForFile();
const cleanups: (() => Promise<void> | void)[] = [];
/** The `[failover]` figures: shown when a test fails, or with TOLLGATE_TEST_LOG=1. */
const log = testLog();
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Mode = 'fail' | 'local';
const MODES: readonly Mode[] = ['fail', 'local'];
const WORKERS = 4;
/** Two channels, two buckets of 5 a second: sixteen lanes (4 a process) keep both full. */
const CHANNELS = ['1', '2'] as const;
const BUCKET = { limit: 5, windowMs: 1000 };
const GLOBAL = { limit: 50, windowMs: 1000 };
const LANES = 4;
/** A lane starts a call at most this often (a failing call is not retried at once). */
const PACE_MS = 100;
const MAX_WAIT_MS = 5000;
const TIMEOUT_MS = 2000;
/**
 * The longest one store decision is held while the master is away: on a Cluster ioredis follows
 * redirections for about 1 s, then fails the command; through Sentinel it queues it until the new
 * master answers (about 2 s after the kill here, `down-after-milliseconds` 1000).
 */
const STORE_STALL_MS = 2500;
/** A call waits its maxWait at most, then one attempt (timeout), with an admission and a settle held. */
const CALL_BOUND_MS = MAX_WAIT_MS + TIMEOUT_MS + 2 * STORE_STALL_MS;
/** Workers report calls still unsettled this long after the load ends as pending (which fails the test). */
const DRAIN_MS = CALL_BOUND_MS;
/** The load runs this long before the kill. */
const WARM_MS = 3000;
/** The load goes on at least this long after the new master serves. */
const AFTER_MS = 3000;

const ALLOWED: Record<Mode, readonly string[]> = {
  fail: ['StoreUnavailableError', 'RateLimitWaitError'],
  local: ['RateLimitWaitError'],
};

interface Report {
  readonly completed: number;
  readonly errors: Record<string, number>;
  readonly examples: Record<string, string>;
  readonly resolved: string[];
  /** id, error name, start (epoch ms), duration (ms). */
  readonly failed: [id: string, error: string, at: number, ms: number][];
  readonly slowestMs: number;
  readonly pending: number;
  readonly reopened: number;
}

/** One process of test/support/workers/redis-worker.ts; killed after the test. */
function worker(options: object): { child: ChildProcessWithoutNullStreams; next: () => Promise<string> } {
  const child = spawn(process.execPath, ['test/support/workers/redis-worker.ts', JSON.stringify(options)], {
    cwd: root,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    next: async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`a worker ended without a line: ${stderr.slice(-2000)}`);
      return line.value as string;
    },
  };
}

/** `promise`, or a clear failure after `ms`: nothing here waits unbounded. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} in ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function poll(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

interface Failover {
  /** Kills the master of the token's keys; resolves once a new master serves them (bounded). */
  kill(prefixes: Record<Mode, string>): Promise<Address>;
}

interface Run {
  readonly mode: Mode;
  readonly service: ReferenceService;
  readonly reports: Report[];
}

interface Timeline {
  readonly killedAt: number;
  /** When the new master was seen serving the keys. */
  readonly electedAt: number;
  /** When the workers stopped starting calls. */
  readonly endsAt: number;
}

/** Workers of both modes under load, the kill in the middle; every report back, bounded. */
async function underFailover(
  deployment: RedisDeployment,
  failover: Failover,
  durationMs: number,
): Promise<{ runs: Run[]; timeline: Timeline }> {
  // The token's keys share its hash tag under either prefix: on a Cluster both modes meet one failover.
  const prefixes = { fail: testPrefix('failover-fail'), local: testPrefix('failover-local') };
  const started = await Promise.all(
    MODES.map(async (mode) => {
      const service = await new ReferenceService({
        api: 'v10',
        routes: { 'POST /channels/:id/messages': BUCKET },
        global: GLOBAL,
      }).start();
      cleanups.push(() => service.stop());
      const workers = Array.from({ length: WORKERS }, (_, i) =>
        worker({
          baseUrl: service.baseUrl,
          ...deployment.worker(),
          prefix: prefixes[mode],
          token: TOKEN,
          call: 'message',
          label: `${mode}${i}`,
          concurrency: LANES,
          paceMs: PACE_MS,
          durationMs,
          drainMs: DRAIN_MS,
          buckets: CHANNELS,
          waitForGo: true,
          globalLimit: GLOBAL.limit,
          maxWait: MAX_WAIT_MS,
          timeout: TIMEOUT_MS,
          onUnavailable: mode,
        }),
      );
      return { mode, service, workers };
    }),
  );
  for (const { workers } of started)
    for (const { next } of workers)
      expect(JSON.parse(await within(next(), 20_000, 'ready line'))).toEqual({ ready: true });
  const goAt = Date.now();
  for (const { workers } of started) for (const { child } of workers) child.stdin.write('go\n');
  await new Promise((resolve) => setTimeout(resolve, WARM_MS));
  const killedAt = Date.now();
  await failover.kill(prefixes);
  const electedAt = Date.now();
  const endsAt = goAt + durationMs;
  expect(endsAt - electedAt, 'the load goes on for a while against the new master').toBeGreaterThanOrEqual(AFTER_MS);
  // Each worker reports by endsAt + DRAIN_MS, whatever its calls do.
  const reportBy = endsAt + DRAIN_MS + 5000 - Date.now();
  const runs = await Promise.all(
    started.map(async ({ mode, service, workers }) => ({
      mode,
      service,
      reports: await Promise.all(
        workers.map(async ({ next }) => JSON.parse(await within(next(), reportBy, 'report')) as Report),
      ),
    })),
  );
  return { runs, timeline: { killedAt, electedAt, endsAt } };
}

/** Which channel a call id (`<label>-<n>`) went to. */
const channelOf = (id: string) => CHANNELS[Number(id.split('-').at(-1)) % CHANNELS.length]!;

/** What one mode saw, summed over its workers and read off its service. */
function figures({ service, reports }: Run, { killedAt, electedAt, endsAt }: Timeline) {
  const errors: Record<string, number> = {};
  for (const report of reports)
    for (const [name, count] of Object.entries(report.errors)) errors[name] = (errors[name] ?? 0) + count;
  const resolved = reports.flatMap((report) => report.resolved);
  const failed = reports.flatMap((report) => report.failed);
  const made = service.messages.map((message) => message.content);
  const madeSet = new Set(made);
  const resolvedSet = new Set(resolved);
  const failedById = new Map(failed.map(([id, name]) => [id, name]));
  const after = service.requests.filter((request) => request.at >= killedAt);
  return {
    calls: resolved.length + failed.length,
    resolved: resolved.length,
    errors,
    pending: reports.reduce((sum, report) => sum + report.pending, 0),
    slowestMs: Math.round(Math.max(...reports.map((report) => report.slowestMs))),
    reopened: reports.reduce((sum, report) => sum + report.reopened, 0),
    messages: made.length,
    duplicates: made.length - madeSet.size,
    /** A call that resolved without its message: must not happen. */
    resolvedUnmade: resolved.filter((id) => !madeSet.has(id)).length,
    /** Messages of failed calls, by the error that reached them. */
    madeButFailed: made.filter((id) => failedById.has(id)).map((id) => failedById.get(id)!),
    /** Messages no call of this run sent: must not happen. */
    madeByNoCall: made.filter((id) => !failedById.has(id) && !resolvedSet.has(id)).length,
    /** Per channel: messages made, and calls that resolved there plus failed calls whose message was made. */
    byChannel: CHANNELS.map((channel) => ({
      made: service.createdMessages(channel).length,
      accounted:
        resolved.filter((id) => channelOf(id) === channel).length +
        made.filter((id) => failedById.has(id) && channelOf(id) === channel).length,
    })),
    answered200: service.requests.filter((request) => request.status === 200).length,
    before429: service.requests.filter((request) => request.at < killedAt && request.status === 429).length,
    bucket429: after.filter((request) => request.status === 429 && !request.global).length,
    global429: after.filter((request) => request.global).length,
    /** Messages made from a second after the new master served to the end of the load. */
    madeAfter: service.requests.filter(
      (request) => request.status === 200 && request.at >= electedAt + 1000 && request.at < endsAt,
    ).length,
    /** StoreUnavailableErrors of calls started two seconds or more after the new master served. */
    unavailableAfter: failed.filter(([, name, at]) => name === 'StoreUnavailableError' && at >= electedAt + 2000)
      .length,
    examples: Object.assign({}, ...reports.map((report) => report.examples)) as Record<string, string>,
  };
}

/**
 * The most 429s a mode may meet from the kill on.
 * - 'fail': every request is still granted by Redis. The new master holds the replica's copy,
 *   which misses at most the writes of the last moment (replication is asynchronous); a lost
 *   grant can let one more request into its window, and the grants of one window are at most its
 *   limit: one window's worth per bucket. The global pace, likewise, one second's worth.
 * - 'local': while Redis is away each of the W processes decides alone: every bucket starts
 *   unknown (one request in flight), then each spends the `remaining` the service reported, so up
 *   to (W − 1) × limit too many per window per bucket, for every window the outage touches (and
 *   one more, as Redis comes back); the global pace is each process's own, (W − 1) × the global
 *   limit too many per second.
 */
function bounds(mode: Mode, outageMs: number): { bucket: number; global: number } {
  if (mode === 'fail') return { bucket: CHANNELS.length * BUCKET.limit, global: GLOBAL.limit };
  const windows = Math.ceil(outageMs / BUCKET.windowMs) + 1;
  const seconds = Math.ceil(outageMs / GLOBAL.windowMs) + 1;
  return {
    bucket: CHANNELS.length * (WORKERS - 1) * BUCKET.limit * windows,
    global: (WORKERS - 1) * GLOBAL.limit * seconds,
  };
}

function check(kind: string, result: { runs: Run[]; timeline: Timeline }): void {
  const { runs, timeline } = result;
  const outageMs = timeline.electedAt - timeline.killedAt;
  log(
    `[failover] ${kind}: new master serving ${outageMs} ms after the kill; load on ${timeline.endsAt - timeline.electedAt} ms more`,
  );
  for (const run of runs) {
    const seen = figures(run, timeline);
    const bound = bounds(run.mode, outageMs);
    log(`[failover] ${kind} '${run.mode}': ${JSON.stringify({ ...seen, bound })}`);
    const what = `${kind}, onUnavailable '${run.mode}'`;
    // Every call settled, in time, with a result or a typed error.
    expect(seen.pending, what).toBe(0);
    expect(seen.slowestMs, what).toBeLessThanOrEqual(CALL_BOUND_MS);
    for (const name of Object.keys(seen.errors))
      expect(ALLOWED[run.mode], `${what}: ${seen.examples[name]}`).toContain(name);
    // Nothing twice; every message accounted for by a call.
    expect(seen.duplicates, what).toBe(0);
    expect(seen.answered200, what).toBe(seen.messages);
    expect(seen.resolvedUnmade, what).toBe(0);
    expect(seen.madeByNoCall, what).toBe(0);
    for (const { made, accounted } of seen.byChannel) expect(made, what).toBe(accounted);
    // Only a call in flight at the kill can fail after the service made its message: its settle is lost.
    expect(seen.madeButFailed.length, what).toBeLessThanOrEqual(run.mode === 'fail' ? WORKERS * LANES : 0);
    for (const name of seen.madeButFailed) expect(name, what).toBe('StoreUnavailableError');
    // 429s: none before; bounded after.
    expect(seen.before429, what).toBe(0);
    expect(seen.bucket429, what).toBeLessThanOrEqual(bound.bucket);
    expect(seen.global429, what).toBeLessThanOrEqual(bound.global);
    // The new master serves: calls go on at half the buckets' pace at least, and no longer fail.
    const capacity = (CHANNELS.length * BUCKET.limit * (timeline.endsAt - timeline.electedAt - 1000)) / BUCKET.windowMs;
    expect(seen.madeAfter, what).toBeGreaterThanOrEqual(capacity / 2);
    expect(seen.unavailableAfter, what).toBe(0);
    if (run.mode === 'local') expect(seen.resolved / seen.calls, `${what}: calls mostly resolve`).toBeGreaterThan(0.8);
  }
}

describe('failover under load: the master of the store killed while four processes send', () => {
  it("Cluster: SIGKILL to the master of the slot of the token's v10 keys", { timeout: 60_000 }, async () => {
    const processes = cluster.cluster!;
    const result = await underFailover(
      cluster,
      {
        async kill(prefixes) {
          const tokenKey = namespaceOf(prefixes.fail, TOKEN, 'default');
          const { address, slot } = await processes.master(tokenKey);
          await processes.kill(address);
          // Its replica is elected once the others mark it failed (cluster-node-timeout 3 s).
          await poll(`a new master of slot ${slot}`, 20_000, async () => {
            const now = await processes.master(tokenKey);
            return now.address.port !== address.port;
          });
          return address;
        },
      },
      14_000,
    );
    check('Cluster', result);
  });

  it('Sentinel: SIGKILL to the master', { timeout: 60_000 }, async () => {
    const processes = sentinel.sentinel!;
    const result = await underFailover(
      sentinel,
      {
        async kill() {
          const master = await processes.master();
          await processes.kill(master);
          // The sentinel marks it down after 1 s (down-after-milliseconds), then promotes the replica.
          await poll('the sentinel to name a new master', 20_000, async () => {
            return (await processes.master()).port !== master.port;
          });
          return master;
        },
      },
      11_000,
    );
    check('Sentinel', result);
  });
});
