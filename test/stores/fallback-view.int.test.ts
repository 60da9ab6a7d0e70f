/**
 * `onUnavailable: 'local'` (src/stores/fallback-view.ts): while a shared store cannot be reached,
 * a token's clients decide with a memory view of their own process. What that view learnt is the
 * token's, not a client's: the next client of the token, in the same process, finds it. A
 * RedisStore on a port where nothing listens, and a DurableObjectStore whose object is down
 * (test/support/durable-objects.ts), on a manual clock.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DurableObjectStore } from '../../src/cloudflare/store.ts';
import { SHED_INTERVAL_MS, type Store } from '../../src/contracts/store.ts';
import type { V10Update } from '../../src/dialects/v10/rules.ts';
import type { V10Settings } from '../../src/dialects/v10/settings.ts';
import { RedisStore } from '../../src/redis/index.ts';
import { fakeNamespace } from '../support/durable-objects.ts';
import { keyedView } from '../support/keyed-view.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { testPrefix } from '../support/redis.ts';
import { freePorts } from '../support/redis-processes.ts';

const TOKEN = 'Bot fallback-token';
const SETTINGS: V10Settings = { globalLimit: 50, resetMarginMs: 50, globalMarginMs: 20, invalidRequestLimit: 100 };
const MESSAGES = 'POST /channels/:id/messages channels/1';
/** The bucket's last place taken: spent for a minute. */
const SPENT: V10Update = { limit: 5, remaining: 0, windowLeftMs: 60_000, resetMs: 60_000, hash: 'abc' };

const redisStores: RedisStore[] = [];
afterAll(async () => {
  await Promise.all(redisStores.map((store) => store.close()));
});

const unreachable: Record<string, () => Promise<Store>> = {
  'a RedisStore, Redis unreachable': async () => {
    const store = new RedisStore({
      url: `redis://127.0.0.1:${(await freePorts(1))[0]!}`,
      prefix: testPrefix('fallback-view'),
      onUnavailable: 'local',
      time: 'client',
    });
    redisStores.push(store);
    return store;
  },
  "a DurableObjectStore, the token's object down": async () => {
    const objects = fakeNamespace();
    objects.down = true;
    return new DurableObjectStore(objects.namespace, { onUnavailable: 'local' });
  },
};

describe("onUnavailable: 'local'", () => {
  it.each(Object.keys(unreachable))('%s: a spent window is kept for the next client of the token', async (name) => {
    const store = await unreachable[name]!();
    const clock = new ManualClock();
    const first = keyedView<V10Update>(store, TOKEN, clock, SETTINGS);
    const admission = await first.admit(MESSAGES);
    if (admission.kind !== 'grant') throw new Error(`expected a grant, got ${admission.kind}`);
    await first.settle(MESSAGES, admission.reservation, SPENT);
    expect((await first.admit(MESSAGES)).kind).toBe('sleep');
    await first.close();

    const next = keyedView<V10Update>(store, TOKEN, clock, SETTINGS);
    expect((await next.admit(MESSAGES)).kind).toBe('sleep');
    await next.close();
    // And after a sweep of the views no client uses: the window still runs.
    await clock.advance(SHED_INTERVAL_MS);
    keyedView(store, 'Bot another', clock, SETTINGS);
    const later = keyedView<V10Update>(store, TOKEN, clock, SETTINGS);
    expect((await later.admit(MESSAGES)).kind).toBe('sleep');
    await later.close();
  });
});
