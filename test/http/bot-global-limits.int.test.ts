/**
 * A bot's own global limit (V13, `botGlobalLimits`) through a relay and a client: the bot it names
 * is paced at its own limit, every other token at `globalLimit`. Against the reference service
 * over real HTTP, on the harness's manual clock; every send is recorded with its token and time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mostWithin } from '../../src/testing/limits.ts';
import { startE2E, type E2E } from '../support/e2e.ts';

const BOT = '80351110224678912';
/** Tokens as Discord writes them: the bot's id in base64, then the rest. */
const BIG_BOT = 'Bot ODAzNTExMTAyMjQ2Nzg5MTI.GhJ4kQ.big-bot-token';
const OTHER_BOT = 'Bot MTc1OTI4ODQ3Mjk5MTE3MDYz.GhJ4kQ.other-bot-token';
/** A user's OAuth2 token that happens to open as the big bot's does: an override is a bot's, never a user's. */
const USER = 'Bearer ODAzNTExMTAyMjQ2Nzg5MTI.user-access-token';

const OWN_LIMIT = 8;
const DEFAULT_LIMIT = 2;
const CALLS = 16;
const WINDOW_MS = 1000;

let e2e: E2E | undefined;
afterEach(async () => {
  await e2e?.stop();
  e2e = undefined;
});

/** The harness, its transport recording each send's Authorization and time on the manual clock. */
async function recorded(): Promise<{ e2e: E2E; sendsOf: (token: string) => number[] }> {
  const sent: { readonly token: string | null; readonly at: number }[] = [];
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = input instanceof Request ? input.headers : new Headers(init?.headers);
    sent.push({ token: headers.get('authorization'), at: e2e!.clock.now() });
    return fetch(input, init);
  };
  // The service grants every token the big bot's limit: a token paced above its own would show as
  // more than its limit in a window, one paced below as too few.
  e2e = await startE2E(
    { api: 'v10', global: { limit: OWN_LIMIT, windowMs: WINDOW_MS }, defaultLimit: { limit: 1000, windowMs: 1000 } },
    recording as typeof fetch,
  );
  return {
    e2e,
    sendsOf: (token) => sent.filter((each) => each.token === token).map((each) => each.at),
  };
}

/** `/users/@me`, a route bots and users may both read, so only the global pace tells tokens apart. */
const identify = (root: string) => `${root}/v10/users/@me`;

describe('botGlobalLimits', () => {
  it('a relay paces the bot it names at its own limit, another bot and a Bearer token at the default; 0 429s', async () => {
    const { e2e, sendsOf } = await recorded();
    const relay = e2e.newRelay({ globalLimit: DEFAULT_LIMIT, botGlobalLimits: { [BOT]: OWN_LIMIT } });
    const root = e2e.service.baseUrl.replace(/\/v10$/, '');
    const tokens = [BIG_BOT, OTHER_BOT, USER];
    const calls = tokens.flatMap((token) =>
      Array.from({ length: CALLS }, () => relay(identify(root), { headers: { authorization: token } })),
    );
    const results = await e2e.drive(calls, 50);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.status : 0))).toEqual(
      calls.map(() => 200),
    );
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    for (const token of tokens) expect(sendsOf(token)).toHaveLength(CALLS);
    expect(mostWithin(sendsOf(BIG_BOT), WINDOW_MS)).toBe(OWN_LIMIT);
    expect(mostWithin(sendsOf(OTHER_BOT), WINDOW_MS)).toBe(DEFAULT_LIMIT);
    expect(mostWithin(sendsOf(USER), WINDOW_MS)).toBe(DEFAULT_LIMIT);
  });

  it("a client: its own token's bot at its limit, and withToken's other bot at the default", async () => {
    const { e2e, sendsOf } = await recorded();
    const client = e2e.newClient({
      token: BIG_BOT,
      globalLimit: DEFAULT_LIMIT,
      botGlobalLimits: { [BOT]: OWN_LIMIT },
    });
    const other = client.withToken(OTHER_BOT);
    const calls = [client, other].flatMap((each) => Array.from({ length: CALLS }, () => each.users.me.get()));
    const results = await e2e.drive(calls, 50);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    expect(mostWithin(sendsOf(BIG_BOT), WINDOW_MS)).toBe(OWN_LIMIT);
    expect(mostWithin(sendsOf(OTHER_BOT), WINDOW_MS)).toBe(DEFAULT_LIMIT);
  });
});
