/**
 * The SDK against the reference service over real HTTP: every rule of the spec observable from
 * outside, and concurrency at scale.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, RateLimitI64Error, RateLimitUtf8Error, routeKeyOf } from '../../src/index.ts';
import { undiciFetch } from '../../src/undici/index.ts';
import { untilWithin } from '../support/manual-clock.ts';
import { startE2E as startWithTransport, type E2E, type Transport } from '../support/e2e.ts';

const CHANNELS = ['81384788765712384', '81384788765712385', '81384788765712386'];
const GUILDS = ['41771983423143937', '41771983423143938'];
let e2e: E2E;

/** The transports the wire-level rows run over: the runtime's fetch, and tollgate/undici's. */
const TRANSPORTS: [string, () => Transport][] = [
  ['runtime fetch', () => fetch],
  ['undiciFetch', () => undiciFetch()],
];
let transport: () => Transport = TRANSPORTS[0]![1];
const startE2E = (options?: Parameters<typeof startWithTransport>[0]) => startWithTransport(options, transport());

afterEach(async () => {
  await e2e?.stop();
});

describe('the spec observable from outside', () => {
  it("the spec's example: L−1, L−1 on another channel, L−2 on the first", async () => {
    e2e = await startE2E({ api: 'v6', defaultLimit: { limit: 5, windowMs: 1000 } });
    const remaining = [];
    for (const [channel, message] of [
      [CHANNELS[0], '1'],
      [CHANNELS[1], '1'],
      [CHANNELS[0], '2'],
    ]) {
      const response = await e2e.client.request('PATCH', `/channels/${channel}/messages/${message}`, {
        json: { content: 'x' },
      });
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['4', '4', '3']);
  });

  it('major parameters isolate buckets: a busy channel or guild never slows another', async () => {
    e2e = await startE2E({ api: 'v6', defaultLimit: { limit: 2, windowMs: 5000 } });
    const { client, service } = e2e;
    await client.channels.get(CHANNELS[0]!);
    await client.channels.get(CHANNELS[0]!);
    const waiting = client.channels.get(CHANNELS[0]!);
    await client.channels.get(CHANNELS[1]!);
    await client.guilds.get(GUILDS[0]!);
    await client.guilds.get(GUILDS[1]!);
    expect(service.requests).toHaveLength(5);
    await e2e.drive([waiting]);
    expect(service.requests.filter((r) => r.status === 429)).toHaveLength(0);
  });

  it('the message-by-id key is split by method: DELETE has its own limit', async () => {
    e2e = await startE2E({
      api: 'v6',
      defaultLimit: { limit: 1, windowMs: 10_000 },
      routes: { 'ChannelsIdMessagesId:DELETE': { limit: 3, windowMs: 10_000 } },
    });
    const { client, service } = e2e;
    for (const id of ['1', '2', '3']) await client.channels.messages.delete(CHANNELS[0]!, id);
    await client.channels.messages.get(CHANNELS[0]!, '1');
    expect(service.requests.map((r) => [r.bucketKey, r.status])).toEqual([
      [`ChannelsIdMessagesId:DELETE:${CHANNELS[0]}`, 200],
      [`ChannelsIdMessagesId:DELETE:${CHANNELS[0]}`, 200],
      [`ChannelsIdMessagesId:DELETE:${CHANNELS[0]}`, 200],
      [`ChannelsIdMessagesId:GET:${CHANNELS[0]}`, 200],
    ]);
    expect(e2e.events).toEqual([]);
  });

  it('remaining 0: the next request waits (reset − now) s + 500 ms, then goes through', async () => {
    e2e = await startE2E({ api: 'v6', defaultLimit: { limit: 2, windowMs: 2000 } });
    const { client, service, clock } = e2e;
    await client.gateway.get();
    await client.gateway.get();
    const bucket = (await client.buckets.get('Gateway'))!;
    const start = clock.now();
    const third = client.gateway.get();
    await e2e.drive([third], 10);
    const expectedWait = (bucket.reset - Math.floor(start / 1000)) * 1000 + 500;
    expect(e2e.events.map((event) => [event.reason, event.waitMs])).toEqual([['bucket', expectedWait]]);
    expect(service.requests[2]!.at - start).toBeGreaterThanOrEqual(expectedWait);
    expect(service.requests[2]!.at - start).toBeLessThan(expectedWait + 10);
    expect(service.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('a global wait holds back every caller until it ends', async () => {
    e2e = await startE2E({ api: 'v6' });
    const { client, service } = e2e;
    service.inject({ fault: { kind: 'global', retryAfterMs: 1500 }, bucketKeyPrefix: 'ChannelsId:' });
    const first = client.channels.get(CHANNELS[0]!);
    await e2e.drive([], 1); // let the global 429 arrive
    const start = service.requests[0]!.at;
    const others: Promise<unknown>[] = [
      client.guilds.get(GUILDS[0]!),
      client.users.me.get(),
      client.request('GET', '/oauth2/applications/@me'),
    ];
    const results = await e2e.drive([first, ...others], 50);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(service.requests[0]).toMatchObject({ status: 429, global: true });
    expect(service.requests.slice(1).every((r) => r.at >= start + 1500)).toBe(true);
  });

  it('None routes carry no rate-limit headers and make no bucket', async () => {
    e2e = await startE2E({ api: 'v6' });
    const response = await e2e.client.request('GET', '/oauth2/applications/@me');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect(routeKeyOf('GET', '/oauth2/applications/@me')).toBe('None');
    expect(await e2e.client.buckets.get('None')).toBeUndefined();
  });
});

describe.each(TRANSPORTS)('over %s', (_name, makeTransport) => {
  beforeAll(() => {
    transport = makeTransport;
  });
  afterAll(() => {
    transport = TRANSPORTS[0]![1];
  });

  describe('every Errors row over HTTP', () => {
    it('row 1: a non-global 429 with retry-after is waited out and repeated', async () => {
      e2e = await startE2E({ api: 'v6', defaultLimit: { limit: 1, windowMs: 3000 } });
      const { client, service } = e2e;
      // A second client on the same token does not know the first used up the bucket.
      const other = e2e.newClient();
      await other.gateway.get();
      const call = client.gateway.get();
      const [result] = await e2e.drive([call]);
      expect(result!.status).toBe('fulfilled');
      expect(service.requests.map((r) => r.status)).toEqual([200, 429, 200]);
      expect(e2e.events.filter((event) => event.reason === 'retry-after')).toHaveLength(1);
    });

    it('row 2: a 429 without retry-after is returned to the caller', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({ fault: { kind: 'rate-limited-without-retry-after' } });
      const error = await e2e.client.gateway.get().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 429 });
    });

    it('row 3: a global 429 with retry-after is waited out and repeated', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({ fault: { kind: 'global', retryAfterMs: 800 } });
      const [result] = await e2e.drive([e2e.client.users.me.get()]);
      expect(result!.status).toBe('fulfilled');
      expect(e2e.events.map((event) => [event.reason, event.waitMs])).toEqual([['global', 800]]);
    });

    it('row 4: a retry-after whose bytes are not UTF-8, in the global branch, rejects with RateLimitUtf8Error', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({
        fault: {
          kind: 'headers',
          status: 429,
          headers: { 'x-ratelimit-global': 'true', 'retry-after': '\u00ff\u00fe1' },
        },
      });
      await expect(e2e.client.users.me.get()).rejects.toBeInstanceOf(RateLimitUtf8Error);
    });

    it('row 5: a retry-after that is not a signed 64-bit integer, in the global branch, rejects with RateLimitI64Error', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({
        fault: {
          kind: 'headers',
          status: 429,
          headers: { 'x-ratelimit-global': 'true', 'retry-after': '99999999999999999999' },
        },
      });
      await expect(e2e.client.users.me.get()).rejects.toBeInstanceOf(RateLimitI64Error);
    });

    it('rows 4–5 in the non-global branch: the request is sent again', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({ fault: { kind: 'headers', headers: { 'x-ratelimit-remaining': '\u00c3\u0028' } } });
      e2e.service.inject({ fault: { kind: 'headers', headers: { 'x-ratelimit-reset': 'soon' } } });
      expect(await e2e.client.users.me.get()).toMatchObject({ username: 'tollgate' });
      expect(e2e.service.requests).toHaveLength(3);
    });
  });

  describe('concurrency over HTTP', () => {
    it('hundreds of calls over a handful of buckets: all complete, zero 429s, never more than the limit per window', async () => {
      e2e = await startE2E({
        api: 'v6',
        defaultLimit: { limit: 5, windowMs: 1000 },
        routes: { ChannelsIdMessages: { limit: 10, windowMs: 2000 } },
        global: { limit: 1000, windowMs: 1000 },
      });
      const { client, service } = e2e;
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < 300; i++) {
        const channel = CHANNELS[i % CHANNELS.length]!;
        const guild = GUILDS[Math.floor(i / 4) % GUILDS.length]!;
        switch (i % 4) {
          case 0:
            calls.push(client.channels.messages.create(channel, { content: `#${i}` }));
            break;
          case 1:
            calls.push(client.channels.messages.list(channel, { limit: 1 }));
            break;
          case 2:
            calls.push(client.guilds.members.list(guild));
            break;
          default:
            calls.push(client.gateway.get());
        }
      }
      const results = await e2e.drive(calls, 100);
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      expect(service.requests).toHaveLength(300);
      expect(service.requests.filter((r) => r.status === 429)).toHaveLength(0);
      const buckets = new Set(service.requests.map((r) => r.bucketKey));
      expect(buckets.size).toBe(3 + 2 + 1);
      for (const bucketKey of buckets) {
        expect(service.maxPerWindow(bucketKey), bucketKey).toBeLessThanOrEqual(service.limitOf(bucketKey).limit);
      }
    }, 60_000);
  });

  describe('transport faults', () => {
    it('a dropped connection on a GET is retried; on a POST it reaches the caller', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({ fault: { kind: 'drop' } });
      const [get] = await e2e.drive([e2e.client.gateway.get()]);
      expect(get!.status).toBe('fulfilled');
      e2e.service.inject({ fault: { kind: 'drop' } });
      const [post] = await e2e.drive([e2e.client.channels.messages.create(CHANNELS[0]!, { content: 'once' })]);
      expect(post!.status).toBe('rejected');
      expect(e2e.service.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    });

    it('a 5xx storm: idempotent calls retry a bounded number of times, then the error reaches the caller', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({ fault: { kind: 'status', status: 502 }, times: 10 });
      const [result] = await e2e.drive([e2e.client.gateway.get()]);
      expect(result).toMatchObject({ status: 'rejected', reason: { name: 'HttpError', status: 502 } });
      expect(e2e.service.requests).toHaveLength(3);
    });

    it('a slow response past the timeout fails the call with a timeout, and frees the bucket', async () => {
      e2e = await startE2E({ api: 'v6' });
      // No transport retry: a GET that timed out would be resent (after a backoff on the manual clock).
      const client = e2e.newClient({ timeout: 50, transportRetries: 0 });
      e2e.service.inject({ fault: { kind: 'slow', delayMs: 500 } });
      await expect(client.gateway.get()).rejects.toMatchObject({ name: 'TimeoutError' });
      // The next call has time to be answered on a busy machine: what it shows is the bucket freed.
      expect(await client.gateway.get(undefined, { timeout: 10_000 })).toMatchObject({
        url: expect.stringMatching(/^wss:/),
      });
    });

    it('a body that trickles in past the timeout fails the call too, and frees the bucket', async () => {
      e2e = await startE2E({ api: 'v6' });
      const client = e2e.newClient({ timeout: 50, transportRetries: 0 });
      e2e.service.inject({ fault: { kind: 'slow-body', delayMs: 500 } });
      await expect(client.gateway.get()).rejects.toMatchObject({ name: 'TimeoutError', routeKey: 'Gateway' });
      expect(await client.gateway.get(undefined, { timeout: 10_000 })).toMatchObject({
        url: expect.stringMatching(/^wss:/),
      });
    });

    it('non-idempotent requests are never sent twice: not after a 5xx, a timeout or a reset', async () => {
      e2e = await startE2E({ api: 'v6' });
      // Room for a 503 or a reset to come back on a busy machine; the slow answer comes well after.
      const client = e2e.newClient({ timeout: 500 });
      const post = (channel: string) => client.channels.messages.create(channel, { content: 'once' });
      e2e.service.inject({
        fault: { kind: 'status', status: 503 },
        times: 5,
        bucketKeyPrefix: `ChannelsIdMessages:${CHANNELS[0]}`,
      });
      await expect(post(CHANNELS[0]!)).rejects.toMatchObject({ name: 'HttpError', status: 503 });
      e2e.service.inject({
        fault: { kind: 'slow', delayMs: 1500 },
        times: 5,
        bucketKeyPrefix: `ChannelsIdMessages:${CHANNELS[1]}`,
      });
      await expect(post(CHANNELS[1]!)).rejects.toMatchObject({ name: 'TimeoutError' });
      e2e.service.inject({ fault: { kind: 'drop' }, times: 5, bucketKeyPrefix: `ChannelsIdMessages:${CHANNELS[2]}` });
      await expect(post(CHANNELS[2]!)).rejects.toMatchObject({ name: 'NetworkError' });
      // The slow answer leaves the service 1.5 s after its request: waited for in real time.
      await untilWithin(() => e2e.service.inFlight === 0, 'the slow request to be answered', 10_000);
      expect(e2e.service.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
    });

    it('resets on every attempt: a GET is tried 1 + transportRetries times, then NetworkError', async () => {
      e2e = await startE2E({ api: 'v6' });
      e2e.service.inject({ fault: { kind: 'drop' }, times: 10 });
      const [result] = await e2e.drive([e2e.client.gateway.get()]);
      expect(result).toMatchObject({ status: 'rejected', reason: { name: 'NetworkError', routeKey: 'Gateway' } });
      expect(e2e.service.requests).toHaveLength(3);
    });

    it('a storm of mixed faults under load: every caller gets a result or a clear error, none hangs', async () => {
      e2e = await startE2E({
        api: 'v6',
        defaultLimit: { limit: 3, windowMs: 1000 },
        global: { limit: 1000, windowMs: 1000 },
      });
      const client = e2e.newClient({ timeout: 200 });
      const faults = [
        { kind: 'drop' },
        { kind: 'status', status: 502 },
        { kind: 'slow', delayMs: 400 },
        { kind: 'slow-body', delayMs: 400 },
        { kind: 'rate-limited-without-retry-after' },
        { kind: 'headers', headers: { 'x-ratelimit-remaining': 'garbage' } },
      ] as const;
      for (const [index, fault] of faults.entries())
        e2e.service.inject({ fault, times: 2, bucketKeyPrefix: `ChannelsId:${CHANNELS[index % 3]}` });
      const calls = Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0 ? client.channels.get(CHANNELS[i % 3]!) : client.channels.edit(CHANNELS[i % 3]!, { name: `#${i}` }),
      );
      const results = await e2e.drive(calls, 100, 1000);
      const known = ['NetworkError', 'HttpError', 'TimeoutError'];
      for (const result of results) {
        if (result.status === 'rejected') expect(known).toContain((result.reason as Error).name);
      }
      expect(results.filter((result) => result.status === 'fulfilled').length).toBeGreaterThan(40);
      expect(e2e.service.inFlight).toBe(0);
      // Bucket 429s only where a fault scripted one.
      // No unscripted 429 where the faults let the client see rate-limit headers. On the third
      // channel a timed-out probe and unparseable headers hide them (each still counts at the
      // service), so a 429 can happen there; it carries retry-after and is waited out.
      const hidden = `ChannelsId:${CHANNELS[2]}`;
      expect(
        e2e.service.requests.filter((r) => r.status === 429 && r.fault === undefined && r.bucketKey !== hidden),
      ).toEqual([]);
    });
  });
});
