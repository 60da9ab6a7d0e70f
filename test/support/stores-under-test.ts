/**
 * The stores a limiter property runs against: memory, and Redis on the limiter's clock (a manual
 * clock drives both). Call at the top level of a test file (it registers an afterAll).
 */
import { afterAll } from 'vitest';
import { MemoryStore, type Store } from '../../src/index.ts';
import type { RedisStore } from '../../src/redis/index.ts';
import { connectedStore, dropPrefix, rawRedis, testPrefix } from './redis.ts';

export interface StoreUnderTest {
  readonly store: Store & Store;
  /** Lets every decision under way finish. */
  readonly idle: () => Promise<void>;
}

/** A few event-loop turns: no HTTP in a property, only promise chains. */
export const loopTurns = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** [name, runs, make] for `describe.each`: the memory store with `memoryRuns`, Redis with `redisRuns`. */
export function storesUnderTest(
  name: string,
  memoryRuns: number,
  redisRuns: number,
): [string, number, () => Promise<StoreUnderTest>][] {
  let redisStore: RedisStore | undefined;
  const prefix = testPrefix(name);
  afterAll(async () => {
    await redisStore?.close();
    const redis = rawRedis();
    try {
      await dropPrefix(redis, prefix);
    } finally {
      redis.disconnect();
    }
  });
  return [
    ['MemoryStore', memoryRuns, async () => ({ store: new MemoryStore(), idle: loopTurns })],
    [
      'RedisStore',
      redisRuns,
      async () => {
        redisStore ??= await connectedStore(name, { prefix, time: 'client' });
        const store = redisStore;
        // A PING on the scripts' connection answers after every script sent before it; chains
        // of several decisions need a few rounds.
        const idle = async () => {
          for (let round = 0; round < 4; round++) {
            await store.redis.ping();
            await loopTurns();
          }
        };
        return { store, idle };
      },
    ],
  ];
}
