/**
 * A 202 "try later" while the service builds a list (guild message search): the walk waits it out
 * (src/pagination/walk.ts), at most MAX_TRY_LATER times for one page. The limit is per page: a
 * list built for its first page may be built again for a later one, and that page gets the same
 * patience. A list that stays 202 ends the walk with PaginationError after exactly that many
 * waits, not one fewer and not never. Each wait is its retry_after, at most 60 s.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TRY_LATER, walkItems } from '../../src/pagination/walk.ts';
import { paginations } from '../../generated/routes.ts';
import { PaginationError } from '../../src/index.ts';
import type { PaginationDefinition } from '../../src/contracts/catalog.ts';
import type { QueryInput } from '../../src/sdk.ts';

// The search's own facts: offsets, 25 a page, the items in `messages`, a 202 waited out.
const SEARCH: PaginationDefinition = paginations['guilds.messages.search'];
const TRY_LATER = { retry_after: 2 };
const page = (from: number, count: number) => ({
  messages: Array.from({ length: count }, (_, index) => [{ id: String(1000 + from + index) }]),
  total_results: 30,
});

/** A search whose pages each answer `tryLater[n]` 202s (`answer`) before their items; every request and wait is recorded. */
function search(tryLater: readonly number[], answer: object = TRY_LATER) {
  const requests: QueryInput[] = [];
  const sleeps: number[] = [];
  const left = [...tryLater];
  const hooks = {
    fetchPage: async (query: QueryInput) => {
      requests.push(query);
      // The test's own bound: a walk without a limit would otherwise never end.
      if (requests.length > 100) throw new Error('the walk asked 100 times: it has no limit');
      const index = Number(query.offset) / 25;
      if ((left[index] ?? 0) > 0) {
        left[index]! -= 1;
        return answer;
      }
      return index === 0 ? page(0, 25) : page(25, 5);
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };
  return { hooks, requests, sleeps };
}

const walk = async (hooks: ReturnType<typeof search>['hooks']) => {
  const items: unknown[] = [];
  for await (const item of walkItems('guilds.messages.search', SEARCH, {}, hooks)) items.push(item);
  return items;
};

describe('a list still being built (202, try later)', () => {
  it(`waits out ${MAX_TRY_LATER} of them on one page, each for its retry_after`, async () => {
    const { hooks, requests, sleeps } = search([MAX_TRY_LATER]);
    expect(await walk(hooks)).toHaveLength(30);
    expect(sleeps).toEqual(Array.from({ length: MAX_TRY_LATER }, () => 2000));
    expect(requests).toHaveLength(MAX_TRY_LATER + 2);
  });

  it(`gives up on the ${MAX_TRY_LATER + 1}th, after exactly ${MAX_TRY_LATER} waits: a list that stays 202 does not loop`, async () => {
    const { hooks, requests, sleeps } = search([Number.POSITIVE_INFINITY]);
    const error = await walk(hooks).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      `guilds.messages.search: the list was still being built after ${MAX_TRY_LATER} tries`,
    );
    expect(sleeps).toHaveLength(MAX_TRY_LATER);
    expect(requests).toHaveLength(MAX_TRY_LATER + 1);
  });

  it('a retry_after asking for an hour waits at most the cap, 60 s, then asks again', async () => {
    const { hooks, requests, sleeps } = search([1], { retry_after: 3600 });
    expect(await walk(hooks)).toHaveLength(30);
    expect(sleeps).toEqual([60_000]);
    expect(requests.map((query) => query.offset)).toEqual([0, 0, 25]);
  });

  it('the limit is per page: a later page that is built again gets the same patience', async () => {
    const { hooks, requests, sleeps } = search([MAX_TRY_LATER, MAX_TRY_LATER]);
    expect(await walk(hooks)).toHaveLength(30);
    expect(sleeps).toHaveLength(2 * MAX_TRY_LATER);
    expect(requests.map((query) => query.offset)).toEqual([
      ...Array.from({ length: MAX_TRY_LATER + 1 }, () => 0),
      ...Array.from({ length: MAX_TRY_LATER + 1 }, () => 25),
    ]);
  });
});
