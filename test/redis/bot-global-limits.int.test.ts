/**
 * A bot's own global limit (V13, `botGlobalLimits`) across replicas on one Redis: two relays, each
 * with a RedisStore of its own on one prefix, as two proxies would be. A token's pace is one count
 * in Redis, and each admit brings the limit of the replica that asks: replicas with the same
 * options pace the bot at its own limit together; replicas that disagree each stop at their own,
 * so the bot never passes the largest. Against the reference service on the harness's manual
 * clock, which the stores decide by (`time: 'client'`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayOptions } from '../../src/index.ts';
import type { RedisStore } from '../../src/redis/index.ts';
import { mostWithin } from '../../src/testing/limits.ts';
import { startE2E, type E2E } from '../support/e2e.ts';
import { connectedStore, dropPrefix, rawRedis, testPrefix } from '../support/redis.ts';

const BOT = '80351110224678912';
const BIG_BOT = 'Bot ODAzNTExMTAyMjQ2Nzg5MTI.GhJ4kQ.big-bot-token';
const OTHER_BOT = 'Bot MTc1OTI4ODQ3Mjk5MTE3MDYz.GhJ4kQ.other-bot-token';
const OWN_LIMIT = 8;
const DEFAULT_LIMIT = 2;
const WINDOW_MS = 1000;
const CHANNELS = ['81384788765712384', '81384788765712385'];

let e2e: E2E | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await e2e?.stop();
  e2e = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Send {
  readonly token: string | null;
  readonly path: string;
  readonly at: number;
}

/** The harness, recording each send, and two relays on one Redis prefix with these options each. */
async function replicas(...options: [RelayOptions, RelayOptions]) {
  const sent: Send[] = [];
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({
      token: request.headers.get('authorization'),
      path: new URL(request.url).pathname,
      at: e2e!.clock.now(),
    });
    return fetch(request);
  };
  // The service grants the big bot's limit to every token: a token paced above its own limit
  // would draw its 429s; one held below it shows as too few in a window.
  e2e = await startE2E(
    { api: 'v10', global: { limit: OWN_LIMIT, windowMs: WINDOW_MS }, defaultLimit: { limit: 1000, windowMs: 1000 } },
    recording as typeof fetch,
  );
  const prefix = testPrefix('bot-global-limits');
  const stores: RedisStore[] = [];
  cleanups.push(async () => {
    await Promise.all(stores.map((store) => store.close()));
    const redis = rawRedis();
    await dropPrefix(redis, prefix).finally(() => redis.disconnect());
  });
  for (let i = 0; i < 2; i++) stores.push(await connectedStore('bot-global-limits', { prefix, time: 'client' }));
  const relays = options.map((each, i) => e2e!.newRelay({ ...each, store: stores[i]! }));
  const root = e2e.service.baseUrl.replace(/\/v10$/, '');
  /** `count` reads of one channel with `token` through replica `replica`. */
  const reads = (replica: number, token: string, count: number) =>
    Array.from({ length: count }, () =>
      relays[replica]!(`${root}/v10/channels/${CHANNELS[replica]}`, { headers: { authorization: token } }),
    );
  return { e2e, sent, reads };
}

const statusesOf = (results: PromiseSettledResult<Response>[]) =>
  results.map((result) => (result.status === 'fulfilled' ? result.value.status : 0));

describe('botGlobalLimits, replicas on one Redis', () => {
  it('with the same options they agree: the bot paced at its own limit between them, another bot at the default', async () => {
    const same: RelayOptions = { globalLimit: DEFAULT_LIMIT, botGlobalLimits: { [BOT]: OWN_LIMIT } };
    const { e2e, sent, reads } = await replicas(same, same);
    const calls = [
      ...reads(0, BIG_BOT, 12),
      ...reads(1, BIG_BOT, 12),
      ...reads(0, OTHER_BOT, 4),
      ...reads(1, OTHER_BOT, 4),
    ];
    const results = await e2e.drive(calls, 50);
    expect(statusesOf(results)).toEqual(calls.map(() => 200));
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    const timesOf = (token: string) => sent.filter((each) => each.token === token).map((each) => each.at);
    // Both replicas' sends count in one pace: its limit in a window, and never twice it.
    expect(mostWithin(timesOf(BIG_BOT), WINDOW_MS)).toBe(OWN_LIMIT);
    expect(mostWithin(timesOf(OTHER_BOT), WINDOW_MS)).toBe(DEFAULT_LIMIT);
  });

  it('when they disagree, each stops at its own limit against the one count: the bot never passes the larger', async () => {
    // A replica not yet given the override (a rolling deploy), beside one that has it.
    const { e2e, sent, reads } = await replicas(
      { globalLimit: DEFAULT_LIMIT },
      { globalLimit: DEFAULT_LIMIT, botGlobalLimits: { [BOT]: OWN_LIMIT } },
    );
    const calls = [...reads(0, BIG_BOT, 8), ...reads(1, BIG_BOT, 16)];
    const results = await e2e.drive(calls, 50);
    expect(statusesOf(results)).toEqual(calls.map(() => 200));
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    const all = sent.map((each) => each.at);
    const unaware = sent.filter((each) => each.path.endsWith(CHANNELS[0]!)).map((each) => each.at);
    // The replica with the override is not held to the other's limit, nor is the pair to the sum.
    expect(mostWithin(all, WINDOW_MS)).toBe(OWN_LIMIT);
    // The other sends only while the bot's count is under its own limit.
    expect(mostWithin(unaware, WINDOW_MS)).toBeLessThanOrEqual(DEFAULT_LIMIT);
  });
});
