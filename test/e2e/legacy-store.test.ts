/**
 * The 0.1 store contract (`RateLimitStore.forToken`, string-keyed `BucketStore`), deprecated but
 * still accepted for one release: a custom store that implements only `forToken` limits a client
 * end to end, under both dialects, and sees every decision keyed by the bucket-key strings it
 * always saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore, type BucketStore, type RateLimitStore, type V10Settings } from '../../src/index.ts';
import type { Clock } from '../../src/clock.ts';
import { startE2E, type E2E } from '../support/e2e.ts';

const CHANNEL = '81384788765712384';

/** A 0.1-style store: forToken only, recording the keys each decision names. */
function legacyStore(): { store: RateLimitStore; keys: string[] } {
  const inner = new MemoryStore();
  const keys: string[] = [];
  const store: RateLimitStore = {
    forToken(token: string | undefined, clock: Clock, v10?: V10Settings): BucketStore {
      const view = inner.forToken(token, clock, v10);
      return {
        ...view,
        admit: (key) => {
          if (key !== null) keys.push(key);
          return view.admit(key);
        },
        settle: (key, reservation, update) => {
          keys.push(key);
          return view.settle(key, reservation, update);
        },
      };
    },
  };
  return { store, keys };
}

let e2e: E2E;
afterEach(async () => {
  await e2e.stop();
});

describe.each(['v6', 'v10'] as const)('a store with only forToken, under %s', (api) => {
  it('limits a burst with no 429 and answers buckets.get by the keys it always had', async () => {
    e2e = await startE2E({ api, defaultLimit: { limit: 3, windowMs: 1000 } });
    const { store, keys } = legacyStore();
    const client = e2e.newClient({ store });
    const results = await e2e.drive(
      Array.from({ length: 9 }, (_, i) => client.channels.messages.create(CHANNEL, { content: `#${i}` })),
      50,
    );
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    const key = api === 'v10' ? `POST /channels/:id/messages channels/${CHANNEL}` : `ChannelsIdMessages:${CHANNEL}`;
    expect(new Set(keys)).toEqual(new Set([key]));
    expect(await client.buckets.get(key)).toMatchObject({ limit: 3 });
  });
});
