/**
 * The paged-list walker (src/pagination/walk.ts) on scripted pages: what it refuses before any
 * request, and how it ends a walk on pages a well-behaved service seldom sends (more items than
 * asked for, an empty page that says there is more, the same page twice, a null or missing list,
 * a last item without its cursor). Every item once from a model endpoint is
 * walk.property.test.ts; a 202 "try later" is try-later.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { walkItems } from '../../src/pagination/walk.ts';
import { paginations } from '../../generated/routes.ts';
import { PaginationError, TollgateArgumentError } from '../../src/index.ts';
import type { PaginationDefinition } from '../../src/contracts/catalog.ts';
import type { QueryInput } from '../../src/sdk.ts';
import type { WalkQuery } from '../../src/pagination/walk.ts';

const MEMBERS: PaginationDefinition = paginations['guilds.members.list']; // after only, cursor from user.id
const MESSAGES: PaginationDefinition = paginations['channels.messages.list']; // a plain array, newest-first
const PINS: PaginationDefinition = paginations['channels.messages.pins.list']; // in `items`, with has_more
const SEARCH: PaginationDefinition = paginations['guilds.messages.search']; // offsets, a total, 202s
const AUDIT_LOG: PaginationDefinition = paginations['guilds.auditLogs.get']; // in `audit_log_entries`

/** Pages the test gives, one per request in order (the last again once they run out); every query is recorded. */
function scripted(pages: readonly unknown[]) {
  const requests: QueryInput[] = [];
  const sleeps: number[] = [];
  const hooks = {
    fetchPage: async (query: QueryInput) => {
      requests.push(query);
      // The test's own bound: a walk that does not end would otherwise never return.
      if (requests.length > 20) throw new Error('the walk asked 20 times: it does not end');
      return pages[Math.min(requests.length, pages.length) - 1];
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };
  return { hooks, requests, sleeps };
}

async function walk(facts: PaginationDefinition, query: WalkQuery, hooks: ReturnType<typeof scripted>['hooks']) {
  const items: unknown[] = [];
  for await (const item of walkItems('test.list', facts, query, hooks)) items.push(item);
  return items;
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const ids = (...values: string[]) => values.map((id) => ({ id }));

/** An offset list of 2 a page up to offset `maxOffset`, its items in `messages`, with a total or not. */
const offsets = (maxOffset: number, withTotal: boolean): PaginationDefinition => ({
  cursor: 'offset',
  parameters: [],
  order: 'newest-first',
  pageOrder: 'descending',
  limit: 2,
  maxOffset,
  items: 'messages',
  cursorFrom: 'id',
  ...(withTotal && { total: 'total_results' }),
});

describe('a query the walk refuses before any request', () => {
  it.each<[string, PaginationDefinition, WalkQuery, string]>([
    [
      'before, to a list that takes only after',
      MEMBERS,
      { before: '5' },
      'test.list: this list takes no `before` (after only)',
    ],
    [
      'after, to a list that takes only before',
      PINS,
      { after: '2024-01-01T00:00:00Z' },
      'test.list: this list takes no `after` (before only)',
    ],
    [
      'a cursor, to a list paged by offset',
      SEARCH,
      { before: '5' },
      'test.list: this list takes no `before` (offset only)',
    ],
    [
      'an offset, to a list paged by cursor',
      MESSAGES,
      { offset: 0 },
      'test.list: this list is paged by cursor, not offset',
    ],
    ['a negative offset', SEARCH, { offset: -1 }, 'test.list: offset must be a whole number from 0 to 9975'],
    ['an offset past the largest', SEARCH, { offset: 9976 }, 'test.list: offset must be a whole number from 0 to 9975'],
    ['an offset with a fraction', SEARCH, { offset: 2.5 }, 'test.list: offset must be a whole number from 0 to 9975'],
    ['an offset as text', SEARCH, { offset: '25' }, 'test.list: offset must be a whole number from 0 to 9975'],
  ])('%s', async (_, facts, query, message) => {
    const { hooks, requests } = scripted([[]]);
    const error = await caught(walk(facts, query, hooks));
    expect(error).toBeInstanceOf(TollgateArgumentError);
    expect((error as Error).message).toBe(message);
    expect(requests).toEqual([]);
  });

  it.each([0, 9975])('takes an offset of %i, the bounds included', async (offset) => {
    const { hooks, requests } = scripted([{ messages: [], total_results: 0 }]);
    expect(await walk(SEARCH, { offset }, hooks)).toEqual([]);
    expect(requests).toEqual([{ limit: 25, offset }]);
  });
});

describe("a page's list", () => {
  it('a plain array list that is null is an empty list: the walk ends with nothing', async () => {
    const { hooks, requests } = scripted([null]);
    expect(await walk(MESSAGES, {}, hooks)).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it.each<[string, PaginationDefinition, unknown, string]>([
    ['a wrapper without its list', AUDIT_LOG, { users: [] }, 'test.list: a page held no list in `audit_log_entries`'],
    [
      'a wrapper whose list is null',
      AUDIT_LOG,
      { audit_log_entries: null },
      'test.list: a page held no list in `audit_log_entries`',
    ],
    ['a wrapper that is null', SEARCH, null, 'test.list: a page held no list in `messages`'],
    ['a plain array list that is an object', MESSAGES, { id: '1' }, 'test.list: a page held no list'],
    // Only a list the service may still be building (a 202) is waited on for its retry_after.
    [
      'a page saying retry_after, of a list never built later',
      AUDIT_LOG,
      { retry_after: 1 },
      'test.list: a page held no list in `audit_log_entries`',
    ],
    [
      'a retry_after that is not a number',
      SEARCH,
      { retry_after: '2' },
      'test.list: a page held no list in `messages`',
    ],
  ])('%s fails the walk with PaginationError, waiting for nothing', async (_, facts, page, message) => {
    const { hooks, sleeps } = scripted([page]);
    const error = await caught(walk(facts, {}, hooks));
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(message);
    expect(sleeps).toEqual([]);
  });

  it('a page of a list built later that holds its list is a page, even with a retry_after', async () => {
    const { hooks, requests, sleeps } = scripted([{ messages: [[{ id: '9' }]], total_results: 1, retry_after: 2 }]);
    expect(await walk(SEARCH, {}, hooks)).toEqual([{ id: '9' }]);
    expect(sleeps).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('hands out no more than max, even from a page holding more than was asked for', async () => {
    const { hooks, requests } = scripted([ids('5', '4', '3', '2', '1')]);
    expect(await walk(MESSAGES, { max: 3 }, hooks)).toEqual(ids('5', '4', '3'));
    expect(requests).toEqual([{ limit: 3 }]);
  });
});

describe('the cursor a page hands on', () => {
  it.each<[string, unknown]>([
    ['without the field', { nick: 'a' }],
    ['whose parent field is null', { user: null }],
    ['whose field is an object', { user: { id: { value: '1' } } }],
  ])('a full page whose last item is %s fails the walk with PaginationError', async (_, last) => {
    const page = [...Array.from({ length: 999 }, (__, index) => ({ user: { id: String(index + 1) } })), last];
    const { hooks, requests } = scripted([page]);
    const error = await caught(walk(MEMBERS, {}, hooks));
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe("test.list: a page's last item has no `user.id` to go on from");
    expect(requests).toHaveLength(1);
  });

  it.each([
    ['a number', 7, 8],
    ['a bigint', 7n, 8n],
  ])('may be %s: the next page asks from it as text', async (_, first, second) => {
    const facts: PaginationDefinition = { ...MEMBERS, limit: 1, cursorFrom: 'id' };
    const { hooks, requests } = scripted([[{ id: first }], [{ id: second }], []]);
    expect(await walk(facts, {}, hooks)).toEqual([{ id: first }, { id: second }]);
    expect(requests).toEqual([{ limit: 1 }, { limit: 1, after: String(first) }, { limit: 1, after: String(second) }]);
  });

  it('a page that reaches max is the last: its cursor is never read', async () => {
    const { hooks, requests } = scripted([[{ nick: 'a' }, { nick: 'b' }]]);
    expect(await walk(MEMBERS, { max: 2 }, hooks)).toEqual([{ nick: 'a' }, { nick: 'b' }]);
    expect(requests).toEqual([{ limit: 2 }]);
  });

  it('the service answering the same page twice fails the walk, rather than walking it again and again', async () => {
    const facts: PaginationDefinition = { ...MESSAGES, limit: 2 };
    const { hooks, requests } = scripted([ids('4', '3')]);
    const error = await caught(walk(facts, { before: '5' }, hooks));
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe('test.list: the service answered the same page twice (cursor 3)');
    expect(requests).toEqual([
      { limit: 2, before: '5' },
      { limit: 2, before: '3' },
    ]);
  });
});

describe('the end of a list', () => {
  it('an empty page ends the walk, even where has_more says there is more', async () => {
    const { hooks, requests } = scripted([{ items: [], has_more: true }]);
    expect(await walk(PINS, {}, hooks)).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('an empty page ends an offset walk, even where the total says there is more', async () => {
    const { hooks, requests } = scripted([{ messages: [], total_results: 30 }]);
    expect(await walk(SEARCH, {}, hooks)).toEqual([]);
    expect(requests).toEqual([{ limit: 25, offset: 0 }]);
  });

  it('a page shorter than asked for is not the last where has_more says there is more', async () => {
    const facts: PaginationDefinition = { ...PINS, limit: 3 };
    const pin = (at: string) => ({ pinned_at: at });
    const { hooks, requests } = scripted([
      { items: [pin('t9'), pin('t8')], has_more: true },
      { items: [pin('t7')], has_more: false },
    ]);
    expect(await walk(facts, {}, hooks)).toEqual([pin('t9'), pin('t8'), pin('t7')]);
    expect(requests).toEqual([{ limit: 3 }, { limit: 3, before: 't8' }]);
  });

  it('an offset walk stops at the largest offset the list takes, whatever the total', async () => {
    const { hooks, requests } = scripted([{ messages: ids('1', '2'), total_results: 100 }]);
    expect(await walk(offsets(4, true), {}, hooks)).toHaveLength(6);
    expect(requests.map((query) => query.offset)).toEqual([0, 2, 4]);
  });

  it('an offset list without a total walks on until a page is empty', async () => {
    const { hooks, requests } = scripted([{ messages: ids('1', '2') }, { messages: ids('3') }, { messages: [] }]);
    expect(await walk(offsets(100, false), {}, hooks)).toEqual(ids('1', '2', '3'));
    expect(requests.map((query) => query.offset)).toEqual([0, 2, 3]);
  });
});
