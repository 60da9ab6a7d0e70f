/**
 * The request procedure end to end inside one process: the typed client, ky, the limiter hooks
 * and an msw service that enforces the spec's headers, with time on a manual clock.
 */
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  createClient,
  HttpError,
  RateLimitI64Error,
  RateLimitUtf8Error,
  RateLimitWaitError,
  type TollgateClient,
  type WaitEvent,
} from '../../src/index.ts';
import type { Store } from '../../src/contracts/store.ts';
import { ManualClock, settle, untilAfterIo } from '../support/manual-clock.ts';
import { BASE_URL, RateLimitedApi, TOKEN } from '../support/rate-limited-api.ts';
import { redisStoresForFile } from '../support/redis.ts';

const CHANNEL_A = '81384788765712384';
const CHANNEL_B = '81384788765712385';
const GUILD = '41771983423143937';

let clock: ManualClock;
let api: RateLimitedApi;
let client: TollgateClient;
let events: WaitEvent[];

function makeClient(options: Partial<Parameters<typeof createClient>[0]> = {}): TollgateClient {
  return createClient({ baseUrl: BASE_URL, token: TOKEN, clock, onWait: (event) => events.push(event), ...options });
}

beforeEach(() => {
  clock = new ManualClock();
  events = [];
  api = new RateLimitedApi({ clock, limits: { default: 5 }, windowMs: 1000 }).listen();
  client = makeClient();
});

afterEach(async () => {
  await client.close();
  api.close();
});

/** Advances the clock in steps until every promise settled (bounded). */
async function drive<T>(promises: Promise<T>[], stepMs = 50, maxSteps = 2000): Promise<PromiseSettledResult<T>[]> {
  let done = false;
  const all = Promise.allSettled(promises).then((results) => {
    done = true;
    return results;
  });
  for (let step = 0; step < maxSteps && !done; step++) await clock.advance(stepMs);
  if (!done) throw new Error('calls did not settle');
  return all;
}

const global429 = (retryAfter: string | undefined) => () =>
  HttpResponse.json(
    { message: 'global' },
    {
      status: 429,
      headers: { 'x-ratelimit-global': 'true', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) },
    },
  );

describe('route classification in the procedure', () => {
  it("the spec's example: L−1 on one channel, L−1 on another, L−2 on the first again", async () => {
    await client.channels.messages.get(CHANNEL_A, '1');
    await client.channels.messages.list(CHANNEL_B);
    const afterFirst = await client.buckets.get(`ChannelsIdMessagesId:GET:${CHANNEL_A}`);
    expect(afterFirst?.remaining).toBe(4);

    await client.channels.messages.create(CHANNEL_A, { content: 'one' });
    await client.channels.messages.create(CHANNEL_B, { content: 'one' });
    await client.channels.messages.list(CHANNEL_A, { limit: 2 });
    expect((await client.buckets.get(`ChannelsIdMessages:${CHANNEL_A}`))?.remaining).toBe(3);
    expect((await client.buckets.get(`ChannelsIdMessages:${CHANNEL_B}`))?.remaining).toBe(3);
    expect(api.requests.map((request) => request.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('the server sees L−1, L−1, L−2 for one kind of request on two channels', async () => {
    const remaining: (string | null)[] = [];
    for (const [channel, message] of [
      [CHANNEL_A, '1'],
      [CHANNEL_B, '1'],
      [CHANNEL_A, '2'],
    ] as const) {
      const response = await client.request('GET', `/channels/${channel}/messages/${message}`);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['4', '4', '3']);
  });

  it('the message-by-id key is split by method', async () => {
    await client.channels.messages.delete(CHANNEL_A, '1');
    await client.channels.messages.get(CHANNEL_A, '1');
    await client.channels.messages.delete(CHANNEL_A, '2');
    expect((await client.buckets.get(`ChannelsIdMessagesId:DELETE:${CHANNEL_A}`))?.remaining).toBe(3);
    expect((await client.buckets.get(`ChannelsIdMessagesId:GET:${CHANNEL_A}`))?.remaining).toBe(4);
  });

  it('guild routes are keyed by guild id; keys without a major parameter have one bucket', async () => {
    await client.guilds.members.list(GUILD, { limit: 10 });
    await client.users.get('80351110224678912');
    await client.users.get('80351110224678913');
    expect(await client.buckets.get(`GuildsIdMembers:${GUILD}`)).toBeDefined();
    expect((await client.buckets.get('UsersId'))?.remaining).toBe(3);
  });

  it('step 4: Route None skips pre-check and post-processing and returns the response as received', async () => {
    api.script(() => HttpResponse.json({ no: 'limit' }, { status: 429, headers: { 'retry-after': '100' } }));
    const response = await client.request('GET', '/oauth2/applications/@me');
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ no: 'limit' });
    expect(api.requests).toHaveLength(1);
    expect(await client.buckets.get('None')).toBeUndefined();
  });
});

describe('pre-check rows through the client', () => {
  it('row 3: remaining 0 → sleeps (reset − now) s + 500 ms, then the request proceeds', async () => {
    api = reopen({ limits: { default: 2 }, windowMs: 3000 });
    await client.channels.get(CHANNEL_A);
    await client.channels.get(CHANNEL_A);
    const bucket = (await client.buckets.get(`ChannelsId:${CHANNEL_A}`))!;
    expect(bucket.remaining).toBe(0);

    const start = clock.now();
    const third = client.channels.get(CHANNEL_A);
    await settle();
    const expectedSleep = (bucket.reset - Math.floor(start / 1000)) * 1000 + 500;
    expect(events).toEqual([
      {
        reason: 'bucket',
        method: 'GET',
        route: 'GET ChannelsId',
        routeKey: 'ChannelsId',
        bucketKey: `ChannelsId:${CHANNEL_A}`,
        resource: '',
        waitMs: expectedSleep,
      },
    ]);
    await clock.advance(expectedSleep - 1);
    expect(api.requests).toHaveLength(2); // still asleep
    await clock.advance(1);
    await third;
    expect(api.requests).toHaveLength(3);
    expect(api.requests[2]!.at).toBe(start + expectedSleep);
    expect(api.count(429)).toBe(0);
  });

  it('row 2: once reset has passed the bucket refills and the request proceeds at once', async () => {
    for (let i = 0; i < 5; i++) await client.channels.get(CHANNEL_A);
    await clock.advance(2000);
    await client.channels.get(CHANNEL_A);
    expect(events).toEqual([]);
    expect(api.count(429)).toBe(0);
  });
});

describe('429 handling (steps 5 and 6)', () => {
  it('Errors row 1: a non-global 429 with retry-after waits that long and repeats', async () => {
    api.script(() =>
      HttpResponse.json({}, { status: 429, headers: { 'retry-after': '750', 'x-ratelimit-remaining': '0' } }),
    );
    const call = client.gateway.get();
    await settle();
    expect(events.map((event) => [event.reason, event.waitMs])).toEqual([['retry-after', 750]]);
    await clock.advance(749);
    expect(api.requests).toHaveLength(1);
    await clock.advance(1);
    expect(await call).toEqual({ ok: true, bucketKey: 'Gateway' });
    expect(api.requests).toHaveLength(2);
  });

  it('Errors row 2: a 429 without retry-after is returned to the caller', async () => {
    api.script(() => HttpResponse.json({ message: 'limited' }, { status: 429 }));
    const error = await client.gateway.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(429);
    expect((error as HttpError).body).toEqual({ message: 'limited' });
    api.script(() => HttpResponse.json({ message: 'limited' }, { status: 429 }));
    expect((await client.request('GET', '/gateway')).status).toBe(429);
    expect(api.requests).toHaveLength(2);
  });

  it('Errors row 3: a global response with retry-after waits and repeats; the bucket is not updated', async () => {
    api.script(global429('2000'));
    const call = client.channels.get(CHANNEL_A);
    await clock.advance(1999);
    expect(api.requests).toHaveLength(1);
    await clock.advance(1);
    await call;
    expect(api.requests.map((request) => request.at - api.requests[0]!.at)).toEqual([0, 2000]);
    expect(events.filter((event) => event.reason === 'global').map((event) => event.waitMs)).toEqual([2000]);
  });

  it('the global wait holds back every caller, on every bucket, until it ends', async () => {
    api.script(global429('1500'));
    const first = client.channels.get(CHANNEL_A);
    await settle();
    const others = [
      client.channels.get(CHANNEL_B),
      client.guilds.get(GUILD),
      client.request('GET', '/oauth2/applications/@me'),
    ];
    await clock.advance(1499);
    expect(api.requests).toHaveLength(1);
    await clock.advance(1);
    await Promise.all([first, ...others]);
    const start = api.requests[0]!.at;
    expect(api.requests.slice(1).every((request) => request.at === start + 1500)).toBe(true);
    expect(events.filter((event) => event.reason === 'global')).toHaveLength(4);
  });

  it('a global response without retry-after is returned to the caller; no bucket is made', async () => {
    api.script(global429(undefined));
    const response = await client.request('GET', `/channels/${CHANNEL_A}`);
    expect(response.status).toBe(429);
    expect(await client.buckets.get(`ChannelsId:${CHANNEL_A}`)).toBeUndefined();
  });

  it.each([
    ['RateLimitI64', 'in a minute', RateLimitI64Error],
    ['RateLimitUtf8', '\u00ff\u00fe', RateLimitUtf8Error],
  ])('Errors rows 4–5: %s in the global branch reaches the caller', async (_, value, type) => {
    api.script(global429(value));
    await expect(client.channels.get(CHANNEL_A)).rejects.toBeInstanceOf(type);
    expect(api.requests).toHaveLength(1);
  });

  it.each([
    ['RateLimitI64', 'x-ratelimit-remaining', 'four'],
    ['RateLimitUtf8', 'x-ratelimit-reset', '\u00c3\u0028'],
  ])('step 6.4: %s in the non-global branch sends the request again', async (_, header, value) => {
    api.script(() => HttpResponse.json({}, { headers: { [header]: value } }));
    expect(await client.channels.get(CHANNEL_A)).toEqual({ ok: true, bucketKey: `ChannelsId:${CHANNEL_A}` });
    expect(api.requests).toHaveLength(2);
  });

  it('step 6.4: a response whose headers fail to parse updates nothing, not even the fields before the bad one', async () => {
    client = makeClient({ maxHeaderResends: 0 });
    api.script(() => HttpResponse.json({}, { headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': 'four' } }));
    await expect(client.channels.get(CHANNEL_A)).rejects.toBeInstanceOf(RateLimitI64Error);
    // A bucket {limit 5, remaining 0, reset 0} would read as a window already over.
    expect(await client.buckets.get(`ChannelsId:${CHANNEL_A}`)).toBeUndefined();
  });

  it('a 5xx without rate-limit headers creates no bucket: row 1 would read {0, 0, 0} as no limit', async () => {
    api.script(() => HttpResponse.json({ message: 'bad gateway' }, { status: 502 }));
    await expect(client.channels.messages.create(CHANNEL_A, { content: 'x' })).rejects.toMatchObject({ status: 502 });
    expect(await client.buckets.get(`ChannelsIdMessages:${CHANNEL_A}`)).toBeUndefined();
  });

  it('step 6.4: the resend loop is bounded; then the parse error reaches the caller', async () => {
    client = makeClient({ maxHeaderResends: 2 });
    const broken = () => HttpResponse.json({}, { headers: { 'x-ratelimit-limit': '1.0' } });
    api.script(broken, broken, broken, broken);
    await expect(client.channels.get(CHANNEL_A)).rejects.toBeInstanceOf(RateLimitI64Error);
    expect(api.requests).toHaveLength(3);
  });
});

describe('concurrency', () => {
  it('50 concurrent calls on one bucket: zero 429s, never more than the limit per window, FIFO', async () => {
    const order: number[] = [];
    const calls = Array.from({ length: 50 }, (_, index) =>
      client.channels.messages.create(CHANNEL_A, { content: `#${index}` }).then(() => order.push(index)),
    );
    const results = await drive(calls);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(api.count(429)).toBe(0);
    expect(api.requests).toHaveLength(50);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Per server window (1 s from its first request), at most 5 requests.
    let windowStart = -Infinity;
    let inWindow = 0;
    for (const request of api.requests) {
      if (request.at >= windowStart + 1000) {
        windowStart = request.at;
        inWindow = 0;
      }
      inWindow += 1;
      expect(inWindow).toBeLessThanOrEqual(5);
    }
  });

  it('a bucket whose limits are unknown has one request in flight until its headers arrive', async () => {
    let answer: () => void = () => {};
    api.script(() => new Promise<undefined>((resolve) => (answer = () => resolve(undefined))));
    const calls = [client.gateway.get(), client.gateway.get(), client.gateway.get()];
    await settle();
    expect(api.arrivals).toBe(1);
    answer();
    await drive(calls);
    expect(api.arrivals).toBe(3);
    expect(events.filter((event) => event.reason === 'queue')).toHaveLength(0); // no time passed while queued
  });

  it('other buckets never wait for a busy one', async () => {
    api = reopen({ limits: { default: 1 }, windowMs: 5000 });
    await client.channels.get(CHANNEL_A);
    const blocked = client.channels.get(CHANNEL_A);
    await settle();
    await client.channels.get(CHANNEL_B);
    await client.guilds.get(GUILD);
    expect(api.requests).toHaveLength(3);
    await drive([blocked]);
    expect(api.count(429)).toBe(0);
  });
});

describe('cancellation and maximum wait', () => {
  it('aborting a queued call rejects it at once and frees its place', async () => {
    api = reopen({ limits: { default: 1 }, windowMs: 5000 });
    await client.channels.get(CHANNEL_A);
    const controller = new AbortController();
    const aborted = client.channels.get(CHANNEL_A, undefined, { signal: controller.signal });
    const next = client.channels.get(CHANNEL_A);
    await settle();
    controller.abort(new Error('user gave up'));
    await expect(aborted).rejects.toThrow('user gave up');
    await drive([next]);
    expect(api.requests).toHaveLength(2);
  });

  it('aborting a call sleeping on a 429 rejects it at once', async () => {
    api.script(() => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '60000' } }));
    const controller = new AbortController();
    const call = client.gateway.get(undefined, { signal: controller.signal });
    await settle();
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(api.requests).toHaveLength(1);
  });

  it('maxWait rejects a longer wait with RateLimitWaitError that says how long it would have been', async () => {
    api = reopen({ limits: { default: 1 }, windowMs: 3000 });
    await client.channels.get(CHANNEL_A);
    const error = await client.channels.get(CHANNEL_A, undefined, { maxWait: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitWaitError);
    expect(error).toMatchObject({ reason: 'bucket', bucketKey: `ChannelsId:${CHANNEL_A}`, maxWaitMs: 1000 });
    expect((error as RateLimitWaitError).waitMs).toBeGreaterThan(1000);
    expect(api.requests).toHaveLength(1);
  });

  it('a client-wide maxWait applies to 429 waits too', async () => {
    client = makeClient({ maxWait: 500 });
    api.script(() => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '600000' } }));
    await expect(client.gateway.get()).rejects.toMatchObject({
      name: 'RateLimitWaitError',
      reason: 'retry-after',
      waitMs: 600000,
    });
  });

  it('aborting a queued call with maxWait set cancels its queue deadline (no timer left after close)', async () => {
    // The first call probes; the second queues behind it (limits unknown) with a deadline timer.
    let answer: (response: Response) => void = () => {};
    api.script(() => new Promise<Response>((resolve) => (answer = resolve)));
    const probe = client.channels.get(CHANNEL_A).catch(() => undefined);
    await settle();
    const controller = new AbortController();
    const queued = client.channels.get(CHANNEL_A, undefined, { maxWait: 3_600_000, signal: controller.signal });
    await settle();
    const timersWhileQueued = clock.pendingTimers;
    controller.abort(new Error('gave up'));
    await expect(queued).rejects.toThrow('gave up');
    expect(clock.pendingTimers).toBe(timersWhileQueued - 1);
    await client.close();
    answer(HttpResponse.json({}));
    await probe;
    expect(clock.pendingTimers).toBe(0);
  });

  it('close() fails waiting calls and leaves no timer behind', async () => {
    api = reopen({ limits: { default: 1 }, windowMs: 5000 });
    await client.channels.get(CHANNEL_A);
    const waiting = client.channels.get(CHANNEL_A);
    await settle();
    expect(clock.pendingTimers).toBeGreaterThan(0);
    await client.close();
    await expect(waiting).rejects.toBeInstanceOf(ClientClosedError);
    expect(clock.pendingTimers).toBe(0);
    await expect(client.gateway.get()).rejects.toBeInstanceOf(ClientClosedError);
  });
});

const queueStores: [string, () => Promise<Store | undefined>][] = [
  ['MemoryStore', async () => undefined],
  ['RedisStore', redisStoresForFile('procedure', { time: 'client' })],
];

describe.each(queueStores)('maximum wait in the queue on %s', (_, makeStore) => {
  it('a queued call past its maxWait rejects with RateLimitWaitError, reason queue, and sends nothing', async () => {
    const store = await makeStore();
    if (store) {
      await client.close();
      client = makeClient({ store });
    }
    // The first call probes (limits unknown) and stays unanswered; the second queues behind it.
    let answer: () => void = () => {};
    api.script(() => new Promise<undefined>((resolve) => (answer = () => resolve(undefined))));
    const probe = client.channels.get(CHANNEL_A);
    await settle();
    const timersBeforeQueued = clock.pendingTimers;
    let outcome: unknown;
    const queued = client.channels.get(CHANNEL_A, undefined, { maxWait: 1000 }).then(
      (value) => (outcome = { resolved: value }),
      (error: unknown) => (outcome = error),
    );
    // Its maxWait counts from when it queues, after a store round trip: a slow Redis must not let
    // the clock move first.
    await untilAfterIo(() => clock.pendingTimers > timersBeforeQueued, 'the queued call to arm its deadline');
    await clock.advance(999);
    expect(outcome).toBeUndefined(); // still within its maxWait
    await clock.advance(1);
    expect(outcome).toBeInstanceOf(RateLimitWaitError);
    expect(outcome).toMatchObject({
      reason: 'queue',
      waitMs: 1000,
      maxWaitMs: 1000,
      bucketKey: `ChannelsId:${CHANNEL_A}`,
    });
    answer();
    await probe;
    await queued;
    expect(api.arrivals).toBe(1); // the queued call never went out
  });
});

describe('transport retry', () => {
  const unavailable = () => HttpResponse.json({ message: 'down' }, { status: 503 });

  it('retries a 5xx on an idempotent method with backoff, bounded', async () => {
    api.script(unavailable, unavailable, unavailable);
    const call = client.gateway.get().catch((caught: unknown) => caught);
    await drive([call]);
    const error = await call;
    expect(error).toBeInstanceOf(HttpError);
    expect(api.requests).toHaveLength(3);
    expect(events.filter((event) => event.reason === 'server-error').map((event) => event.waitMs)).toEqual([300, 600]);
  });

  it('never sends a non-idempotent request twice', async () => {
    api.script(unavailable);
    await expect(client.channels.messages.create(CHANNEL_A, { content: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(api.requests).toHaveLength(1);
  });
});

describe('the bucket map', () => {
  it('is readable and returns copies that cannot change it', async () => {
    await client.gateway.get();
    const copy = (await client.buckets.get('Gateway'))!;
    (copy as { remaining: number }).remaining = 999;
    expect((await client.buckets.get('Gateway'))!.remaining).toBe(4);
  });
});

function reopen(options: { limits: Record<string, number>; windowMs: number }): RateLimitedApi {
  api.close();
  return new RateLimitedApi({ clock, ...options }).listen();
}
