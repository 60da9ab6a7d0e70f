/**
 * The v10 dialect end to end (docs/spec/v10-rate-limits.md §10): the client against the
 * reference service speaking v10 over real HTTP, on one manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  CdnBanError,
  createClient,
  HttpError,
  InvalidRequestGuardError,
  TokenInvalidError,
  WebhookGoneError,
} from '../../src/index.ts';
import type { InvalidRequestsEvent } from '../../src/index.ts';
import { ID_EPOCH_MS } from '../../src/dialects/v10/route.ts';
import { E2E_TOKEN, startE2E, type E2E } from '../support/e2e.ts';

const CHANNEL = '81384788765712384';
const OTHER_CHANNEL = '81384788765712385';
const GUILD = '41771983423143937';

let e2e: E2E;
afterEach(async () => {
  await e2e.stop();
});

const statuses = () => e2e.service.requests.map((request) => request.status);

describe('the v10 service as it is today', () => {
  it('V1: a client without api or base URL version speaks v10; a v10 base URL picks v10 too', async () => {
    e2e = await startE2E({ api: 'v10' });
    expect(e2e.client.api).toBe('v10');
    expect(createClient().api).toBe('v10');
    expect(createClient({ baseUrl: 'http://127.0.0.1:1/api' }).api).toBe('v6');
    expect(() => createClient({ api: 'v6', baseUrl: 'http://127.0.0.1:1/api/v10' })).toThrow(/names v10/);
    // The service's decimal Reset (1795369706.379) is not an error here.
    await expect(e2e.client.channels.get(CHANNEL)).resolves.toMatchObject({ id: CHANNEL, name: 'general' });
  });

  it('V5, V7, V8: a burst on one channel: one probe, then at most Limit per window, zero 429s', async () => {
    e2e = await startE2E({ api: 'v10', defaultLimit: { limit: 5, windowMs: 1000 } });
    const calls = Array.from({ length: 30 }, (_, i) =>
      e2e.client.channels.messages.create(CHANNEL, { content: `#${i}` }),
    );
    const results = await e2e.drive(calls, 50);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(statuses().filter((status) => status === 429)).toEqual([]);
    const [counted] = new Set(e2e.service.requests.map((request) => request.bucketKey));
    expect(e2e.service.maxPerWindow(counted!)).toBe(5);
    // 30 at 5 per second: the last window opens at 5 s (plus the margins), not much later.
    expect(e2e.service.requests.at(-1)!.at - e2e.service.requests[0]!.at).toBeLessThan(5000 + 6 * 60);
  });

  it('rule V6: routes with one hash share one count per resource; another channel has its own', async () => {
    e2e = await startE2E({ api: 'v10', defaultLimit: { limit: 3, windowMs: 1000 } });
    const react = (channel: string, method: 'add' | 'remove', i: number) =>
      method === 'add'
        ? e2e.client.request('PUT', `/channels/${channel}/messages/${i}/reactions/%F0%9F%91%8D/@me`)
        : e2e.client.request('DELETE', `/channels/${channel}/messages/${i}/reactions/%F0%9F%91%8D/@me`);
    // Learn both routes' hash first, then a mixed burst.
    await e2e.drive([react(CHANNEL, 'add', 0)]);
    await e2e.drive([react(CHANNEL, 'remove', 0)]);
    const burst = Array.from({ length: 12 }, (_, i) =>
      react(i % 3 === 0 ? OTHER_CHANNEL : CHANNEL, i % 2 ? 'add' : 'remove', i),
    );
    const results = await e2e.drive(burst, 50);
    expect(results.every((result) => result.status === 'fulfilled' && result.value.status === 204)).toBe(true);
    expect(statuses().filter((status) => status === 429)).toEqual([]);
    expect(e2e.service.maxPerWindow(`reactions channels/${CHANNEL}`)).toBeLessThanOrEqual(3);
    expect(
      await e2e.client.buckets.get(`PUT /channels/:id/messages/:id/reactions/:reaction/@me channels/${CHANNEL}`),
    ).toMatchObject({ limit: 3, hash: 'reactions' });
  });

  it('V13: the global limit is paced ahead (no global 429); exempt webhooks are neither counted nor held, and go without Authorization', async () => {
    e2e = await startE2E({
      api: 'v10',
      global: { limit: 10, windowMs: 1000 },
      defaultLimit: { limit: 50, windowMs: 1000 },
    });
    const sent: { path: string; authorization: string | null }[] = [];
    const client = e2e.newClient({
      globalLimit: 10,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push({ path: new URL(request.url).pathname, authorization: request.headers.get('authorization') });
        return fetch(request);
      },
    });
    const calls = Array.from({ length: 30 }, (_, i) => client.channels.get(String(BigInt(CHANNEL) + BigInt(i))));
    const webhooks = Array.from({ length: 5 }, () => client.webhooks.execute('5', 'hook-token', { content: 'x' }));
    const results = await e2e.drive([...calls, ...webhooks], 20);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(e2e.service.requests.filter((request) => request.global)).toEqual([]);
    const webhookSends = sent.filter((request) => request.path.startsWith('/api/v10/webhooks/'));
    expect(webhookSends).toHaveLength(5);
    expect(webhookSends.every((request) => request.authorization === null)).toBe(true);
    expect(
      sent
        .filter((request) => !request.path.startsWith('/api/v10/webhooks/'))
        .every((request) => request.authorization === E2E_TOKEN),
    ).toBe(true);
    // 30 paced at 10 per second (plus the margin): about 3 s.
    const channelTimes = e2e.service.requests
      .filter((request) => request.routeKey.startsWith('GET /channels'))
      .map((request) => request.at);
    expect(channelTimes.at(-1)! - channelTimes[0]!).toBeGreaterThanOrEqual(2000);
  });

  it("V13: calls without Authorization share the per-IP budget, apart from the token's", async () => {
    e2e = await startE2E({
      api: 'v10',
      global: { limit: 10, windowMs: 1000 },
      defaultLimit: { limit: 50, windowMs: 1000 },
    });
    const client = e2e.newClient({ globalLimit: 10 });
    const first = Array.from({ length: 10 }, (_, i) => client.channels.get(String(BigInt(CHANNEL) + BigInt(i))));
    const widgets = Array.from({ length: 15 }, (_, i) =>
      client.guilds.widgetJson.get(String(BigInt(GUILD) + BigInt(i))),
    );
    const results = await e2e.drive<unknown>([...first, ...widgets], 20);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(e2e.service.requests.filter((request) => request.global)).toEqual([]);
    const times = (route: string) =>
      e2e.service.requests.filter((request) => request.routeKey.startsWith(route)).map((request) => request.at);
    const start = e2e.service.requests[0]!.at;
    // The token's 10 reads fill its second; the first 10 widgets go at once all the same (their
    // budget is the IP's), the other 5 wait for the IP's next second.
    expect(times('GET /channels').every((at) => at === start)).toBe(true);
    const widgetTimes = times('GET /guilds');
    expect(widgetTimes.slice(0, 10).every((at) => at === start)).toBe(true);
    expect(widgetTimes.slice(10).every((at) => at >= start + 1000)).toBe(true);
    // Their buckets are the IP's, and `buckets.get` finds them there.
    expect(await client.buckets.get(`GET /guilds/:id/widget.json guilds/${GUILD}`)).toMatchObject({ limit: 50 });
  });

  it('V12: a global 429 pauses every non-exempt caller of the token for retry_after, then resends', async () => {
    e2e = await startE2E({ api: 'v10' });
    e2e.service.inject({ fault: { kind: 'global' } });
    const first = e2e.client.users.me.get();
    const results = await e2e.drive([first], 50);
    expect(results[0]!.status).toBe('fulfilled');
    expect(statuses()).toEqual([429, 200]);
    expect(e2e.events.filter((event) => event.reason === 'global').map((event) => event.waitMs)).toEqual([1000]);
  });

  it('V9: a user-scope 429 at Remaining 0 holds the key for retry_after (seconds, not ms), then resends', async () => {
    e2e = await startE2E({ api: 'v10', defaultLimit: { limit: 1, windowMs: 2000 } });
    // A second client on the same token but its own store does not know the first one's count.
    const other = e2e.newClient();
    await e2e.drive([e2e.client.channels.get(CHANNEL)]);
    const start = e2e.clock.now();
    const [result] = await e2e.drive([other.channels.get(CHANNEL)], 50);
    expect(result!.status).toBe('fulfilled');
    // The second client's probe meets the spent window: one 429, then the hold, then success.
    expect(statuses()).toEqual([200, 429, 200]);
    expect(e2e.service.requests.at(-1)!.at - start).toBeGreaterThanOrEqual(1900);
    expect(e2e.service.requests.at(-1)!.at - start).toBeLessThan(2500);
  });

  it('V10: a shared-scope 429 delays only that route + resource; it is not an invalid request', async () => {
    e2e = await startE2E({ api: 'v10' });
    await e2e.drive([e2e.client.channels.messages.create(CHANNEL, { content: 'a' })]);
    e2e.service.inject({
      fault: { kind: 'shared', retryAfterMs: 5000 },
      bucketKeyPrefix: 'POST /channels/:id/messages',
    });
    const held = e2e.client.channels.messages.create(CHANNEL, { content: 'b' });
    const other = e2e.client.channels.messages.create(OTHER_CHANNEL, { content: 'c' });
    const results = await e2e.drive([held, other], 50);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    const [, shared, ...rest] = e2e.service.requests;
    expect(shared!.status).toBe(429);
    const retried = rest.find((request) => request.at >= shared!.at + 5000);
    expect(retried?.status).toBe(200);
    expect(await e2e.client.invalidRequests()).toBe(0);
  });

  it('V11: a sublimit 429 (Remaining > 0) delays only that request', async () => {
    e2e = await startE2E({ api: 'v10', defaultLimit: { limit: 10, windowMs: 1000 } });
    await e2e.drive([e2e.client.channels.edit(CHANNEL, { name: 'a' })]);
    e2e.service.inject({ fault: { kind: 'sublimit', retryAfterMs: 600_000 } });
    const renamed = e2e.client.channels.edit(CHANNEL, { name: 'b' }, { maxWait: 60_000 });
    await expect(renamed).rejects.toMatchObject({ name: 'RateLimitWaitError', reason: 'retry-after', waitMs: 600_000 });
    // The bucket's other requests go on.
    await expect(e2e.drive([e2e.client.channels.get(CHANNEL)])).resolves.toMatchObject([{ status: 'fulfilled' }]);
  });

  it('V16: after a 401 the token is invalid: later calls fail unsent', async () => {
    e2e = await startE2E({ api: 'v10', validTokens: ['Bot some-other-token'] });
    await expect(e2e.client.users.me.get()).rejects.toBeInstanceOf(HttpError);
    await expect(e2e.client.channels.get(CHANNEL)).rejects.toBeInstanceOf(TokenInvalidError);
    expect(statuses()).toEqual([401]);
    expect(await e2e.client.invalidRequests()).toBe(1);
  });

  it("V16: a 401 from a route that turns bot tokens away (OAuth2 only) leaves the bot's token good", async () => {
    e2e = await startE2E({ api: 'v10' });
    const error = await e2e.client.users.me.applications.roleConnection
      .get('81384788765712390')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'HttpError', status: 401 });
    await expect(e2e.client.channels.get(CHANNEL)).resolves.toMatchObject({ id: CHANNEL });
    expect(statuses()).toEqual([401, 200]);
    expect(await e2e.client.invalidRequests()).toBe(1);
  });

  it('V17: a CDN ban is a distinct error, never retried, and changes no bucket', async () => {
    e2e = await startE2E({ api: 'v10' });
    e2e.service.inject({ fault: { kind: 'ban', retryAfterSeconds: 3600 } });
    const error = await e2e.client.users.me.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CdnBanError);
    expect((error as CdnBanError).retryAfterMs).toBe(3_600_000);
    expect(statuses()).toEqual([429]);
    expect(await e2e.client.buckets.get('GET /users/@me -')).toBeUndefined();
  });

  it('V19: after a 404 on a webhook with its token, later calls to it fail unsent', async () => {
    e2e = await startE2E({ api: 'v10', deletedWebhooks: ['5'] });
    await expect(e2e.client.webhooks.execute('5', 'hook-token', { content: 'x' })).rejects.toMatchObject({
      status: 404,
    });
    await expect(e2e.client.webhooks.execute('5', 'hook-token', { content: 'y' })).rejects.toBeInstanceOf(
      WebhookGoneError,
    );
    expect(statuses()).toEqual([404]);
  });

  it('V15: the guard stops before the ban, with warnings at 50 % and 80 %', async () => {
    e2e = await startE2E({ api: 'v10', banThreshold: 12 });
    const warnings: InvalidRequestsEvent[] = [];
    const client = e2e.newClient({ invalidRequestLimit: 10, onInvalidRequests: (event) => warnings.push(event) });
    e2e.service.inject({ fault: { kind: 'status', status: 403 }, times: 20 });
    const outcomes: unknown[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await client.guilds.get(GUILD).catch((caught: unknown) => caught));
    expect(outcomes.slice(0, 10).every((outcome) => outcome instanceof HttpError && outcome.status === 403)).toBe(true);
    expect(outcomes.slice(10).every((outcome) => outcome instanceof InvalidRequestGuardError)).toBe(true);
    expect(warnings.map((warning) => [warning.level, warning.count])).toEqual([
      [0.5, 5],
      [0.8, 8],
    ]);
    expect(e2e.service.banned).toBe(false);
    expect(statuses()).toHaveLength(10);
  });

  it('V14, V20: a young message delete answers without headers and has its own, unlimited key', async () => {
    e2e = await startE2E({ api: 'v10', defaultLimit: { limit: 1, windowMs: 5000 } });
    const young = String(BigInt(e2e.clock.now() - ID_EPOCH_MS - 1000) << 22n);
    const older = String(BigInt(e2e.clock.now() - ID_EPOCH_MS - 60_000) << 22n);
    const deletes = Array.from({ length: 4 }, () => e2e.client.channels.messages.delete(CHANNEL, young));
    const results = await e2e.drive([...deletes, e2e.client.channels.messages.delete(CHANNEL, older)], 50);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    // Young deletes: one probe, then no limit; the older one counts in its own bucket.
    expect(e2e.service.requests.filter((request) => request.routeKey.endsWith('#new'))).toHaveLength(4);
    expect(e2e.service.requests.at(-1)!.at - e2e.service.requests[0]!.at).toBeLessThan(1000);
    expect(statuses().filter((status) => status === 429)).toEqual([]);
  });
});
