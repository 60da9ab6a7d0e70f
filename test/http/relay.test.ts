/**
 * The relay (`createRelay`) on a scripted fetch and a manual clock: which lane a request goes in
 * (its token's, or the IP's), which lanes `maxTokens` may close, and what a 401 says of a token.
 * The relay against the reference service over real HTTP is test/http/relay.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  createRelay,
  GENERATED_HEADER,
  TollgateArgumentError,
  type RelayOptions,
  type WaitEvent,
} from '../../src/index.ts';
import { DEFAULT_INVALID_REQUEST_LIMIT } from '../../src/dialects/v10/rules.ts';
import { relayedCallOf } from '../../src/http/relay.ts';
import { driveUntilSettled, ManualClock, until } from '../support/manual-clock.ts';

const ROOT = 'http://relay.test/api';
const channel = (id: string) => `${ROOT}/v10/channels/${id}`;

interface Sent {
  readonly path: string;
  /** The Authorization sent, or null without one. */
  readonly authorization: string | null;
}

/** A fetch whose answers the test gives, to each request by the order it was sent in. */
function scriptedFetch() {
  const sent: Sent[] = [];
  const answers: ((response: Response) => void)[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push({ path: new URL(request.url).pathname, authorization: request.headers.get('authorization') });
    return new Promise((resolve) => answers.push(resolve));
  };
  /** Answers the request sent `index`-th (from 0). */
  const answer = (index: number, status: number, headers: Record<string, string> = {}) => {
    answers[index]!(new Response('{}', { status, headers: { 'content-type': 'application/json', ...headers } }));
  };
  return { fetch: fetch as typeof globalThis.fetch, sent, answer };
}

/** A relay on a scripted fetch that answers every request at once with `respond`. */
function answering(respond: (path: string) => { status: number; headers?: Record<string, string> }) {
  const sent: Sent[] = [];
  const clock = new ManualClock();
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    sent.push({ path, authorization: request.headers.get('authorization') });
    const { status, headers = {} } = respond(path);
    return new Response('{}', { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  const make = (options: RelayOptions = {}) => createRelay({ apiRoot: ROOT, clock, fetch, ...options });
  return { clock, sent, make };
}

/** A window of `limit` with `remaining` left, ending `resetAfter` seconds from now. */
const windowOf = (limit: number, remaining: number, resetAfter: number, bucket = 'b1') => ({
  'x-ratelimit-limit': String(limit),
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset-after': String(resetAfter),
  'x-ratelimit-bucket': bucket,
});

describe('a relay past maxTokens', () => {
  it("never closes a lane with a request under way or waiting: the newcomer's lane is added, and both go on", async () => {
    const clock = new ManualClock();
    const script = scriptedFetch();
    const relay = createRelay({ apiRoot: ROOT, clock, fetch: script.fetch, maxTokens: 1 });
    const underWay = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    await until(() => script.sent.length === 1, "Bot a's first request to be sent");
    // Its bucket is unknown until the first answer: the second waits for it (V5).
    const waiting = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    waiting.catch(() => {}); // awaited below; a failure shows there, not as an unhandled rejection first
    const newcomer = relay(channel('2'), { headers: { authorization: 'Bot b' } });
    await until(() => script.sent.length === 2, "Bot b's request to be sent");
    script.answer(1, 200, windowOf(5, 4, 1, 'channel-2'));
    expect((await newcomer).status).toBe(200);

    script.answer(0, 200, windowOf(5, 4, 1));
    await until(() => script.sent.length === 3, "Bot a's waiting request to be sent");
    script.answer(2, 200, windowOf(5, 3, 1));
    expect([(await underWay).status, (await waiting).status]).toEqual([200, 200]);
    expect(script.sent).toEqual([
      { path: '/api/v10/channels/1', authorization: 'Bot a' },
      { path: '/api/v10/channels/2', authorization: 'Bot b' },
      { path: '/api/v10/channels/1', authorization: 'Bot a' },
    ]);
    await relay.close();
  });

  it('never closes a lane whose request waits for its window: it goes when the window ends, in the same lane', async () => {
    const { clock, sent, make } = answering((path) => ({
      status: 200,
      headers: path.endsWith('/1') ? windowOf(1, 0, 2) : windowOf(5, 4, 1, 'channel-2'),
    }));
    const relay = make({ maxTokens: 1 });
    const first = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    await driveUntilSettled(clock, [first]);
    const askedAt = clock.now();
    // Bot a's window is spent for 2 s: its next request waits, and its lane has a request waiting.
    const waiting = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    const newcomer = relay(channel('2'), { headers: { authorization: 'Bot b' } });
    await driveUntilSettled(clock, [newcomer, waiting]);
    expect([(await first).status, (await newcomer).status, (await waiting).status]).toEqual([200, 200, 200]);
    expect(sent.map((request) => request.authorization)).toEqual(['Bot a', 'Bot b', 'Bot a']);
    // It waited out the window its lane knew of, rather than going at once in a lane made anew.
    expect(clock.now() - askedAt).toBeGreaterThanOrEqual(2000);
    await relay.close();
  });
});

describe("a relay's empty Authorization", () => {
  it.each([
    ['Authorization: (nothing)', ''],
    ['Authorization: (spaces only)', '   '],
  ])('%s counts as none: sent without the header, in the IP lane', async (_, authorization) => {
    const { clock, sent, make } = answering((path) => ({
      status: 200,
      headers: path.endsWith('/1') ? windowOf(1, 0, 10) : {},
    }));
    const relay = make({ maxWait: 1000 });
    const fresh = relay(channel('2'), { headers: { authorization } });
    await driveUntilSettled(clock, [fresh]);
    expect((await fresh).status).toBe(200);
    expect(sent).toEqual([{ path: '/api/v10/channels/2', authorization: null }]);

    // The IP's lane spends its window on channel 1 for 10 s…
    const anonymous = relay(channel('1'));
    await driveUntilSettled(clock, [anonymous]);
    expect((await anonymous).status).toBe(200);
    // …and a request with an empty Authorization waits for it there: longer than maxWait, so not sent.
    const refused = relay(channel('1'), { headers: { authorization } });
    await driveUntilSettled(clock, [refused]);
    expect((await refused).status).toBe(429);
    expect((await refused).headers.get(GENERATED_HEADER)).toBe('RATE_LIMIT_WAIT');
    expect(sent).toHaveLength(2);
    await relay.close();
  });
});

describe("a relay's Bearer tokens", () => {
  it.each(['bearer', 'BEARER', 'Bearer'])(
    'knows "%s …" for a Bearer token: a 401 from a route that takes bot tokens only leaves it good',
    async (prefix) => {
      // GET /channels/{id} turns Bearer tokens away (the catalog's auth); GET /users/@me takes them.
      const { clock, sent, make } = answering((path) => ({ status: path.includes('/channels/') ? 401 : 200 }));
      const relay = make();
      const token = `${prefix} oauth2-access-token`;
      const refused = relay(channel('1'), { headers: { authorization: token } });
      await driveUntilSettled(clock, [refused]);
      expect((await refused).status).toBe(401);
      expect((await refused).headers.get(GENERATED_HEADER)).toBeNull();

      const me = relay(`${ROOT}/v10/users/@me`, { headers: { authorization: token } });
      await driveUntilSettled(clock, [me]);
      expect((await me).headers.get(GENERATED_HEADER)).toBeNull();
      expect((await me).status).toBe(200);
      expect(sent.map((request) => request.path)).toEqual(['/api/v10/channels/1', '/api/v10/users/@me']);
      await relay.close();
    },
  );
});

describe("a relay's answers name their call", () => {
  it('by the route it classified the request by: an answer from the service and one the relay made', async () => {
    const { clock, make } = answering(() => ({ status: 200, headers: windowOf(1, 0, 10) }));
    const relay = make({ maxWait: 0 });
    const post = { method: 'POST', headers: { authorization: 'Bot a' } };
    const first = relay(`${channel('1')}/messages`, post);
    await driveUntilSettled(clock, [first]);
    const second = relay(`${channel('1')}/messages`, post);
    await driveUntilSettled(clock, [second]);
    expect((await second).headers.get(GENERATED_HEADER)).toBe('RATE_LIMIT_WAIT');
    for (const answer of [await first, await second]) {
      expect(relayedCallOf(answer)).toMatchObject({ route: 'POST /channels/:id/messages', resource: 'channels/1' });
    }
    expect(relayedCallOf(new Response('{}'))).toBeUndefined();
    await relay.close();
  });
});

describe("a relay's API root", () => {
  it.each([
    ['not text', 42],
    ['without a scheme', 'relay.test/api'],
    ['of another scheme', 'ftp://relay.test/api'],
    ['with something before the scheme', 'xhttps://relay.test/api'],
    ['a scheme alone', 'https://'],
  ])('refuses one %s', (_, apiRoot) => {
    expect(() => createRelay({ apiRoot: apiRoot as string })).toThrow(
      new TollgateArgumentError(
        'createRelay: apiRoot must be an absolute http(s) URL such as "https://discord.com/api"',
      ),
    );
  });

  it("is Discord's by default, and a URL under any other is refused", async () => {
    const { sent, make } = answering(() => ({ status: 200 }));
    const relay = make({ apiRoot: undefined });
    await expect(relay(channel('1'))).rejects.toThrow(
      new TollgateArgumentError(
        'relay: http://relay.test/api/v10/channels/1 is not under the API root https://discord.com/api (set apiRoot to relay to another)',
      ),
    );
    expect((await relay('https://discord.com/api/v10/channels/1')).status).toBe(200);
    expect(sent).toEqual([{ path: '/api/v10/channels/1', authorization: null }]);
    await relay.close();
  });

  it('may name a version of its own before the API: only a version at its end is refused', async () => {
    const { sent, make } = answering(() => ({ status: 200 }));
    const relay = make({ apiRoot: 'http://relay.test/v1/discord/api' });
    expect((await relay('http://relay.test/v1/discord/api/v10/channels/1')).status).toBe(200);
    expect(sent.map((request) => request.path)).toEqual(['/v1/discord/api/v10/channels/1']);
    await relay.close();
  });

  it('may end in slashes: the requests under it go as they would without them', async () => {
    const { sent, make } = answering(() => ({ status: 200 }));
    const relay = make({ apiRoot: `${ROOT}//` });
    expect((await relay(channel('1'))).status).toBe(200);
    expect(sent.map((request) => request.path)).toEqual(['/api/v10/channels/1']);
    await relay.close();
  });

  it('refuses a URL that does not parse, as one outside the root', async () => {
    const { sent, make } = answering(() => ({ status: 200 }));
    const relay = make();
    await expect(relay('not a url')).rejects.toThrow(
      new TollgateArgumentError(`relay: not a url is not under the API root ${ROOT} (set apiRoot to relay to another)`),
    );
    expect(sent).toEqual([]);
    await relay.close();
  });
});

describe("a relay's own surface", () => {
  it("names itself in a request's bad maxWait", async () => {
    const { sent, make } = answering(() => ({ status: 200 }));
    const relay = make();
    await expect(relay(channel('1'), { maxWait: -1 })).rejects.toThrow(/^relay: maxWait/);
    expect(sent).toEqual([]);
    await relay.close();
  });

  it('counts the invalid requests it relayed (V15): a 401 is one', async () => {
    const { clock, make } = answering(() => ({ status: 401 }));
    const relay = make();
    expect(await relay.invalidRequests()).toBe(0);
    const refused = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    await driveUntilSettled(clock, [refused]);
    expect((await refused).status).toBe(401);
    expect(await relay.invalidRequests()).toBe(1);
    await relay.close();
  });

  it('tells onWait of a wait before a request is sent', async () => {
    const { clock, make } = answering(() => ({ status: 200, headers: windowOf(1, 0, 2) }));
    const waits: WaitEvent[] = [];
    const relay = make({ onWait: (event) => waits.push(event) });
    const first = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    await driveUntilSettled(clock, [first]);
    expect(waits).toEqual([]);
    const second = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    await driveUntilSettled(clock, [second]);
    expect((await second).status).toBe(200);
    expect(waits.map((event) => event.reason)).toEqual(['bucket']);
    await relay.close();
  });

  it('once closed, refuses new requests and fails the one waiting for its window, sending neither', async () => {
    const { clock, sent, make } = answering(() => ({ status: 200, headers: windowOf(1, 0, 2) }));
    const relay = make();
    const first = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    await driveUntilSettled(clock, [first]);
    const waiting = relay(channel('1'), { headers: { authorization: 'Bot a' } });
    const failed = waiting.then(
      () => undefined,
      (error: unknown) => error,
    );
    await until(() => clock.pendingTimers > 0, 'the second request to wait for its window');
    await relay.close();
    expect(await failed).toBeInstanceOf(ClientClosedError);
    await expect(relay(channel('2'))).rejects.toBeInstanceOf(ClientClosedError);
    expect(sent).toHaveLength(1);
  });
});

describe("a relay's invalid-request guard", () => {
  it('says its limit, as its dialect sets it: the default, or the one given', async () => {
    const byDefault = createRelay();
    const given = createRelay({ invalidRequestLimit: 500 });
    expect([byDefault.invalidRequestLimit, given.invalidRequestLimit]).toEqual([DEFAULT_INVALID_REQUEST_LIMIT, 500]);
    await Promise.all([byDefault.close(), given.close()]);
  });
});
