/**
 * Two clients of one token on one MemoryStore (two bots' modules, one store): a settle, release or
 * give-back by one wakes the other's calls waiting on that bucket, as Redis's events do between
 * processes. Before, a memory view told no one, and the other client's waiters stalled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/index.ts';
import { startE2E, type E2E } from '../support/e2e.ts';

const CHANNEL = '81384788765712384';
const LIMIT = { limit: 5, windowMs: 5000 };

let e2e: E2E | undefined;
afterEach(async () => {
  await e2e?.stop();
  e2e = undefined;
});

describe('two clients of one token on one MemoryStore', () => {
  it('8 callers alternating 20 reads of one channel (5 per 5 s) finish in the 15 s the limits allow, with 0 429s', async () => {
    e2e = await startE2E({ api: 'v10', defaultLimit: LIMIT });
    const store = new MemoryStore();
    const clients = [e2e.newClient({ store }), e2e.newClient({ store })];
    const reads: Promise<unknown>[] = [];
    // 8 callers, each reading in turn through the client of its parity.
    const caller = async (index: number) => {
      for (let read = index; read < 20; read += 8) {
        const call = clients[read % 2]!.channels.get(CHANNEL);
        reads.push(call);
        await call;
      }
    };
    const results = await e2e.drive(
      Array.from({ length: 8 }, (_, index) => caller(index)),
      50,
      // 60 s of virtual time at most: a stalled waiter fails the drive instead of hanging.
      1200,
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(reads).toHaveLength(20);
    const times = e2e.service.requests.map((request) => request.at);
    expect(e2e.service.requests.filter((request) => request.status === 429)).toEqual([]);
    // Four windows of 5: the last opens 15 s after the first, plus the margins after each window.
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(3 * LIMIT.windowMs + 500);
    expect(store.viewCount).toBe(2); // the token's view, shared, and the IP's
  });
});
