/**
 * Redis for tests: REDIS_URL (default 127.0.0.1:6379) and a key prefix of each test's own.
 * Unreachable Redis fails the test loudly; it never skips.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisStore, type RedisStoreOptions } from '../../src/redis/index.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const testPrefix = (name: string) => `tollgate-test:${name}:${randomUUID().slice(0, 8)}`;

/** A connected store; throws (failing the test) with the reason when Redis cannot be reached. */
export async function connectedStore(name: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
  const store = new RedisStore({ url: REDIS_URL, prefix: testPrefix(name), ...options });
  try {
    await store.connect();
  } catch (error) {
    throw new Error(`These tests need Redis at ${REDIS_URL} (set REDIS_URL): ${(error as Error).message}`, { cause: error });
  }
  return store;
}

/** A raw connection for looking at and tampering with keys. */
export function rawRedis(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
}

/** Deletes every key under a prefix (bounded scan). */
export async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  for (let round = 0; round < 1000; round++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}
