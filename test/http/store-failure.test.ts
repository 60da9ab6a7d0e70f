/**
 * An answer the service gave is the call's outcome, even when the store cannot record it: a
 * message create whose settle fails (Redis lost between the answer and the record) resolves with
 * the message, where it used to reject with StoreUnavailableError though the message was made.
 */
import { expect, it } from 'vitest';
import { createClient, MemoryStore, type BucketRef, type Store, type StoreView } from '../../src/index.ts';
import { StoreUnavailableError } from '../../src/redis/index.ts';

/** A memory store whose views cannot record an answer. */
function storeThatCannotSettle(): Store {
  const memory = new MemoryStore();
  return {
    view(request, token, clock): StoreView<BucketRef> {
      const view = memory.view(request, token, clock);
      return Object.assign(Object.create(view) as StoreView<BucketRef>, {
        admit: view.admit.bind(view),
        release: view.release.bind(view),
        giveBack: view.giveBack.bind(view),
        settle: () => Promise.reject(new StoreUnavailableError('Redis lost')),
      });
    },
  };
}

it('a 2xx stays the outcome when the store cannot record it; its place is left to run out', async () => {
  let sent = 0;
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9/api/v10',
    token: 'Bot store-failure',
    store: storeThatCannotSettle(),
    fetch: async () => {
      sent += 1;
      return new Response('{"id":"7","content":"made"}', {
        headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4' },
      });
    },
  });
  await expect(client.channels.messages.create('1', { content: 'made' })).resolves.toMatchObject({ id: '7' });
  expect(sent).toBe(1);
  await client.close();
});
