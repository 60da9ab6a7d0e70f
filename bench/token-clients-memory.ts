/**
 * What a token costs a client under `withToken` (a dashboard acting for many users), in the heap,
 * calling through `withToken` to a fetch that answers at once (no HTTP): 1000 tokens kept, then
 * 2000 more in turn with 1000 kept at most (`token-memory.ts`). Prints one JSON line.
 */
import { createClient, MemoryStore } from '../src/index.ts';
import { CHILD_FLAG, runInChild } from './child.ts';
import { answerAtOnce, measureTokenMemory, type TokenMemoryResult } from './token-memory.ts';

async function measure(): Promise<TokenMemoryResult> {
  const store = new MemoryStore();
  const tokens = 1000;
  return measureTokenMemory('token clients memory bench', store, { tokens, churn: 2000 }, (clock) => {
    const client = createClient({
      baseUrl: 'http://bench.invalid/api/v10',
      clock,
      store,
      maxTokens: tokens,
      fetch: answerAtOnce,
    });
    return {
      call: async (token) => {
        await client.withToken(`Bearer bench-token-${token}`).users.me.guilds.list();
      },
      close: () => client.close(),
    };
  });
}

export const runTokenClientsMemoryBench = (): Promise<TokenMemoryResult> =>
  runInChild<TokenMemoryResult>(import.meta.url, ['--expose-gc']);

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measure()));
