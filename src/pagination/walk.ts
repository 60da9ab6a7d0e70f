/**
 * Walking a paged list: which page to ask for next, in which order to hand its items out, and
 * when the list is over, from the catalog's pagination facts. The requests themselves are
 * `fetchPage`'s: each is an ordinary call through the limiter.
 *
 * - Lazy: a page is asked for when the consumer wants an item it does not hold; leaving the loop
 *   (`break`, an error, the signal) asks for nothing more.
 * - Each request asks for the endpoint's largest page, or for what is left to reach `max`.
 * - The direction follows the cursor given: `after` walks oldest-first, `before` newest-first,
 *   and no cursor the endpoint's own order. A page the service sorts the other way is handed out
 *   reversed, and the next cursor comes from its last item in walking order.
 */
import { PaginationError, TollgateArgumentError } from '../errors.ts';
import type { QueryInput, QueryValue } from '../sdk.ts';
import type { PaginationDefinition } from '../contracts/catalog.ts';

/** What the iterator takes besides the endpoint's other query parameters. */
export interface WalkQuery {
  readonly before?: QueryValue;
  readonly after?: QueryValue;
  readonly offset?: QueryValue;
  /** At most this many items (default: all). */
  readonly max?: number;
  readonly [parameter: string]: QueryValue;
}

/** One page: the result as the service sent it, and its items in walking order (at most what `max` leaves). */
export interface Page {
  readonly result: unknown;
  readonly items: readonly unknown[];
}

export interface WalkHooks {
  /** Fetches one page with this query (an ordinary call: limits, retries, events all apply). */
  readonly fetchPage: (query: QueryInput) => Promise<unknown>;
  /** Waits `ms` (a 202 "try later"); rejects when the walk is aborted. */
  readonly sleep: (ms: number) => Promise<void>;
}

/** How often a page of a list that is still being built (202) is asked for again before the walk gives up. */
export const MAX_TRY_LATER = 10;
/** The longest single "try later" wait taken, whatever `retry_after` says. */
export const MAX_TRY_LATER_MS = 60_000;

type Direction = 'ascending' | 'descending';

/** Checks the iterator's query against the facts; returns the walk's start. */
function startOf(label: string, facts: PaginationDefinition, query: WalkQuery) {
  const { before, after, offset, max = Infinity, ...rest } = query;
  for (const parameter of ['limit', 'around'] as const) {
    if (rest[parameter] !== undefined) {
      throw new TollgateArgumentError(
        parameter === 'limit'
          ? `${label}: the iterator picks each page's size; cap the items with \`max\``
          : `${label}: an iterator walks from \`before\` or \`after\`; call the list method itself for \`around\``,
      );
    }
  }
  if (max !== Infinity && (!Number.isInteger(max) || max < 0)) {
    throw new TollgateArgumentError(`${label}: max must be a whole number of items, 0 or more`);
  }
  if (before !== undefined && after !== undefined) {
    throw new TollgateArgumentError(`${label}: give before or after, not both: the cursor sets the direction`);
  }
  for (const [name, value] of [
    ['before', before],
    ['after', after],
  ] as const) {
    if (value !== undefined && !facts.parameters.includes(name)) {
      throw new TollgateArgumentError(
        `${label}: this list takes no \`${name}\` (${facts.parameters.join(', ') || 'offset'} only)`,
      );
    }
  }
  if (offset !== undefined) {
    if (facts.cursor !== 'offset')
      throw new TollgateArgumentError(`${label}: this list is paged by cursor, not offset`);
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > facts.maxOffset!) {
      throw new TollgateArgumentError(`${label}: offset must be a whole number from 0 to ${facts.maxOffset}`);
    }
  }
  const direction: Direction =
    after !== undefined
      ? 'ascending'
      : before !== undefined || facts.order === 'newest-first'
        ? 'descending'
        : 'ascending';
  const cursorName = direction === 'ascending' ? 'after' : 'before';
  return { rest, max, direction, cursorName, cursor: before ?? after, offset: (offset as number | undefined) ?? 0 };
}

/** The value at a dotted path of an item (`user.id`). */
function field(item: unknown, path: string): unknown {
  let value = item;
  for (const key of path.split('.'))
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** The page's items, as the result holds them. */
function itemsOf(label: string, facts: PaginationDefinition, result: unknown): unknown[] {
  const list = facts.items === undefined ? result : field(result, facts.items);
  if (list === null && facts.items === undefined) return []; // the document allows a null list
  if (!Array.isArray(list)) {
    throw new PaginationError(`${label}: a page held no list${facts.items ? ` in \`${facts.items}\`` : ''}`);
  }
  return facts.nested ? list.map((hit) => (Array.isArray(hit) ? hit[0] : hit)) : list;
}

/** A page's "try later" (202 while the service builds the list): the wait in ms, or undefined. */
function tryLaterOf(facts: PaginationDefinition, result: unknown): number | undefined {
  if (!facts.tryLater || typeof result !== 'object' || result === null) return undefined;
  const retryAfter = (result as Record<string, unknown>).retry_after;
  if (typeof retryAfter !== 'number' || (facts.items !== undefined && facts.items in result)) return undefined;
  return Math.min(Math.max(0, retryAfter * 1000), MAX_TRY_LATER_MS);
}

/** The cursor a page hands on: its last item's field, in walking order. */
function nextCursor(label: string, facts: PaginationDefinition, items: readonly unknown[]): string {
  const value = field(items.at(-1), facts.cursorFrom);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') {
    throw new PaginationError(`${label}: a page's last item has no \`${facts.cursorFrom}\` to go on from`);
  }
  return String(value);
}

/** Walks a paged list page by page, lazily. `label` names the operation in errors. */
export async function* walkPages(
  label: string,
  facts: PaginationDefinition,
  query: WalkQuery,
  hooks: WalkHooks,
): AsyncGenerator<Page, void, undefined> {
  const start = startOf(label, facts, query);
  let left = start.max;
  let cursor = start.cursor === undefined ? undefined : String(start.cursor);
  let offset = start.offset;
  let waits = 0;
  while (left > 0) {
    const size = Math.min(facts.limit, left);
    const pageQuery: Record<string, QueryValue> = { ...start.rest, limit: size };
    if (facts.cursor === 'offset') pageQuery.offset = offset;
    else if (cursor !== undefined) pageQuery[start.cursorName] = cursor;
    const result = await hooks.fetchPage(pageQuery);
    const wait = tryLaterOf(facts, result);
    if (wait !== undefined) {
      if (++waits > MAX_TRY_LATER)
        throw new PaginationError(`${label}: the list was still being built after ${MAX_TRY_LATER} tries`);
      await hooks.sleep(wait);
      continue;
    }
    // The limit is each page's: a list built for one page may be built again for the next.
    waits = 0;
    const listed = itemsOf(label, facts, result);
    // An offset counts into the service's own order; a cursor walks in its direction.
    const walking = facts.cursor === 'offset' || facts.pageOrder === start.direction ? listed : [...listed].reverse();
    const items = walking.slice(0, left);
    left -= items.length;
    yield { result, items };
    if (left <= 0 || listed.length === 0) return;
    const more = facts.hasMore === undefined ? undefined : field(result, facts.hasMore);
    if (more === false) return;
    if (facts.cursor === 'offset') {
      offset += listed.length;
      const total = facts.total === undefined ? undefined : field(result, facts.total);
      if ((typeof total === 'number' && offset >= total) || offset > facts.maxOffset!) return;
      continue;
    }
    // Without has_more, a page shorter than asked for is the last.
    if (more === undefined && listed.length < size) return;
    const next = nextCursor(label, facts, walking);
    if (next === cursor)
      throw new PaginationError(`${label}: the service answered the same page twice (cursor ${next})`);
    cursor = next;
  }
}

/** Walks a paged list item by item, lazily. */
export async function* walkItems(
  label: string,
  facts: PaginationDefinition,
  query: WalkQuery,
  hooks: WalkHooks,
): AsyncGenerator<unknown, void, undefined> {
  for await (const page of walkPages(label, facts, query, hooks)) yield* page.items;
}

/** Walks a paged list page by page, lazily, handing out each page's result as the service sent it. */
export async function* walkResults(
  label: string,
  facts: PaginationDefinition,
  query: WalkQuery,
  hooks: WalkHooks,
): AsyncGenerator<unknown, void, undefined> {
  for await (const page of walkPages(label, facts, query, hooks)) yield page.result;
}
