/**
 * The client's typed events (`client.on`): every response, every 429 with its scope, waits,
 * invalid-request warnings and decisions in words; listeners that throw break nothing; no event
 * shows a token. And the User-Agent every request carries.
 */
import { describe, expect, it } from 'vitest';
import {
  createClient,
  type ClientOptions,
  type RateLimitedEvent,
  type ResponseEvent,
  type WaitEvent,
} from '../../src/index.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { driveUntilSettled, ManualClock } from '../support/manual-clock.ts';
import { SPENT_BUCKET_429 } from '../support/headers.ts';

const BASE = 'http://127.0.0.1:1/api/v10';
const CHANNEL = '81384788765712384';
const WEBHOOK_TOKEN = 'webhook-s3cret-token-value';

type Answer = { status: number; headers?: Record<string, string>; body?: string };

/** A client on a manual clock whose fetch answers each attempt with the next scripted answer (then 200s). */
function scripted(answers: Answer[], options: Partial<ClientOptions> = {}) {
  const clock = new ManualClock();
  const userAgents: (string | null)[] = [];
  const client = createClient({
    baseUrl: BASE,
    token: 'Bot events-token-1234',
    clock,
    ...options,
    fetch: async (input) => {
      const request = input as Request;
      userAgents.push(request.headers.get('user-agent'));
      clock.set(clock.now() + 40); // each answer takes 40 ms
      const answer = answers.shift() ?? { status: 200, body: '{}' };
      return new Response(answer.body ?? null, {
        status: answer.status,
        headers: { 'content-type': 'application/json', via: '1.1 google', ...answer.headers },
      });
    },
  });
  return { client, clock, userAgents };
}

describe('client.on', () => {
  it('response: each attempt, with its route template, status, duration, attempt number and bucket key', async () => {
    const { client, clock } = scripted([{ status: 503 }]);
    const responses: ResponseEvent[] = [];
    client.on('response', (event) => responses.push(event));
    const call = client.channels.get(CHANNEL);
    await driveUntilSettled(clock, [call]);
    await call;
    expect(responses).toEqual([
      {
        method: 'GET',
        route: 'GET /channels/:id',
        routeKey: 'ChannelsId',
        bucketKey: `GET /channels/:id channels/${CHANNEL}`,
        resource: `channels/${CHANNEL}`,
        status: 503,
        durationMs: 40,
        attempt: 1,
      },
      expect.objectContaining({ status: 200, attempt: 2, durationMs: 40 }),
    ]);
    await client.close();
  });

  it('rateLimited: every 429, its scope, hash, route, resource, wait and whether the call is resent', async () => {
    const { client, clock } = scripted([
      { status: 429, headers: SPENT_BUCKET_429, body: '{"message":"x","retry_after":1.25,"global":false}' },
      { status: 429, headers: { 'x-ratelimit-global': 'true', 'retry-after': '1' } },
    ]);
    const limited: RateLimitedEvent[] = [];
    client.on('rateLimited', (event) => limited.push(event));
    const call = client.channels.messages.list(CHANNEL);
    await driveUntilSettled(clock, [call]);
    await call;
    expect(limited).toEqual([
      {
        method: 'GET',
        route: 'GET /channels/:id/messages',
        routeKey: 'ChannelsIdMessages',
        bucketKey: `GET /channels/:id/messages channels/${CHANNEL}`,
        resource: `channels/${CHANNEL}`,
        scope: 'user',
        hash: 'abc123',
        waitMs: 1250,
        retried: true,
      },
      expect.objectContaining({ scope: 'global', waitMs: 1000, retried: true, hash: undefined }),
    ]);
    await client.close();
  });

  it('rateLimited: a CDN ban is reported, not resent', async () => {
    const { client, clock } = scripted([{ status: 429, headers: { via: '', 'retry-after': '60' } }]);
    const limited: RateLimitedEvent[] = [];
    client.on('rateLimited', (event) => limited.push(event));
    const call = client.channels.get(CHANNEL).catch((error: unknown) => error);
    await driveUntilSettled(clock, [call]);
    expect(await call).toMatchObject({ name: 'CdnBanError' });
    expect(limited).toEqual([expect.objectContaining({ scope: 'ban', waitMs: 60_000, retried: false })]);
    await client.close();
  });

  it('wait and debug; once and off; a listener that throws breaks nothing', async () => {
    const { client, clock } = scripted([{ status: 429, headers: SPENT_BUCKET_429 }]);
    const waits: WaitEvent[] = [];
    const debug: string[] = [];
    let onceCalls = 0;
    const removed = () => {
      throw new Error('removed listener called');
    };
    client
      .on('wait', (event) => waits.push(event))
      .on('debug', (line) => debug.push(line))
      .once('response', () => (onceCalls += 1))
      .on('response', removed)
      .off('response', removed)
      .on('rateLimited', () => {
        throw new Error('a listener that throws');
      });
    const call = client.channels.get(CHANNEL);
    await driveUntilSettled(clock, [call]);
    await expect(call).resolves.toEqual({});
    expect(onceCalls).toBe(1);
    expect(waits).toEqual([expect.objectContaining({ reason: 'bucket', routeKey: 'ChannelsId', waitMs: 2000 })]);
    expect(debug).toContain(`GET /channels/:id [GET /channels/:id channels/${CHANNEL}]: 429 → retry`);
    expect(debug.some((line) => /waits 2000 ms \(bucket\)/.test(line))).toBe(true);
    await client.close();
  });

  it('no event shows a webhook token', async () => {
    const { client, clock } = scripted([{ status: 429, headers: SPENT_BUCKET_429 }]);
    const seen: unknown[] = [];
    for (const name of ['response', 'rateLimited', 'wait', 'debug'] as const)
      client.on(name, (event) => seen.push(event));
    const call = client.webhooks.execute('1', WEBHOOK_TOKEN, { content: 'x' });
    await driveUntilSettled(clock, [call]);
    await call;
    expect(seen.length).toBeGreaterThan(3);
    expect(JSON.stringify(seen)).not.toContain(WEBHOOK_TOKEN);
    expect(JSON.stringify(seen)).toContain('/webhooks/:id/:token');
    await client.close();
  });
});

describe('User-Agent', () => {
  const repository = packageJson.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  it('names the package and its version as the service asks, from package.json', async () => {
    const { client, userAgents } = scripted([]);
    await client.gateway.get();
    expect(userAgents).toEqual([`DiscordBot (${repository}, ${packageJson.version})`]);
    await client.close();
  });
  it('userAgentAppendix adds to it', async () => {
    const { client, userAgents } = scripted([], { userAgentAppendix: 'MyBot/1.2' });
    await client.gateway.get();
    expect(userAgents).toEqual([`DiscordBot (${repository}, ${packageJson.version}) MyBot/1.2`]);
    expect(() => createClient({ userAgentAppendix: 'a\nb' })).toThrow(/userAgentAppendix must be printable/);
    await client.close();
  });
});
