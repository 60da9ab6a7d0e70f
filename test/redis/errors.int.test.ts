/**
 * StoreUnavailableError says what happened in words and what to do, without the Redis client's
 * own phrasing ("Stream isn't writeable…", "enableOfflineQueue…"); the client's error stays the
 * cause.
 */
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { RedisStore, StoreUnavailableError } from '../../src/redis/index.ts';
import { testPrefix } from '../support/redis.ts';
import { freePorts } from '../support/redis-processes.ts';
import { V6_VIEW_REQUEST } from '../../src/dialects/v6/index.ts';

const stores: RedisStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const CLIENT_PHRASING = /Stream isn't writeable|enableOfflineQueue|Connection is closed|ECONNREFUSED/;

it('Redis refusing the connection: "connection refused", and the way to keep going', async () => {
  const port = (await freePorts(1))[0]!;
  const store = new RedisStore({ url: `redis://127.0.0.1:${port}`, prefix: testPrefix('errors') });
  stores.push(store);
  const error = await store.connect().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  const { message, cause } = error as StoreUnavailableError;
  expect(message).toMatch(
    new RegExp(
      `^Redis at redis://127\\.0\\.0\\.1:${port}/? is unreachable \\(connection refused\\): calls that need it fail until it answers again; ` +
        "with RedisStore\\(\\{ onUnavailable: 'local' \\}\\) each process limits itself meanwhile$",
    ),
  );
  expect(message).not.toMatch(CLIENT_PHRASING);
  expect(cause).toBeInstanceOf(Error);
});

it('a connection lost mid-run: "connection lost", not the client library\'s words', async () => {
  const store = new RedisStore({ prefix: testPrefix('errors-lost') });
  stores.push(store);
  await store.connect();
  store.redis.disconnect();
  const view = store.view(V6_VIEW_REQUEST, 'Bot errors', systemClock);
  const error = await Promise.resolve(view.admit({ bucketKey: 'B' })).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect((error as Error).message).toMatch(/is unreachable \((connection lost|connection refused)\)/);
  expect((error as Error).message).not.toMatch(CLIENT_PHRASING);
});
