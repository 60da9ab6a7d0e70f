/**
 * What a token costs a relay (the proxy's core), in the heap: a child process with --expose-gc,
 * so figures are after a full collection, sending through `createRelay` to a fetch that answers at
 * once (no HTTP), on a clock the benchmark moves (`token-memory.ts`). Prints one JSON line.
 * 1. One request for each of 1000 tokens, every lane kept: heap per token.
 * 2. 10 000 tokens more, one request each, 10 ms of clock apart (each bucket's window 1 s), with
 *    1000 lanes at most (`maxTokens`): the store's views held at the end, and the heap.
 */
import { createRelay, MemoryStore } from '../src/index.ts';
import { CHILD_FLAG, runInChild } from './child.ts';
import { answerAtOnce, measureTokenMemory, type TokenMemoryResult } from './token-memory.ts';

export type RelayMemoryResult = TokenMemoryResult;

async function measure(): Promise<RelayMemoryResult> {
  const store = new MemoryStore();
  const tokens = 1000;
  return measureTokenMemory('relay memory bench', store, { tokens, churn: 10_000 }, (clock) => {
    const relay = createRelay({
      apiRoot: 'http://bench.invalid/api',
      clock,
      store,
      maxTokens: tokens,
      fetch: answerAtOnce,
    });
    return {
      call: async (token) => {
        const answer = await relay('http://bench.invalid/api/v10/channels/81384788765712384', {
          headers: { authorization: `Bot bench-token-${token}` },
        });
        await answer.arrayBuffer();
      },
      close: () => relay.close(),
    };
  });
}

export const runRelayMemoryBench = (): Promise<RelayMemoryResult> =>
  runInChild<RelayMemoryResult>(import.meta.url, ['--expose-gc']);

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measure()));
