/**
 * The store's subscriber after its connection drops: it subscribes again once reconnected, so other
 * processes' events keep reaching its views; and a store closed while that SUBSCRIBE is still
 * unanswered leaves no unhandled rejection in the user's process (ioredis's own resubscription
 * leaves its promise unhandled, and Node ends a process on an unhandled rejection by default).
 *
 * Between the store and Redis (REDIS_URL) sits a TCP proxy of the test's own, which drops every
 * connection at once and can hold back each SUBSCRIBE it is sent.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import type { StoreEvent } from '../../src/contracts/store.ts';
import { v10ViewRequest } from '../../src/dialects/v10/index.ts';
import { parseBucketKey } from '../../src/dialects/v10/route.ts';
import { v10Settings } from '../../src/dialects/v10/settings.ts';
import { RedisStore } from '../../src/redis/index.ts';
import { untilWithin } from '../support/manual-clock.ts';
import { dropPrefix, REDIS_URL, rawRedis, testPrefix } from '../support/redis.ts';

const TOKEN = 'Bot resubscribe';
const REQUEST = v10ViewRequest(v10Settings({}));
const TARGET = parseBucketKey('GET /channels/:id channels/1');

/** A proxy to Redis: counts the SUBSCRIBEs it sees, holds them back while told to, drops every connection on demand. */
class RedisProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  holdSubscribes = false;
  subscribesSeen = 0;
  subscribesHeld = 0;

  private constructor() {
    const target = new URL(REDIS_URL);
    this.#server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          this.#sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk: Buffer) => {
        if (/subscribe/i.test(chunk.toString('latin1'))) {
          this.subscribesSeen += 1;
          if (this.holdSubscribes) {
            this.subscribesHeld += 1;
            return;
          }
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
    });
  }

  static async start(): Promise<RedisProxy> {
    const proxy = new RedisProxy();
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Every connection through the proxy dropped, as a Redis restart drops them. */
  dropAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.dropAll();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Waits for `condition`, 5 s at most. */
const until = (condition: () => boolean, what: string) => untilWithin(condition, what, 5_000);

/** A store through the proxy with a view listening, and a store straight to Redis whose settles it hears. */
async function listening(proxy: RedisProxy) {
  const prefix = testPrefix('resubscribe');
  cleanups.push(async () => {
    const redis = rawRedis();
    try {
      await dropPrefix(redis, prefix);
    } finally {
      redis.disconnect();
    }
  });
  const listener = new RedisStore({ url: proxy.url, prefix });
  const publisher = new RedisStore({ url: REDIS_URL, prefix });
  cleanups.push(
    () => listener.close(),
    () => publisher.close(),
  );
  await Promise.all([listener.connect(), publisher.connect()]);
  const heard: StoreEvent[] = [];
  listener.view(REQUEST, TOKEN, systemClock).subscribe((event) => heard.push(event));
  const publish = async () => {
    const view = publisher.view(REQUEST, TOKEN, systemClock);
    const admission = await view.admit(TARGET);
    if (admission.kind !== 'grant') throw new Error(`expected a grant, got ${admission.kind}`);
    await view.settle(TARGET, admission.reservation, { limit: 5, remaining: 4, windowLeftMs: 5000 });
  };
  return { listener, heard, publish };
}

describe('the subscriber after its connection drops', () => {
  it('subscribes again once reconnected: events from other processes reach its views as before', async () => {
    const proxy = await RedisProxy.start();
    cleanups.push(() => proxy.stop());
    const { heard, publish } = await listening(proxy);
    await until(() => proxy.subscribesSeen > 0, 'the subscriber subscribed');
    await publish();
    await until(() => heard.length > 0, 'an event arrived before the drop');

    const before = proxy.subscribesSeen;
    proxy.dropAll();
    await until(() => proxy.subscribesSeen > before, 'the subscriber subscribed again');
    heard.length = 0;
    await publish();
    await until(() => heard.length > 0, 'an event arrived after the reconnect');
    expect(heard[0]).toMatchObject({ kind: 'bucket' });
  });

  it('a store closed while its SUBSCRIBE after a reconnect is unanswered leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    cleanups.push(() => process.off('unhandledRejection', record));
    const proxy = await RedisProxy.start();
    cleanups.push(() => proxy.stop());
    const { listener } = await listening(proxy);
    await until(() => proxy.subscribesSeen > 0, 'the subscriber subscribed');

    proxy.holdSubscribes = true;
    proxy.dropAll();
    await until(() => proxy.subscribesHeld > 0, 'the SUBSCRIBE after the reconnect was sent');
    await listener.close();
    // A rejection is reported unhandled once the microtasks after it have run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });
});
