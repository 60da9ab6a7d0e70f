/**
 * One process of a shared-store run: a client on a RedisStore drives a burst against a base URL
 * and prints one JSON line with what it saw. Used by the multi-process tests and the benchmark.
 *
 *   node scripts/redis-worker.ts '{"baseUrl":…,"redisUrl":…,"prefix":…,"token":…,"requests":20,
 *                                  "concurrency":8,"buckets":["1","2"],"waitForGo":true}'
 * With waitForGo it prints {"ready":true} once connected and starts on a line "go" on stdin. The
 * base URL picks the dialect (…/v10: v10, with an optional "globalLimit"). Instead of "redisUrl",
 * "redisSentinel": {"sentinels":[{"host":…,"port":…}],"name":"mymaster"} or "redisCluster":
 * [{"host":…,"port":…}, …] reach Redis through Sentinel or a Cluster.
 */
import { createInterface } from 'node:readline';
import { Cluster, Redis } from 'ioredis';
import { createClient, type WaitEvent } from '../src/index.ts';
import { RedisStore } from '../src/redis/index.ts';

interface WorkerOptions {
  readonly baseUrl: string;
  readonly redisUrl?: string;
  readonly redisSentinel?: { readonly sentinels: { host: string; port: number }[]; readonly name: string };
  readonly redisCluster?: { host: string; port: number }[];
  readonly prefix: string;
  readonly token: string;
  readonly requests: number;
  readonly concurrency: number;
  /** Channel ids to spread calls over (one bucket each). */
  readonly buckets: readonly string[];
  readonly waitForGo?: boolean;
  /** v10 (a base URL ending /v10): the token's global limit per second. */
  readonly globalLimit?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
const redis = options.redisCluster
  ? new Cluster(options.redisCluster, { lazyConnect: true })
  : options.redisSentinel
    ? new Redis({ ...options.redisSentinel, failoverDetector: true, lazyConnect: true })
    : undefined;
const store = new RedisStore({ ...(redis ? { client: redis } : { url: options.redisUrl }), prefix: options.prefix });
await store.connect();
const waits: Record<string, number> = {};
const client = createClient({
  baseUrl: options.baseUrl,
  token: options.token,
  store,
  ...(options.globalLimit !== undefined && { globalLimit: options.globalLimit }),
  onWait: (event: WaitEvent) => {
    waits[event.reason] = (waits[event.reason] ?? 0) + 1;
  },
});
if (options.waitForGo) {
  console.log(JSON.stringify({ ready: true }));
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;
  lines.close();
}
const started = performance.now();
let next = 0;
let completed = 0;
const failures: string[] = [];
await Promise.all(
  Array.from({ length: options.concurrency }, async () => {
    while (next < options.requests) {
      const index = next++;
      const channel = options.buckets[index % options.buckets.length]!;
      try {
        await client.channels.get(channel);
        completed += 1;
      } catch (error) {
        failures.push(String(error));
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ completed, failures, waits, seconds, roundTrips: store.roundTrips }));
await client.close();
await store.close();
redis?.disconnect();
