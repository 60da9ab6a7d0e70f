/**
 * `tollgate proxy --redis`, run in the test's own process (src/proxy/command.ts): the store it
 * makes on Redis (REDIS_URL, a prefix of the test's own), what `/readyz` asks of it, and that
 * stopping the proxy closes it. The proxy is a stand-in; replicas.int.test.ts runs real ones.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import * as redis from '../../src/redis/index.ts';
import { REDIS_READY_TIMEOUT_MS, startCommand, type Started } from '../../src/proxy/command.ts';
import type { ProxyOptions } from '../../src/proxy/options.ts';
import { REDIS_URL, testPrefix } from '../support/redis.ts';

/** Runs the command with the stores it makes and the options its proxy gets recorded. */
async function run(argv: readonly string[]) {
  const stores: { options: redis.RedisStoreOptions; store: redis.RedisStore }[] = [];
  const given: ProxyOptions[] = [];
  const err: string[] = [];
  const started = await startCommand(
    argv,
    {},
    { out: () => {}, err: (line) => err.push(line) },
    {
      createProxy: async (options) => {
        given.push(options);
        return { url: 'http://127.0.0.1:4321', close: async () => {} };
      },
      loadRedis: async () => ({
        ...redis,
        RedisStore: class extends redis.RedisStore {
          constructor(options: redis.RedisStoreOptions) {
            super(options);
            stores.push({ options, store: this });
          }
        },
      }),
    },
  );
  return { started, stores, given, err };
}

const serving = (started: Started) => {
  if (started.kind !== 'serving') throw new Error(`not serving: exit ${started.code}`);
  return started;
};

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('tollgate proxy --redis', () => {
  it('serves on a store of its own prefix that falls back to local limits; ready while Redis answers; stop closes it', async () => {
    const prefix = testPrefix('proxy-command');
    const { started, stores, given } = await run(['proxy', '--redis', REDIS_URL, '--prefix', prefix]);
    const serve = serving(started);
    expect(stores.map(({ options }) => options)).toEqual([{ url: REDIS_URL, prefix, onUnavailable: 'local' }]);
    const [{ store }] = stores as [(typeof stores)[number]];
    expect(given[0]!.store).toBe(store);
    await expect(given[0]!.storeReady!(), `Redis at ${REDIS_URL} (set REDIS_URL)`).resolves.toBe(true);
    expect(await serve.stop()).toBe(0);
    expect(store.redis.status).toBe('end');
  });

  it("takes the prefix 'tollgate' when none is given", async () => {
    const { started, stores } = await run(['proxy', '--redis', REDIS_URL]);
    expect(stores[0]!.options.prefix).toBe('tollgate');
    expect(await serving(started).stop()).toBe(0);
  });

  it('is not ready while Redis is away, within its bound, and still serves', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const { started, given } = await run(['proxy', '--redis', url, '--prefix', testPrefix('proxy-command-away')]);
    const serve = serving(started);
    const asked = Date.now();
    expect(await given[0]!.storeReady!()).toBe(false);
    expect(Date.now() - asked).toBeLessThan(REDIS_READY_TIMEOUT_MS * 5);
    expect(await serve.stop()).toBe(0);
  });

  it('a store the proxy never served on is closed when the proxy refuses its settings', async () => {
    const stores: redis.RedisStore[] = [];
    const started = await startCommand(
      ['proxy', '--redis', REDIS_URL, '--prefix', testPrefix('proxy-command-refused')],
      {},
      { out: () => {}, err: () => {} },
      {
        createProxy: async () => {
          throw new Error('listen EADDRINUSE');
        },
        loadRedis: async () => ({
          ...redis,
          RedisStore: class extends redis.RedisStore {
            constructor(options: redis.RedisStoreOptions) {
              super(options);
              stores.push(this);
            }
          },
        }),
      },
    );
    expect(started).toEqual({ kind: 'exit', code: 2 });
    expect(stores[0]!.redis.status).toBe('end');
  });
});
