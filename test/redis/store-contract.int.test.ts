/**
 * The store contract, run against both stores, and RedisStore on each deployment (a single node,
 * Sentinel, a Cluster: started for this file): what a decision answers for each state of a
 * bucket and of the global lock. Redis decides by its own clock, so bucket resets here are far
 * in the past or the future of any clock.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { MemoryStore, type Store } from '../../src/index.ts';
import { StoreDataError } from '../../src/redis/index.ts';
import { redisDeploymentsForFile } from '../support/redis-deployments.ts';
import { keyedView, type KeyedView } from '../support/keyed-view.ts';

const FUTURE = Math.floor(Date.now() / 1000) + 3600;
const PAST = Math.floor(Date.now() / 1000) - 3600;
const deployments = redisDeploymentsForFile();

const factories: [string, () => Promise<Store>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  ...deployments.map((deployment): [string, () => Promise<Store>] => [
    `RedisStore (${deployment.kind})`,
    () => deployment.store('contract'),
  ]),
];

describe.each(factories)('%s', (_, make) => {
  const view = async (token = 'Bot contract'): Promise<KeyedView> => keyedView(await make(), token, systemClock);

  it('limits unknown: one reservation in flight until a response settles the bucket', async () => {
    const store = await view();
    const first = await store.admit('B');
    expect(first.kind).toBe('grant');
    expect((await store.admit('B')).kind).toBe('await-response');
    if (first.kind !== 'grant') return;
    await store.settle('B', first.reservation, { limit: 3, remaining: 2, reset: FUTURE });
    expect(await store.get('B')).toEqual({ limit: 3, remaining: 2, reset: FUTURE });
  });

  it('at most remaining reservations, then row 3 sleeps until reset + 500 ms', async () => {
    const store = await view();
    const probe = await store.admit('B');
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await store.settle('B', probe.reservation, { limit: 2, remaining: 2, reset: FUTURE });
    expect((await store.admit('B')).kind).toBe('grant');
    expect((await store.admit('B')).kind).toBe('grant');
    const sleep = await store.admit('B');
    expect(sleep.kind).toBe('sleep');
    if (sleep.kind === 'sleep') {
      expect(sleep.reset).toBe(FUTURE);
      expect(sleep.ms).toBeGreaterThan(3_500_000);
    }
    await store.markSleptPast('B', FUTURE);
    // The window is over, but both requests are still in flight: they may land in the new one.
    expect((await store.admit('B')).kind).toBe('await-response');
  });

  it('a refill leaves out the requests still in flight', async () => {
    const store = await view();
    const probe = await store.admit('B');
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await store.settle('B', probe.reservation, { limit: 3, remaining: 3, reset: FUTURE });
    const held = await store.admit('B');
    if (held.kind !== 'grant') throw new Error('expected a grant');
    await store.markSleptPast('B', FUTURE);
    // Refilled to 3 − 1 in flight.
    expect((await store.admit('B')).kind).toBe('grant');
    expect((await store.admit('B')).kind).toBe('grant');
    expect((await store.admit('B')).kind).toBe('await-response');
    await store.settle('B', held.reservation, { limit: 3, remaining: 2, reset: FUTURE + 3 });
    // A response from the new window: 2 left there, less the 2 still in flight: row 3.
    expect((await store.admit('B')).kind).toBe('sleep');
  });

  it('a window past its reset is refilled once, not once per caller', async () => {
    const store = await view();
    const probe = await store.admit('B');
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await store.settle('B', probe.reservation, { limit: 2, remaining: 0, reset: PAST });
    expect((await store.admit('B')).kind).toBe('grant');
    expect((await store.admit('B')).kind).toBe('grant');
    expect((await store.admit('B')).kind).toBe('await-response');
  });

  it('limit 0 (no headers): every request proceeds', async () => {
    const store = await view();
    const probe = await store.admit('B');
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await store.settle('B', probe.reservation, {});
    for (let i = 0; i < 5; i++) expect((await store.admit('B')).kind).toBe('grant');
  });

  it('release frees an in-flight place; giveBack also restores remaining', async () => {
    const store = await view();
    const probe = await store.admit('B');
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await store.release('B', probe.reservation);
    const again = await store.admit('B');
    expect(again.kind).toBe('grant');
    if (again.kind !== 'grant') return;
    await store.settle('B', again.reservation, { limit: 5, remaining: 1, reset: FUTURE });
    const last = await store.admit('B');
    if (last.kind !== 'grant') throw new Error('expected a grant');
    expect((await store.get('B'))?.remaining).toBe(0);
    await store.giveBack('B', last.reservation);
    expect((await store.get('B'))?.remaining).toBe(1);
  });

  it('the global lock holds back every bucket and Route None until it runs out', async () => {
    const store = await view();
    await store.lockGlobal(60_000);
    for (const key of ['B', 'C', null]) {
      const admission = await store.admit(key);
      expect(admission.kind).toBe('global');
      if (admission.kind === 'global') expect(admission.ms).toBeGreaterThan(59_000);
    }
    await store.lockGlobal(10); // a shorter lock never shortens a longer one
    expect((await store.admit(null)).kind).toBe('global');
  });

  it('tokens do not share buckets', async () => {
    const shared = await make();
    const a = keyedView(shared, 'Bot a', systemClock);
    const b = keyedView(shared, 'Bot b', systemClock);
    expect((await a.admit('B')).kind).toBe('grant');
    expect((await b.admit('B')).kind).toBe('grant');
    await a.lockGlobal(60_000);
    expect((await b.admit(null)).kind).toBe('grant');
  });

  it('a response from an older window does not move the bucket back', async () => {
    const store = await view();
    const probe = await store.admit('B');
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await store.settle('B', probe.reservation, { limit: 5, remaining: 4, reset: FUTURE });
    const next = await store.admit('B');
    if (next.kind !== 'grant') throw new Error('expected a grant');
    await store.settle('B', next.reservation, { limit: 6, remaining: 4, reset: FUTURE - 10 });
    expect(await store.get('B')).toEqual({ limit: 6, remaining: 3, reset: FUTURE });
  });
});

describe.each(deployments.map((deployment) => [deployment.kind, deployment] as const))(
  'RedisStore only (%s)',
  (_, deployment) => {
    it('keys carry the prefix and a hash tag; the token never reaches Redis', async () => {
      const store = await deployment.store('contract');
      const prefix = store.prefix;
      const token = 'Bot very-secret-token-123';
      const view = keyedView(store, token, systemClock);
      const probe = await view.admit('ChannelsId:1');
      if (probe.kind !== 'grant') throw new Error('expected a grant');
      await view.settle('ChannelsId:1', probe.reservation, { limit: 5, remaining: 4, reset: FUTURE });
      await view.lockGlobal(1000);
      const redis = deployment.client();
      try {
        const keys = await deployment.keys(`${prefix}:*`);
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) {
          expect(key.startsWith(prefix)).toBe(true);
          expect(key.slice(prefix.length)).toMatch(/^:\{[0-9a-f]{32}\}:(bucket|leases|global)/);
          expect(key).not.toContain('secret');
          const type = await redis.type(key);
          const dump =
            type === 'hash'
              ? JSON.stringify(await redis.hgetall(key))
              : type === 'zset'
                ? JSON.stringify(await redis.zrange(key, '0', '-1'))
                : String(await redis.get(key));
          expect(dump).not.toContain('secret');
          expect(await redis.pttl(key)).toBeGreaterThan(0); // everything expires
        }
      } finally {
        redis.disconnect();
      }
    });

    it('v10: every key expires, the learned route map included: Redis holds live state only', async () => {
      const store = await deployment.store('contract');
      const settings = { globalLimit: 50, resetMarginMs: 50, globalMarginMs: 10, invalidRequestLimit: 9000 };
      const view = keyedView(store, 'Bot v10 ttl', systemClock, settings);
      const key = 'GET /channels/:id channels/1';
      const probe = await view.admit(key);
      if (probe.kind !== 'grant') throw new Error('expected a grant');
      await view.settle(key, probe.reservation, { limit: 5, remaining: 4, windowLeftMs: 1000, hash: 'h' });
      await view.lockGlobal(1000);
      await view.noteInvalid!();
      const redis = deployment.client();
      try {
        const keys = await deployment.keys(`${store.prefix}:*`);
        expect(keys.some((name) => name.endsWith(':routes'))).toBe(true);
        for (const name of keys) expect(await redis.pttl(name), name).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    });

    it('data written by something else is a clear StoreDataError, not a crash', async () => {
      const store = await deployment.store('contract');
      const prefix = store.prefix;
      const view = keyedView(store, 'Bot t', systemClock);
      const probe = await view.admit('B');
      if (probe.kind !== 'grant') throw new Error('expected a grant');
      await view.settle('B', probe.reservation, { limit: 5, remaining: 4, reset: FUTURE });
      const redis = deployment.client();
      try {
        const [key] = await deployment.keys(`${prefix}:*:bucket:B`);
        await redis.hset(key!, 'remaining', 'lots');
        await expect(view.admit('B')).rejects.toBeInstanceOf(StoreDataError);
        await expect(view.get('B')).rejects.toThrow(/field remaining is not an integer/);
        await redis.del(key!);
        await redis.set(key!, 'a string');
        await expect(view.admit('B')).rejects.toBeInstanceOf(StoreDataError);
      } finally {
        redis.disconnect();
      }
    });
  },
);
