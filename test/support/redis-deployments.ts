/**
 * The three ways to run Redis behind a RedisStore, for test files that run on each: a single node
 * (REDIS_URL, the store's own connection), Sentinel and a Cluster (each started for the file by
 * `redis-processes.ts`, the store on an ioredis client of ours). Call `redisDeploymentsForFile()`
 * at the top level of a file: it starts the Sentinel set-up and the Cluster in a beforeAll, and
 * after the file closes every store and client and stops the processes (the single node's keys are
 * dropped). A deployment that does not come up fails the file; nothing is skipped.
 */
import { Redis, type Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { RedisStore, type RedisStoreOptions } from '../../src/redis/index.ts';
import { connectedStore, dropPrefix, rawRedis, REDIS_URL, testPrefix } from './redis.ts';
import {
  startRedisCluster,
  startRedisSentinel,
  type Address,
  type RedisClusterProcesses,
  type RedisSentinelProcesses,
} from './redis-processes.ts';

export type DeploymentKind = 'single node' | 'Sentinel' | 'Cluster';

/** What test/support/workers/redis-worker.ts takes to reach a deployment (merged into its JSON options). */
export type WorkerRedis =
  | { readonly redisUrl: string }
  | { readonly redisSentinel: { readonly sentinels: readonly Address[]; readonly name: string } }
  | { readonly redisCluster: readonly Address[] };

export type StoreOptions = Omit<RedisStoreOptions, 'url' | 'client'>;

export interface RedisDeployment {
  readonly kind: DeploymentKind;
  /**
   * A connected store under a fresh prefix (or `options.prefix`, to share another store's keys:
   * another process on the same Redis); closed after the file.
   */
  store(name: string, options?: StoreOptions): Promise<RedisStore>;
  /**
   * A fresh key prefix for stores made elsewhere (another process): on the single node its keys
   * are dropped after the file.
   */
  prefix(name: string): string;
  /** A new ioredis client on the deployment (lazy unless told otherwise); closed after the file. */
  client(options?: RedisOptions & ClusterOptions): Redis | Cluster;
  /** Every key matching `pattern` (on a Cluster, from every master). */
  keys(pattern: string): Promise<string[]>;
  /** What test/support/workers/redis-worker.ts needs to reach this deployment. */
  worker(): WorkerRedis;
  /** The Sentinel set-up's processes (Sentinel only). */
  readonly sentinel?: RedisSentinelProcesses;
  /** The Cluster's processes (Cluster only). */
  readonly cluster?: RedisClusterProcesses;
}

/** Starting both deployments, in parallel, is bounded by this (ms). */
const START_TIMEOUT_MS = 45_000;

/**
 * The single node, Sentinel and Cluster deployments for this file, in that order. Call at the top
 * level of the file (it registers a beforeAll and an afterAll); use the deployments in tests.
 */
export function redisDeploymentsForFile(): readonly [RedisDeployment, RedisDeployment, RedisDeployment] {
  let sentinel: RedisSentinelProcesses | undefined;
  let cluster: RedisClusterProcesses | undefined;
  const stores: RedisStore[] = [];
  const clients: (Redis | Cluster)[] = [];
  const singlePrefixes: string[] = [];

  beforeAll(async () => {
    const [sentinelStarted, clusterStarted] = await Promise.allSettled([
      startRedisSentinel({ timeoutMs: START_TIMEOUT_MS - 5_000 }),
      startRedisCluster({ timeoutMs: START_TIMEOUT_MS - 5_000 }),
    ]);
    if (sentinelStarted.status === 'fulfilled') sentinel = sentinelStarted.value;
    if (clusterStarted.status === 'fulfilled') cluster = clusterStarted.value;
    const failed = [sentinelStarted, clusterStarted].filter((result) => result.status === 'rejected');
    if (failed.length > 0) {
      await Promise.all([sentinel?.stop(), cluster?.stop()]);
      throw new Error(
        `These tests start a Redis Sentinel set-up and a Redis Cluster (redis-server and redis-cli on PATH): ` +
          failed.map((result) => String((result as PromiseRejectedResult).reason?.message)).join('\n'),
        { cause: (failed[0] as PromiseRejectedResult).reason },
      );
    }
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    try {
      await Promise.all(stores.map((store) => store.close()));
      for (const client of clients) client.disconnect();
      if (singlePrefixes.length > 0) {
        const redis = rawRedis();
        try {
          for (const prefix of singlePrefixes) await dropPrefix(redis, prefix);
        } finally {
          redis.disconnect();
        }
      }
    } finally {
      await Promise.all([sentinel?.stop(), cluster?.stop()]);
    }
  }, 30_000);

  const started = <T>(what: T | undefined, name: string): T => {
    if (!what)
      throw new Error(`the ${name} deployment is used before its beforeAll started it (or it failed to start)`);
    return what;
  };
  const keep = <C extends Redis | Cluster>(client: C): C => {
    client.on('error', () => {}); // a failover's errors reach the calls; no unhandled 'error' events
    clients.push(client);
    return client;
  };
  const onClient = async (
    kind: DeploymentKind,
    client: Redis | Cluster,
    name: string,
    options: StoreOptions,
  ): Promise<RedisStore> => {
    const store = new RedisStore({ prefix: testPrefix(name), ...options, client });
    stores.push(store);
    try {
      await store.connect();
    } catch (error) {
      throw new Error(`A store on the ${kind} deployment could not connect: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return store;
  };

  const single: RedisDeployment = {
    kind: 'single node',
    async store(name, options = {}) {
      const prefix = options.prefix ?? testPrefix(name);
      singlePrefixes.push(prefix);
      const store = await connectedStore(name, { ...options, prefix });
      stores.push(store);
      return store;
    },
    prefix(name) {
      const prefix = testPrefix(name);
      singlePrefixes.push(prefix);
      return prefix;
    },
    client: (options) => keep(new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, ...options })),
    async keys(pattern) {
      const redis = rawRedis();
      try {
        return await scanKeys(redis, pattern);
      } finally {
        redis.disconnect();
      }
    },
    worker: () => ({ redisUrl: REDIS_URL }),
  };

  const onSentinel: RedisDeployment = {
    kind: 'Sentinel',
    get sentinel() {
      return started(sentinel, 'Sentinel');
    },
    store(name, options = {}) {
      return onClient('Sentinel', this.client(), name, options);
    },
    prefix: (name) => testPrefix(name),
    client: (options) => keep(started(sentinel, 'Sentinel').client({ lazyConnect: true, ...options })),
    async keys(pattern) {
      const redis = started(sentinel, 'Sentinel').client();
      try {
        return await scanKeys(redis, pattern);
      } finally {
        redis.disconnect();
      }
    },
    worker: () => {
      const { sentinels, masterName } = started(sentinel, 'Sentinel');
      return { redisSentinel: { sentinels, name: masterName } };
    },
  };

  const onCluster: RedisDeployment = {
    kind: 'Cluster',
    get cluster() {
      return started(cluster, 'Cluster');
    },
    store(name, options = {}) {
      return onClient('Cluster', this.client(), name, options);
    },
    prefix: (name) => testPrefix(name),
    client: (options) => keep(started(cluster, 'Cluster').client({ lazyConnect: true, ...options })),
    async keys(pattern) {
      const client = started(cluster, 'Cluster').client({ lazyConnect: true });
      try {
        await client.connect();
        const keys = await Promise.all(client.nodes('master').map((node) => scanKeys(node, pattern)));
        return keys.flat();
      } finally {
        client.disconnect();
      }
    },
    worker: () => ({ redisCluster: started(cluster, 'Cluster').nodes }),
  };

  return [single, onSentinel, onCluster];
}

/** Every key matching `pattern` on one server (bounded scan). */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  for (let round = 0; round < 1000; round++) {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    keys.push(...found);
    cursor = next;
    if (cursor === '0') break;
  }
  return keys;
}
