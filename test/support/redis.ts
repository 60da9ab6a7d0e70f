/**
 * Redis for tests: REDIS_URL (default 127.0.0.1:6379) and a key prefix of each test's own.
 * Unreachable Redis fails the test loudly; it never skips.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { RedisStore, type RedisStoreOptions } from '../../src/redis/index.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const testPrefix = (name: string) => `tollgate-test:${name}:${randomUUID().slice(0, 8)}`;

/** A connected store; throws (failing the test) with the reason when Redis cannot be reached. */
export async function connectedStore(name: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
  const store = new RedisStore({ url: REDIS_URL, prefix: testPrefix(name), ...options });
  try {
    await store.connect();
  } catch (error) {
    throw new Error(`These tests need Redis at ${REDIS_URL} (set REDIS_URL): ${(error as Error).message}`, {
      cause: error,
    });
  }
  return store;
}

/** A raw connection for looking at and tampering with keys. */
export function rawRedis(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
}

/** Deletes every key under a prefix (bounded scans). */
export async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  for (let round = 0; round < 1000; round++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
}

/**
 * Connected stores for a test file, each under a fresh prefix: closed, and their keys dropped,
 * after the file. Call at the top level of the file (it registers an afterAll).
 */
export function redisStoresForFile(name: string, options: RedisStoreOptions = {}): () => Promise<RedisStore> {
  const stores: RedisStore[] = [];
  const prefixes: string[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    const redis = rawRedis();
    try {
      for (const prefix of prefixes) await dropPrefix(redis, prefix);
    } finally {
      redis.disconnect();
    }
  });
  return async () => {
    const prefix = testPrefix(name);
    prefixes.push(prefix);
    const store = await connectedStore(name, { ...options, prefix });
    stores.push(store);
    return store;
  };
}
