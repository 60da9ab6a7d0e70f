/**
 * One process of a shared-store run: a client on a RedisStore drives a burst against a base URL
 * and prints one JSON line with what it saw. Used by the multi-process tests and the benchmark.
 *
 *   node test/support/workers/redis-worker.ts '{"baseUrl":…,"redisUrl":…,"prefix":…,"token":…,"requests":20,
 *                                  "concurrency":8,"buckets":["1","2"],"waitForGo":true}'
 * With waitForGo it prints {"ready":true} once connected and starts on a line "go" on stdin. The
 * base URL picks the dialect (…/v10: v10, with an optional "globalLimit"). Instead of "redisUrl",
 * "redisSentinel": {"sentinels":[{"host":…,"port":…}],"name":"mymaster"} or "redisCluster":
 * [{"host":…,"port":…}, …] reach Redis through Sentinel or a Cluster.
 *
 * For a steady load (the failover tests), "durationMs" replaces "requests": each of the
 * "concurrency" lanes calls one after another, starting one at most every "paceMs", until that
 * long after the start; calls still unsettled "drainMs" later are reported as `pending`.
 * "call": "message" creates a message (content: the call's id, `enforce_nonce: false`, so it is
 * never resent) instead of getting the channel; "maxWait", "timeout" and "onUnavailable" go to
 * the client and the store. The report then has, instead of every failure's text, `errors` (count
 * by error name) and `examples` (one message of each), `resolved` (call ids), `failed` (a failed
 * call's id, error name, start in epoch ms and duration) and `slowestMs` (the longest call).
 * Otherwise it has `sends` (when each request left, epoch ms) and `globalWaits` (each global wait
 * the client announced: its start in epoch ms and its length).
 */
import { Cluster, Redis } from 'ioredis';
import { createClient, type WaitEvent } from '../../../src/index.ts';
import { RedisStore } from '../../../src/redis/index.ts';
import { readyThenGo } from './go.ts';

interface WorkerOptions {
  readonly baseUrl: string;
  readonly redisUrl?: string;
  readonly redisSentinel?: { readonly sentinels: { host: string; port: number }[]; readonly name: string };
  readonly redisCluster?: { host: string; port: number }[];
  readonly prefix: string;
  readonly token: string;
  readonly requests?: number;
  readonly concurrency: number;
  /** Channel ids to spread calls over (one bucket each). */
  readonly buckets: readonly string[];
  readonly waitForGo?: boolean;
  /** v10 (a base URL ending /v10): the token's global limit per second. */
  readonly globalLimit?: number;
  /** A steady load: lanes call until this long after the start (instead of `requests` calls). */
  readonly durationMs?: number;
  /** With durationMs: a lane starts a call at most this often (ms). Default 0. */
  readonly paceMs?: number;
  /** With durationMs: how long calls in flight at the end may take to settle. Default 30000. */
  readonly drainMs?: number;
  /** `get` (default): GET the channel; `message`: create a message in it. */
  readonly call?: 'get' | 'message';
  /** Names this worker's call ids (`<label>-<n>`). Default the pid. */
  readonly label?: string;
  readonly maxWait?: number;
  readonly timeout?: number;
  readonly onUnavailable?: 'fail' | 'local';
}

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
const redis = options.redisCluster
  ? new Cluster(options.redisCluster, { lazyConnect: true })
  : options.redisSentinel
    ? new Redis({ ...options.redisSentinel, failoverDetector: true, lazyConnect: true })
    : undefined;
// ioredis 6 ends a Sentinel connection for good when a +switch-master (failoverDetector) comes while
// it is asking the sentinel for the master on a reconnect; RedisStore does not reopen a client it
// was given. Reopened here, as docs/redis.md advises (`reopened` counts it).
let closing = false;
let reopened = 0;
if (options.redisSentinel)
  redis!.on('end', () => {
    if (closing) return;
    reopened += 1;
    setTimeout(() => void (redis as Redis).connect().catch(() => {}), 100).unref();
  });
const store = new RedisStore({
  ...(redis ? { client: redis } : { url: options.redisUrl }),
  prefix: options.prefix,
  ...(options.onUnavailable && { onUnavailable: options.onUnavailable }),
});
await store.connect();
const waits: Record<string, number> = {};
const steady = options.durationMs !== undefined;
/**
 * When each request left (epoch ms), and each global wait this process announced: [from epoch ms,
 * for ms]. A burst's report has them; a steady load's, as long as the test runs, does not, and
 * its requests go to fetch unwrapped.
 */
const sends: number[] = [];
const globalWaits: [at: number, ms: number][] = [];
const client = createClient({
  baseUrl: options.baseUrl,
  token: options.token,
  store,
  ...(!steady && {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      sends.push(Date.now());
      return fetch(input, init);
    },
  }),
  ...(options.globalLimit !== undefined && { globalLimit: options.globalLimit }),
  ...(options.maxWait !== undefined && { maxWait: options.maxWait }),
  ...(options.timeout !== undefined && { timeout: options.timeout }),
  onWait: (event: WaitEvent) => {
    waits[event.reason] = (waits[event.reason] ?? 0) + 1;
    if (event.reason === 'global') globalWaits.push([Date.now(), event.waitMs]);
  },
});
if (options.waitForGo) await readyThenGo();
const started = performance.now();
const label = options.label ?? String(process.pid);
let next = 0;
let completed = 0;
let pending = 0;
let slowestMs = 0;
const failures: string[] = [];
const errors: Record<string, number> = {};
const examples: Record<string, string> = {};
const resolved: string[] = [];
/** A failed call: its id, its error's name, when it started (epoch ms) and how long it took (ms). */
const failed: [id: string, error: string, at: number, ms: number][] = [];
const more = () => (steady ? performance.now() - started < options.durationMs! : next < (options.requests ?? 0));
const send = (channel: string, id: string) =>
  options.call === 'message'
    ? client.channels.messages.create(channel, { content: id, enforce_nonce: false })
    : client.channels.get(channel);
const lanes = Promise.all(
  Array.from({ length: options.concurrency }, async () => {
    while (more()) {
      const index = next++;
      const channel = options.buckets[index % options.buckets.length]!;
      const id = `${label}-${index}`;
      const callStarted = performance.now();
      const at = Date.now();
      pending += 1;
      try {
        await send(channel, id);
        completed += 1;
        resolved.push(id);
      } catch (error) {
        const name = error instanceof Error ? error.name : typeof error;
        if (!steady) failures.push(String(error));
        errors[name] = (errors[name] ?? 0) + 1;
        examples[name] ??= String(error);
        failed.push([id, name, at, Math.round(performance.now() - callStarted)]);
      } finally {
        pending -= 1;
        slowestMs = Math.max(slowestMs, performance.now() - callStarted);
      }
      const rest = (options.paceMs ?? 0) - (performance.now() - callStarted);
      if (steady && rest > 0 && more()) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  }),
);
if (steady) {
  // Bounded: a call that never settles is reported as pending, not waited on for ever.
  const drainedBy = started + options.durationMs! + (options.drainMs ?? 30_000);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    lanes,
    new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, drainedBy - performance.now())))),
  ]);
  clearTimeout(timer);
} else await lanes;
const seconds = (performance.now() - started) / 1000;
const report = steady
  ? {
      ...{ completed, waits, seconds, roundTrips: store.roundTrips },
      ...{ errors, examples, resolved, failed, slowestMs, pending, reopened },
    }
  : { completed, failures, waits, seconds, roundTrips: store.roundTrips, sends, globalWaits };
console.log(JSON.stringify(report));
closing = true;
await client.close();
await store.close();
redis?.disconnect();
if (steady) process.exit(0); // calls still pending (reported) must not keep the process up
