/**
 * V13: exempt calls (a webhook executed with its token, an interaction callback) are neither
 * counted in the token's global pace nor held by it. With the pace spent, a non-exempt call
 * waits at the process's global gate (src/limiter/global-gate.ts); an exempt call made then is
 * sent at once, not a second later behind the pace. Both stores: the store leaves exempt calls
 * out of the pace, and the gate must let them by as well.
 *
 * One manual clock for the client and the store (the Redis store decides by it, `time:
 * 'client'`): "at once" is "before the clock moves".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, MemoryStore, type Store, type TollgateClient } from '../../src/index.ts';
import { ManualClock, settle } from '../support/manual-clock.ts';
import { redisStoresForFile } from '../support/redis.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const GLOBAL_LIMIT = 2;
const CHANNELS = ['81384788765712384', '81384788765712385', '81384788765712386'];

const stores: [string, () => Promise<Store>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  ['RedisStore', redisStoresForFile('exempt-global-gate', { time: 'client' })],
];

const clients: TollgateClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** Lets the event loop (and Redis round trips) run until `condition` holds, or a bounded while. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !condition(); turn++) await settle(2);
}

interface Sent {
  readonly route: string;
  readonly at: number;
  readonly authorization: string | null;
}

/** A v10 client on `store` whose service answers every call 200, with room in every bucket. */
function clientOn(store: Store, clock: ManualClock, sent: Sent[]): TollgateClient {
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const route = `${request.method} ${new URL(request.url).pathname.replace('/api/v10', '')}`;
    sent.push({ route, at: clock.now(), authorization: request.headers.get('authorization') });
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '50',
      'x-ratelimit-remaining': '49',
      'x-ratelimit-reset-after': '1.000',
      'x-ratelimit-bucket': route.replace(/\W+/g, '-'),
      via: '1.1 google',
    };
    return new Response('{"id":"1"}', { status: 200, headers });
  };
  const client = createClient({
    baseUrl: 'http://tollgate.invalid/api/v10',
    token: 'Bot exempt-gate',
    fetch,
    clock,
    store,
    globalLimit: GLOBAL_LIMIT,
  });
  clients.push(client);
  return client;
}

describe.each(stores)('%s: exempt calls pass the global gate while the pace is spent (V13)', (_, make) => {
  it('a webhook execute and an interaction callback go at once; the held non-exempt call a second later', async () => {
    const clock = new ManualClock(T0);
    const sent: Sent[] = [];
    const client = clientOn(await make(), clock, sent);
    const outcomes: Promise<unknown>[] = [];
    const track = (call: Promise<unknown>) => outcomes.push(call.catch((error: unknown) => error));

    // Spend the token's pace: two reads go, the third waits at the gate.
    for (const channel of CHANNELS) track(client.channels.get(channel));
    await eventually(() => sent.length >= GLOBAL_LIMIT + 1);
    expect(sent.map((request) => request.route)).toEqual(CHANNELS.slice(0, 2).map((id) => `GET /channels/${id}`));

    // Exempt calls now: sent before the clock moves, without Authorization.
    track(client.webhooks.execute('223704706495545344', 'hook-token', { content: 'exempt' }));
    track(client.interactions.callback.create('1', 'interaction-token', { type: 1 } as never));
    await eventually(() => sent.length >= 4);
    expect(sent.slice(2)).toEqual([
      { route: 'POST /webhooks/223704706495545344/hook-token', at: T0, authorization: null },
      { route: 'POST /interactions/1/interaction-token/callback', at: T0, authorization: null },
    ]);

    // The held read goes once the pace's second is over: the gate was closed all along.
    for (let step = 0; step < 40 && sent.length < 5; step++) await clock.advance(100);
    expect(sent[4]).toMatchObject({ route: `GET /channels/${CHANNELS[2]}` });
    expect(sent[4]!.at - T0).toBeGreaterThanOrEqual(1000);
    expect((await Promise.all(outcomes)).filter((outcome) => outcome instanceof Error)).toEqual([]);
  });
});
