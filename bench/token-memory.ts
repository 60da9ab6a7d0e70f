/**
 * The heap a token costs whatever keeps lanes by token (a relay, a client's `withToken`): one call
 * for each of `tokens` tokens, all kept, for the heap per token; then `churn` tokens more, one call
 * each, 10 ms of clock apart, with `tokens` kept at most, for the store's views held at the end.
 * Run in a child with --expose-gc (`child.ts`).
 */
import type { MemoryStore } from '../src/index.ts';
import { heapUsedAfterGc, movedClock } from './child.ts';
import type { Clock } from '../src/clock.ts';

export interface TokenMemoryResult {
  readonly tokens: number;
  readonly heapKiBPerToken: number;
  readonly churnTokens: number;
  readonly maxTokens: number;
  readonly viewsHeldAfterChurn: number;
  readonly heapMiBAfterChurn: number;
}

/** What one limits-keeper under measure gives: a call with a token's number, and its close. */
export interface TokenKeeper {
  readonly call: (token: number) => Promise<void>;
  readonly close: () => Promise<void>;
}

/** Answers at once, with limits (each bucket's window 1 s). */
export const answerAtOnce = () =>
  Promise.resolve(
    Response.json([], {
      headers: {
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '4',
        'x-ratelimit-reset-after': '1',
        'x-ratelimit-bucket': 'bench',
      },
    }),
  );

const MiB = 1024 * 1024;

export async function measureTokenMemory(
  bench: string,
  store: MemoryStore,
  counts: { readonly tokens: number; readonly churn: number },
  keeperOn: (clock: Clock) => TokenKeeper,
): Promise<TokenMemoryResult> {
  const heap = heapUsedAfterGc(bench);
  const { clock, advance } = movedClock(Date.UTC(2026, 10, 27, 12, 0, 0));
  const keeper = keeperOn(clock);
  await keeper.call(0);
  const baseline = heap();
  for (let token = 1; token <= counts.tokens; token++) await keeper.call(token);
  const withTokens = heap();
  for (let token = counts.tokens + 1; token <= counts.tokens + counts.churn; token++) {
    advance(10);
    await keeper.call(token);
  }
  const afterChurn = heap();
  const viewsHeldAfterChurn = store.viewCount;
  await keeper.close();
  return {
    tokens: counts.tokens,
    heapKiBPerToken: (withTokens - baseline) / 1024 / counts.tokens,
    churnTokens: counts.churn,
    maxTokens: counts.tokens,
    viewsHeldAfterChurn,
    heapMiBAfterChurn: afterChurn / MiB,
  };
}
