/**
 * `client.withToken`: one client, many users' tokens, each with its own limits, its global limit
 * too, against the reference service over real HTTP on one manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from '../support/e2e.ts';

let e2e: E2E | undefined;
afterEach(async () => {
  await e2e?.stop();
  e2e = undefined;
});

const CALLS = 60;
const GLOBAL = { limit: 10, windowMs: 1000 };

/**
 * A burst of reads of `/users/@me` (OAuth2's identify) with each token, through one client: how
 * long each token's reads took from its first send to its last, on the shared manual clock.
 */
async function burst(tokens: readonly string[]): Promise<{ spanMs: Map<string, number>; tooMany: number }> {
  const sent: { readonly token: string | null; readonly at: number }[] = [];
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = input instanceof Request ? input.headers : new Headers(init?.headers);
    sent.push({ token: headers.get('authorization'), at: e2e!.clock.now() });
    return fetch(input, init);
  };
  e2e = await startE2E(
    { api: 'v10', global: GLOBAL, defaultLimit: { limit: 1000, windowMs: 1000 } },
    recording as typeof fetch,
  );
  const client = e2e.newClient({ token: undefined, globalLimit: GLOBAL.limit });
  const calls = tokens.flatMap((token) => Array.from({ length: CALLS }, () => client.withToken(token).users.me.get()));
  const results = await e2e.drive(calls, 50);
  expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
  const spanMs = new Map<string, number>();
  for (const token of tokens) {
    const times = sent.filter((each) => each.token === token).map((each) => each.at);
    expect(times).toHaveLength(CALLS);
    spanMs.set(token, Math.max(...times) - Math.min(...times));
  }
  return { spanMs, tooMany: e2e.service.requests.filter((request) => request.status === 429).length };
}

describe('withToken', () => {
  it('two Bearer tokens in one client each burst as fast as each would alone, with 0 429s: each has its own global limit', async () => {
    const alone = await burst(['Bearer user-one']);
    await e2e!.stop();
    e2e = undefined;
    const together = await burst(['Bearer user-one', 'Bearer user-two']);
    const aloneMs = alone.spanMs.get('Bearer user-one')!;
    // 60 reads at 10 a second: the last goes in the sixth window, whichever else is sent.
    expect(aloneMs).toBeGreaterThanOrEqual(5 * GLOBAL.windowMs);
    expect(alone.tooMany).toBe(0);
    expect(together.tooMany).toBe(0);
    for (const spanMs of together.spanMs.values()) expect(spanMs).toBeLessThanOrEqual(aloneMs + 200);
  });
});
