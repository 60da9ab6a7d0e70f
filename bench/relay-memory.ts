/**
 * What a token costs a relay (the proxy's core), in the heap: a child process with --expose-gc,
 * so figures are after a full collection, sending through `createRelay` to a fetch that answers at
 * once (no HTTP), on a clock the benchmark moves. Prints one JSON line.
 * 1. One request for each of 1000 tokens, every lane kept: heap per token.
 * 2. 10 000 tokens more, one request each, 10 ms of clock apart (each bucket's window 1 s), with
 *    1000 lanes at most (`maxTokens`): the store's views held at the end, and the heap.
 */
import { createRelay, MemoryStore } from '../src/index.ts';
import { CHILD_FLAG, heapUsedAfterGc, movedClock, runInChild } from './child.ts';

export interface RelayMemoryResult {
  readonly tokens: number;
  readonly heapKiBPerToken: number;
  readonly churnTokens: number;
  readonly maxTokens: number;
  readonly viewsHeldAfterChurn: number;
  readonly heapMiBAfterChurn: number;
}

const TOKENS = 1000;
const CHURN = 10_000;
const MiB = 1024 * 1024;

async function measure(): Promise<RelayMemoryResult> {
  const heap = heapUsedAfterGc('relay memory bench');
  const { clock, advance } = movedClock(Date.UTC(2026, 10, 27, 12, 0, 0));
  const store = new MemoryStore();
  const relay = createRelay({
    apiRoot: 'http://bench.invalid/api',
    clock,
    store,
    maxTokens: TOKENS,
    fetch: () =>
      Promise.resolve(
        new Response('{}', {
          headers: {
            'x-ratelimit-limit': '5',
            'x-ratelimit-remaining': '4',
            'x-ratelimit-reset-after': '1',
            'x-ratelimit-bucket': 'bench',
          },
        }),
      ),
  });
  const send = async (token: number) => {
    const answer = await relay('http://bench.invalid/api/v10/channels/81384788765712384', {
      headers: { authorization: `Bot bench-token-${token}` },
    });
    await answer.arrayBuffer();
  };
  await send(0);
  const baseline = heap();
  for (let token = 1; token <= TOKENS; token++) await send(token);
  const withTokens = heap();
  for (let token = TOKENS + 1; token <= TOKENS + CHURN; token++) {
    advance(10);
    await send(token);
  }
  const afterChurn = heap();
  const viewsHeldAfterChurn = store.viewCount;
  await relay.close();
  return {
    tokens: TOKENS,
    heapKiBPerToken: (withTokens - baseline) / 1024 / TOKENS,
    churnTokens: CHURN,
    maxTokens: TOKENS,
    viewsHeldAfterChurn,
    heapMiBAfterChurn: afterChurn / MiB,
  };
}

export const runRelayMemoryBench = (): Promise<RelayMemoryResult> =>
  runInChild<RelayMemoryResult>(import.meta.url, ['--expose-gc']);

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measure()));
