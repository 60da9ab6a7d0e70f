/**
 * `client.withToken`: a client per user's token that shares the parent's store, transport,
 * listeners and options, each token with its own lane, at most `maxTokens` of them kept.
 */
import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  createClient,
  MemoryStore,
  TollgateArgumentError,
  type ClientOptions,
} from '../../src/index.ts';
import { ManualClock, settle } from '../support/manual-clock.ts';

const BASE = 'http://with-token.test/api/v10';
const LIMIT_HEADERS = {
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': '4',
  'x-ratelimit-reset-after': '1',
  'x-ratelimit-bucket': 'me',
};

/** A client on a scripted fetch that records each request's Authorization; `hold` keeps answers back until released. */
function setup(options: Partial<ClientOptions> = {}) {
  const sent: (string | null)[] = [];
  const held: (() => void)[] = [];
  let holding = false;
  const store = new MemoryStore();
  const clock = new ManualClock();
  const fetch = async (input: RequestInfo | URL) => {
    sent.push((input as Request).headers.get('authorization'));
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    return Response.json({ id: '1' }, { headers: LIMIT_HEADERS });
  };
  const client = createClient({ baseUrl: BASE, token: 'Bot parent', store, clock, fetch, ...options });
  return {
    client,
    store,
    clock,
    sent,
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      held.splice(0).forEach((resolve) => resolve());
    },
  };
}

describe('withToken', () => {
  it("sends with the token given, beside the parent's own", async () => {
    const { client, sent } = setup();
    await client.withToken('Bearer user-a').users.me.get();
    await client.users.me.get();
    await client.withToken('Bearer user-b').users.me.get();
    expect(sent).toEqual(['Bearer user-a', 'Bot parent', 'Bearer user-b']);
    await client.close();
  });

  it("shares the parent's store (a view per token in it), listeners and options", async () => {
    const seen: string[] = [];
    const { client, store } = setup({ allowedMentions: { parse: [] } });
    client.on('response', (event) => seen.push(event.route));
    const user = client.withToken('Bearer user-a');
    await user.users.me.get();
    expect(store.viewCount).toBe(3); // the parent's token, the IP's (calls without Authorization), user-a's
    expect(seen).toEqual(['GET /users/@me']);
    expect(user.api).toBe('v10');
    expect(user.cdn).toBe(client.cdn);
    await client.close();
  });

  it('refuses a token that is not one, without showing it', () => {
    const { client } = setup();
    for (const token of ['', 'Bearer a\nb', 42, undefined]) {
      expect(() => client.withToken(token as string)).toThrow(TollgateArgumentError);
    }
    expect(() => client.withToken('Bearer secret\u0000')).toThrow(/^withToken: token must be printable/);
    expect(() => client.withToken('Bearer secret\u0000')).not.toThrow(/secret/);
  });

  it('says what a token is when none is given, and when one is not a string', () => {
    const { client } = setup();
    expect(() => client.withToken(undefined as never)).toThrow('withToken: token must be a string such as "Bearer …"');
    expect(() => client.withToken(42 as never)).toThrow('withToken: token must be a string such as "Bot …"');
  });

  it('keeps at most maxTokens lanes: the least recently used idle one goes, and comes back on its next call', async () => {
    const { client, store, clock } = setup({ maxTokens: 2 });
    const first = client.withToken('Bearer user-0');
    for (let user = 0; user < 50; user++) {
      await client.withToken(`Bearer user-${user}`).users.me.get();
      // Each lane let go leaves a view the store drops once its window has passed.
      await clock.advance(61_000);
    }
    // The parent's and the IP's views, two users' lanes, and the one let go last, not yet swept.
    expect(store.viewCount).toBeLessThanOrEqual(2 + 2 + 1);
    // The client object of a token whose lane went still works: its lane is made anew.
    await expect(first.users.me.get()).resolves.toEqual({ id: '1' });
    await client.close();
  });

  it('2,000 tokens in turn keep the store bounded by the default maxTokens (1,000)', async () => {
    // One call per token never waits: time only has to move, so a clock moved by hand, no timers run.
    let now = Date.UTC(2026, 10, 27);
    const { client, store } = setup({ clock: { now: () => now, setTimeout: () => () => {} } });
    for (let user = 0; user < 2000; user++) {
      await client.withToken(`Bearer user-${user}`).users.me.get();
      // 10 ms apart: each window (1 s) is over 100 tokens later, and a view let go can be dropped.
      now += 10;
    }
    // 1,000 lanes kept, the parent's and the IP's views, and lanes let go whose window is still open.
    expect(store.viewCount).toBeLessThanOrEqual(1000 + 2 + 100);
    await client.close();
  });

  it('never lets go of a lane with a call waiting or under way', async () => {
    const { client, hold, release } = setup({ maxTokens: 1 });
    hold();
    const a = client.withToken('Bearer user-a');
    // The first call is under way (held); the second waits behind it for the bucket's limits.
    const underWay = a.users.me.get();
    const waiting = a.users.me.get();
    await settle();
    const other = client.withToken('Bearer user-b').users.me.get();
    await settle();
    release();
    // Had user-a's lane been closed for user-b's, its waiting call would fail as closed.
    await expect(Promise.all([underWay, waiting, other])).resolves.toEqual([{ id: '1' }, { id: '1' }, { id: '1' }]);
    await client.close();
  });

  it("a token's client closes its own lane alone; closing the parent closes them all", async () => {
    const { client } = setup();
    const a = client.withToken('Bearer user-a');
    const b = client.withToken('Bearer user-b');
    await a.users.me.get();
    await a.close();
    await expect(a.users.me.get()).rejects.toBeInstanceOf(ClientClosedError);
    await expect(b.users.me.get()).resolves.toEqual({ id: '1' });
    await expect(client.withToken('Bearer user-a').users.me.get()).resolves.toEqual({ id: '1' });
    await client.close();
    await expect(b.users.me.get()).rejects.toBeInstanceOf(ClientClosedError);
    expect(() => client.withToken('Bearer user-c')).toThrow(ClientClosedError);
  });
});
