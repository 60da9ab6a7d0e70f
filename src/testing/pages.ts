/**
 * The reference service's paged lists: what a test seeds (or has generated), answered page by
 * page as the service does: `before`, `after`, `around`, `limit` and `offset` honoured, each
 * endpoint's page maximum, a 400 for a bad cursor or limit, `has_more` and totals where the
 * service sends them, and 202 "try later" while a search index is built.
 *
 * Written from the service's behaviour, apart from the SDK's walker (src/pagination/), so a
 * walker that asks wrong gets the wrong page here. The catalog's facts (page maxima, members,
 * sort fields) are shared data.
 */
import type { CatalogPagination } from '../../catalog/schema.ts';
import { catalogOperation } from './catalog-match.ts';
import { sampleResult, type PathIds } from './fixtures.ts';
import type { Answer } from './messages.ts';

/** The service's page size when a request names none. */
const DEFAULT_LIMIT = 50;
/** Ids of generated items: ms since the service's epoch, shifted 22 bits, one second apart. */
const FIRST_ID = (1_700_000_000_000n - 1_420_070_400_000n) << 22n;
const FIRST_TIME = Date.UTC(2026, 0, 1);

/** How a seeded list answers at first: a search index still being built. */
export interface SeedOptions {
  /** The first N requests answer 202 "try later" (a search index being built). */
  readonly tryLaterAnswers?: number;
  /** The `retry_after` (seconds) of those answers. Default 1. */
  readonly retryAfterSeconds?: number;
}

const invalidForm = (field: string, code: string, message: string): Answer => ({
  status: 400,
  body: { code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code, message }] } } },
});

/** The value at a dotted path of an item. */
function read(item: unknown, path: string): unknown {
  let value = item;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

function write(item: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let target = item;
  for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
  target[keys.at(-1)!] = value;
}

/** Sorting keys: ids as numbers (18 and 19 digits compare right), timestamps by time. */
const keyOf = (facts: CatalogPagination, value: unknown): bigint =>
  facts.cursor === 'timestamp' ? BigInt(Date.parse(String(value))) : BigInt(String(value));

/** The reference service's paged lists (`service.lists`): seed a list, and its endpoint answers it page by page. */
export class PagedLists {
  readonly #lists = new Map<string, unknown[]>();
  readonly #tryLater = new Map<string, { left: number; retryAfterSeconds: number }>();

  /**
   * Gives a paged list its items: `items` as they are, or `count` generated from the operation's
   * sample (ids one second apart, ascending). `ids` are the list's path values (`channel_id`).
   */
  seed(operation: string, ids: PathIds, items: readonly unknown[] | number, options: SeedOptions = {}): void {
    const facts = catalogOperation(operation)?.paginate;
    if (!facts) throw new TypeError(`reference service: ${operation} is not a paged list of the catalog`);
    const list = typeof items === 'number' ? this.#generate(operation, ids, facts, items) : [...items];
    for (const item of list) {
      if (read(item, facts.cursorFrom) === undefined) {
        throw new TypeError(`reference service: an item of ${operation} has no ${facts.cursorFrom}`);
      }
    }
    list.sort((a, b) => {
      const difference = keyOf(facts, read(a, facts.cursorFrom)) - keyOf(facts, read(b, facts.cursorFrom));
      return difference < 0n ? -1 : difference > 0n ? 1 : 0;
    });
    this.#lists.set(keyFor(operation, ids), list);
    if (options.tryLaterAnswers) {
      this.#tryLater.set(keyFor(operation, ids), {
        left: options.tryLaterAnswers,
        retryAfterSeconds: options.retryAfterSeconds ?? 1,
      });
    }
  }

  /** The answer to a page request of a seeded list; undefined for anything else (the sample answers). */
  answer(operation: string, ids: PathIds, url: string): Answer | undefined {
    const key = keyFor(operation, ids);
    const facts = catalogOperation(operation)?.paginate;
    const list = this.#lists.get(key);
    if (!facts || !list) return undefined;
    const query = new URL(url, 'http://reference').searchParams;
    const later = this.#tryLater.get(key);
    if (later && later.left > 0) {
      later.left--;
      const body = {
        message: 'Index not yet available. Try again later',
        code: 110000,
        documents_indexed: 0,
        retry_after: later.retryAfterSeconds,
      };
      return { status: 202, body };
    }
    const limitText = query.get('limit');
    const limit = limitText === null ? Math.min(DEFAULT_LIMIT, facts.limit) : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > facts.limit) {
      return invalidForm('limit', 'NUMBER_TYPE_MAX', `int value should be between 1 and ${facts.limit}.`);
    }
    const chosen =
      facts.cursor === 'offset' ? this.#byOffset(facts, list, query, limit) : this.#byCursor(facts, list, query, limit);
    if ('status' in chosen) return chosen;
    const page =
      facts.cursor !== 'offset' && facts.pageOrder === 'descending' ? [...chosen.items].reverse() : chosen.items;
    return { status: 200, body: this.#result(operation, ids, facts, page, chosen.more, list.length) };
  }

  #byCursor(facts: CatalogPagination, list: readonly unknown[], query: URLSearchParams, limit: number) {
    const cursors: Partial<Record<'before' | 'after' | 'around', bigint>> = {};
    for (const name of ['before', 'after', 'around'] as const) {
      const text = query.get(name);
      if (text === null) continue;
      const valid = facts.cursor === 'timestamp' ? !Number.isNaN(Date.parse(text)) : /^\d{1,20}$/.test(text);
      if (!valid) {
        return facts.cursor === 'timestamp'
          ? invalidForm(name, 'DATE_TIME_TYPE_PARSE', `Could not parse ${text}. Should be ISO8601.`)
          : invalidForm(name, 'NUMBER_TYPE_COERCE', `Value "${text}" is not snowflake.`);
      }
      cursors[name] = facts.cursor === 'timestamp' ? BigInt(Date.parse(text)) : BigInt(text);
    }
    const key = (item: unknown) => keyOf(facts, read(item, facts.cursorFrom));
    let items: unknown[];
    let more: boolean;
    if (cursors.around !== undefined) {
      const at = list.findIndex((item) => key(item) >= cursors.around!);
      const from = Math.max(0, (at === -1 ? list.length : at) - Math.floor(limit / 2));
      items = list.slice(from, from + limit);
      more = from + limit < list.length;
    } else if (cursors.after !== undefined) {
      const newer = list.filter((item) => key(item) > cursors.after!);
      items = newer.slice(0, limit);
      more = newer.length > limit;
    } else {
      const older = cursors.before === undefined ? list : list.filter((item) => key(item) < cursors.before!);
      const fromStart = cursors.before === undefined && facts.order === 'oldest-first';
      items = fromStart ? older.slice(0, limit) : older.slice(Math.max(0, older.length - limit));
      more = older.length > limit;
    }
    return { items, more };
  }

  #byOffset(facts: CatalogPagination, list: readonly unknown[], query: URLSearchParams, limit: number) {
    const offset = Number(query.get('offset') ?? 0);
    if (!Number.isInteger(offset) || offset < 0 || offset > facts.maxOffset!) {
      return invalidForm('offset', 'NUMBER_TYPE_MAX', `int value should be between 0 and ${facts.maxOffset}.`);
    }
    const ordered = facts.pageOrder === 'descending' ? [...list].reverse() : list;
    return { items: ordered.slice(offset, offset + limit), more: offset + limit < ordered.length };
  }

  /** The page as the service sends it: the list itself, or the sample's wrapper holding it. */
  #result(operation: string, ids: PathIds, facts: CatalogPagination, page: unknown[], more: boolean, total: number) {
    const entries = facts.nested ? page.map((item) => [item]) : page;
    if (facts.items === undefined) return entries;
    const sample = sampleResult(operation, ids, {});
    return {
      ...(typeof sample === 'object' && sample !== null ? sample : {}),
      [facts.items]: entries,
      ...(facts.hasMore && { [facts.hasMore]: more }),
      ...(facts.total && { [facts.total]: total }),
    };
  }

  /** `count` items like the operation's sample, each with its own cursor field. */
  #generate(operation: string, ids: PathIds, facts: CatalogPagination, count: number): unknown[] {
    const sample = sampleResult(operation, ids, undefined);
    const list = facts.items === undefined ? sample : read(sample, facts.items);
    const first: unknown = Array.isArray(list)
      ? facts.nested && Array.isArray(list[0])
        ? list[0][0]
        : list[0]
      : undefined;
    const template = typeof first === 'object' && first !== null ? first : {};
    return Array.from({ length: count }, (_, index) => {
      const item = structuredClone(template) as Record<string, unknown>;
      const id = String(FIRST_ID + (BigInt(index) << 22n) * 1000n);
      write(
        item,
        facts.cursorFrom,
        facts.cursor === 'timestamp' ? new Date(FIRST_TIME + index * 1000).toISOString() : id,
      );
      if (facts.cursorFrom !== 'id' && 'id' in item) item.id = id;
      return item;
    });
  }
}

const keyFor = (operation: string, ids: PathIds) => `${operation} ${JSON.stringify(Object.entries(ids).sort())}`;
