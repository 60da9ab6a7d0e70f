/**
 * RedisStore on any ioredis client: a single node, Sentinel or a Cluster (the last two started for
 * this file), handed over lazy, connecting, ready or reconnecting; a closed one or an unreachable
 * one is a clear StoreUnavailableError, in bounded time. Pub/sub wakes another store on each
 * deployment. Last, a failover under way on Sentinel and on the Cluster: calls succeed, or fail
 * with StoreUnavailableError (never anything else), and go on against the new master.
 */
import { once } from 'node:events';
import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import type { StoreEvent, StoreView } from '../../src/contracts/store.ts';
import type { V10Bucket } from '../../src/dialects/v10/route.ts';
import type { V10Settings } from '../../src/dialects/v10/settings.ts';
import { RedisConnection } from '../../src/redis/connection.ts';
import { namespaceOf } from '../../src/redis/keys.ts';
import { RedisStore, StoreUnavailableError } from '../../src/redis/index.ts';
import { freePorts, type Address } from '../support/redis-processes.ts';
import { REDIS_URL, testPrefix } from '../support/redis.ts';
import { redisDeploymentsForFile, type RedisDeployment } from '../support/redis-deployments.ts';
import { V6_VIEW_REQUEST } from '../../src/dialects/v6/index.ts';
import { v10ViewRequest } from '../../src/dialects/v10/index.ts';

const deployments = redisDeploymentsForFile();
const [single, sentinel, cluster] = deployments;
const FUTURE = Math.floor(Date.now() / 1000) + 3600;
const SETTINGS: V10Settings = { globalLimit: 50, resetMarginMs: 50, globalMarginMs: 50, invalidRequestLimit: 100 };

type State = 'lazy' | 'connecting' | 'ready' | 'reconnecting';

/** A client of the deployment in the given state (closed after the file). */
async function clientIn(deployment: RedisDeployment, state: State): Promise<Redis | Cluster> {
  const client = deployment.client({ lazyConnect: state === 'lazy' });
  if (state === 'lazy') {
    expect(client.status).toBe('wait');
    return client;
  }
  if (state === 'connecting') {
    expect(client.status).toBe('connecting');
    return client;
  }
  await once(client, 'ready');
  if (state === 'reconnecting') {
    client.disconnect(true); // ioredis closes the connection and opens it again
    await once(client, 'reconnecting');
    expect(client.status).toBe('reconnecting');
  }
  return client;
}

describe.each(deployments.map((deployment) => [deployment.kind, deployment] as const))(
  'a client of a %s, in any state',
  (_, deployment) => {
    it.for(['lazy', 'connecting', 'ready', 'reconnecting'] as const)(
      '%s: the store connects, decides, and its events reach another process',
      async (state) => {
        const prefix = testPrefix('states');
        const store = new RedisStore({ client: await clientIn(deployment, state), prefix });
        // Another process on the same keys, listening on the token's channel.
        const other = await deployment.store('states', { prefix });
        const heard: StoreEvent[] = [];
        other.view(V6_VIEW_REQUEST, 'Bot states', systemClock).subscribe((event) => heard.push(event));
        await other.connect();
        const view = store.view(V6_VIEW_REQUEST, 'Bot states', systemClock);
        const admission = await view.admit({ bucketKey: 'B' });
        if (admission.kind !== 'grant') throw new Error(`expected a grant, got ${admission.kind}`);
        await view.settle({ bucketKey: 'B' }, admission.reservation, { limit: 5, remaining: 4, reset: FUTURE });
        expect(await view.get({ bucketKey: 'B' })).toEqual({ limit: 5, remaining: 4, reset: FUTURE });
        await expect.poll(() => heard, { timeout: 2000 }).toContainEqual({ kind: 'bucket', bucketKey: 'B' });
        await store.close();
      },
    );

    it('closed by its owner: a clear StoreUnavailableError, saying so', async () => {
      const client = await clientIn(deployment, 'ready');
      const ended = once(client, 'end');
      client.disconnect();
      await ended;
      const store = new RedisStore({ client, prefix: testPrefix('closed') });
      const error = await store.connect().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/^the given Redis (connection|Cluster).* is closed \(status "end"\)/);
      await store.close();
    });
  },
);

describe('connections that cannot be made', () => {
  it('a Cluster with no node up: "no cluster node answers", at once', async () => {
    const [port] = await freePorts(1);
    const client = new Cluster([{ host: '127.0.0.1', port: port! }], {
      lazyConnect: true,
      clusterRetryStrategy: () => null,
    });
    client.on('error', () => {});
    const store = new RedisStore({ client, prefix: testPrefix('no-cluster') });
    const started = Date.now();
    await expect(store.connect()).rejects.toThrow(
      /^the given Redis Cluster is unreachable \(no cluster node answers\): calls that need it fail/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    await store.close();
    client.disconnect();
  });

  it('Sentinel with no sentinel up: bounded, "no sentinel answers"', async () => {
    const [port] = await freePorts(1);
    const client = new Redis({ sentinels: [{ host: '127.0.0.1', port: port! }], name: 'mymaster', lazyConnect: true });
    client.on('error', () => {});
    const connection = new RedisConnection(client, 'the given Redis connection', {}, async () => {}, {
      owned: false,
      readyTimeoutMs: 300,
    });
    const started = Date.now();
    await expect(connection.connect()).rejects.toThrow(
      /^the given Redis connection is unreachable \(no sentinel answers; not ready within 0\.3 s, status "connecting"\)/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    client.disconnect();
  });

  it("the store's own connection, closed: opened again on the next call", async () => {
    const store = await single.store('own-closed');
    const view = store.view(V6_VIEW_REQUEST, 'Bot own', systemClock);
    await view.admit({ bucketKey: 'B' });
    await store.close();
    expect((await view.admit({ bucketKey: 'C' })).kind).toBe('grant');
  });

  it.for([
    ["READONLY You can't write against a read only replica.", 'the server is a replica now: a failover is under way'],
    ['CLUSTERDOWN The cluster is down', 'the cluster is down'],
    ['TRYAGAIN Multiple keys request during rehashing of slot', 'the cluster is moving the slot'],
    [
      "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
      'the replica has lost its master',
    ],
    ['LOADING Redis is loading the dataset in memory', 'Redis is loading its data'],
    [
      'Too many Cluster redirections. Last error: ReplyError: MOVED 15557 127.0.0.1:7001',
      'the cluster is failing over or moving slots',
    ],
    ['Failed to refresh slots cache.', 'no cluster node answers'],
    ['All sentinels are unreachable. Retrying from scratch after 10ms.', 'no sentinel answers'],
    [
      'Reached the max retries per request limit (which is 20). Refer to "maxRetriesPerRequest" option for details.',
      'connection lost',
    ],
  ] as const)('a failure mid-failover is StoreUnavailableError: %s', async ([message, reason]) => {
    const client = new Redis(REDIS_URL, { lazyConnect: true });
    const connection = new RedisConnection(client, 'Redis', {}, async () => {}, { owned: false });
    try {
      const error = await connection.call(() => Promise.reject(new Error(message))).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toContain(`Redis is unreachable (${reason}): `);
    } finally {
      client.disconnect();
    }
  });
});

const TARGET: V10Bucket = {
  bucketKey: 'GET /channels/:id channels/1',
  route: 'GET /channels/:id',
  resource: 'channels/1',
  exempt: false,
  webhookWithToken: false,
};

/**
 * Calls in a loop on a v10 view (every key of its token under the token's hash tag: one slot) through
 * `during` and a moment after; what each call gave, counted.
 */
async function callsThrough(
  view: StoreView<V10Bucket>,
  during: () => Promise<unknown>,
): Promise<{ ok: number; unavailable: number; other: string[] }> {
  const outcome = { ok: 0, unavailable: 0, other: [] as string[] };
  let done = false;
  const loop = (async () => {
    while (!done) {
      try {
        const admission = await view.admit(TARGET);
        if (admission.kind === 'grant') await view.release(TARGET, admission.reservation);
        outcome.ok += 1;
      } catch (error) {
        if (error instanceof StoreUnavailableError) outcome.unavailable += 1;
        else outcome.other.push(String(error));
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await during();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = outcome.ok;
  await new Promise((resolve) => setTimeout(resolve, 300));
  done = true;
  await loop;
  expect(outcome.ok - before, 'calls succeed again after the failover').toBeGreaterThan(0);
  return outcome;
}

/**
 * A store calling through `failover` (given a key in the slot of the token's keys, it answers
 * their new master), and
 * another process on its keys listening: no call fails but with StoreUnavailableError, the keys
 * are written on the new master after, and its events still reach the listener.
 */
async function throughFailover(
  deployment: RedisDeployment,
  failover: (tokenKey: string) => Promise<Address>,
): Promise<void> {
  const store = await deployment.store('failover');
  const listener = await deployment.store('failover', { prefix: store.prefix });
  const heard: StoreEvent[] = [];
  listener.view(v10ViewRequest(SETTINGS), 'Bot failover', systemClock).subscribe((event) => heard.push(event));
  const view = store.view(v10ViewRequest(SETTINGS), 'Bot failover', systemClock) as StoreView<V10Bucket>;
  let master: Address | undefined;
  const outcome = await callsThrough(view, async () => {
    master = await failover(namespaceOf(store.prefix, 'Bot failover', store.ipGroup));
  });
  expect(outcome.other).toEqual([]);
  const redis = new Redis({ host: master!.host, port: master!.port, lazyConnect: true });
  try {
    expect(await redis.info('replication')).toMatch(/role:master/);
    await redis.del(...(await redis.keys(`${store.prefix}:*`)));
    heard.length = 0;
    const admission = await view.admit(TARGET);
    if (admission.kind !== 'grant') throw new Error(`expected a grant, got ${admission.kind}`);
    await view.settle(TARGET, admission.reservation, { limit: 5, remaining: 4, windowLeftMs: 5000 });
    expect((await redis.keys(`${store.prefix}:*`)).length).toBeGreaterThan(0);
    await expect.poll(() => heard.length, { timeout: 3000 }).toBeGreaterThan(0);
  } finally {
    redis.disconnect();
  }
}

// Last in the file: they change which server is master.
describe('a failover under way: calls go on against the new master, and pub/sub with them', () => {
  it('Sentinel (SENTINEL FAILOVER)', { timeout: 30_000 }, async () => {
    const before = await sentinel.sentinel!.master();
    await throughFailover(sentinel, async () => {
      const after = await sentinel.sentinel!.failover();
      expect(after.port).not.toBe(before.port);
      return after;
    });
  });

  it("Cluster (CLUSTER FAILOVER on the slot of the token's keys)", { timeout: 30_000 }, async () => {
    await throughFailover(cluster, async (tokenKey) => {
      const { from, to } = await cluster.cluster!.failover(tokenKey);
      expect(to.port).not.toBe(from.port);
      return to;
    });
  });
});
