/**
 * The paged-list walker against a model of a list endpoint: for any dataset size, page maximum,
 * `max`, cursor and direction (and pages sorted either way), it hands out every item exactly
 * once, in the service's order from the cursor, with the fewest requests the endpoint allows,
 * and leaving the loop early asks for nothing more.
 *
 * The fewest requests: each page asks for the endpoint's largest page or what `max` leaves, so
 * reaching `max` takes ceil(max / page) requests. Where the list ends first, an endpoint that
 * says `has_more` (or a total) ends after ceil(items / page) requests (at least one); a plain
 * array can only show its end with a page shorter than asked for, so when the items fill their
 * last page exactly, one more request finds it empty: floor(items / page) + 1.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkItems } from '../../src/pagination/walk.ts';
import type { PaginationDefinition } from '../../src/contracts/catalog.ts';
import type { QueryInput } from '../../src/sdk.ts';
import { runs } from '../support/property-runs.ts';

interface Scenario {
  readonly size: number;
  readonly facts: PaginationDefinition;
  readonly cursor: { readonly before?: string } | { readonly after?: string } | { readonly offset?: number };
  readonly max: number | undefined;
  /** Items the loop takes before it breaks (undefined: it runs to the end). */
  readonly breakAfter: number | undefined;
}

const idOf = (index: number) => String(1_000_000n + BigInt(index) * 7n);

/** A list endpoint, written apart from the walker: ascending ids, pages as the facts say. */
function modelEndpoint(size: number, facts: PaginationDefinition) {
  const all = Array.from({ length: size }, (_, index) => ({ id: idOf(index) }));
  const requests: QueryInput[] = [];
  const fetchPage = async (query: QueryInput) => {
    requests.push(query);
    const limit = Number(query.limit);
    expect(limit).toBeGreaterThanOrEqual(1);
    expect(limit).toBeLessThanOrEqual(facts.limit);
    let chosen: { id: string }[];
    let rest: number;
    if (facts.cursor === 'offset') {
      const sorted = facts.pageOrder === 'descending' ? [...all].reverse() : all;
      const offset = Number(query.offset);
      chosen = sorted.slice(offset, offset + limit);
      rest = Math.max(0, sorted.length - offset - chosen.length);
    } else if (query.after !== undefined) {
      const after = BigInt(query.after as string);
      const newer = all.filter((item) => BigInt(item.id) > after);
      chosen = newer.slice(0, limit);
      rest = newer.length - chosen.length;
    } else {
      const before = query.before === undefined ? undefined : BigInt(query.before as string);
      const older = before === undefined ? all : all.filter((item) => BigInt(item.id) < before);
      chosen = before === undefined && facts.order === 'oldest-first' ? older.slice(0, limit) : older.slice(-limit);
      rest = older.length - chosen.length;
    }
    const page =
      facts.pageOrder === 'descending' ? [...chosen].sort((a, b) => Number(BigInt(b.id) - BigInt(a.id))) : chosen;
    if (facts.items === undefined) return page;
    return {
      [facts.items]: page,
      ...(facts.hasMore && { [facts.hasMore]: rest > 0 }),
      ...(facts.total && { [facts.total]: all.length }),
    };
  };
  return { all, requests, fetchPage };
}

const idFacts = fc
  .record({
    cursor: fc.constant('id' as const),
    parameters: fc.constant(['before', 'after'] as ('before' | 'after')[]),
    order: fc.constantFrom('newest-first' as const, 'oldest-first' as const),
    pageOrder: fc.constantFrom('ascending' as const, 'descending' as const),
    limit: fc.integer({ min: 1, max: 12 }),
    cursorFrom: fc.constant('id'),
    wrapped: fc.boolean(),
  })
  .map(({ wrapped, ...facts }): PaginationDefinition =>
    wrapped ? { ...facts, items: 'entries', hasMore: 'has_more' } : facts,
  );

const offsetFacts = fc
  .record({
    limit: fc.integer({ min: 1, max: 12 }),
    pageOrder: fc.constantFrom('ascending' as const, 'descending' as const),
  })
  .map(({ limit, pageOrder }): PaginationDefinition => ({
    cursor: 'offset',
    parameters: [],
    order: 'newest-first',
    pageOrder,
    limit,
    maxOffset: 10_000,
    items: 'hits',
    cursorFrom: 'id',
    total: 'total_results',
  }));

const scenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.integer({ min: 0, max: 60 }),
    fc.oneof(idFacts, offsetFacts),
    fc.integer({ min: -2, max: 62 }),
    fc.option(fc.integer({ min: 0, max: 70 }), { nil: undefined }),
    fc.option(fc.integer({ min: 1, max: 70 }), { nil: undefined }),
    fc.constantFrom('none', 'before', 'after'),
  )
  .map(([size, facts, at, max, breakAfter, kind]) => {
    const cursor =
      facts.cursor === 'offset'
        ? { offset: Math.max(0, at) }
        : kind === 'before'
          ? { before: at < 0 ? '1' : idOf(at) }
          : kind === 'after'
            ? { after: at < 0 ? '1' : idOf(at) }
            : {};
    return { size, facts, cursor, max, breakAfter };
  });

/** What the service holds from the cursor, in walking order. */
function expectedItems({ facts, cursor }: Scenario, all: readonly { id: string }[]): string[] {
  const ids = all.map((item) => item.id);
  if ('offset' in cursor) return (facts.pageOrder === 'descending' ? [...ids].reverse() : ids).slice(cursor.offset);
  if ('after' in cursor && cursor.after !== undefined) return ids.filter((id) => BigInt(id) > BigInt(cursor.after!));
  if ('before' in cursor && cursor.before !== undefined)
    return ids.filter((id) => BigInt(id) < BigInt(cursor.before!)).reverse();
  return facts.order === 'newest-first' ? [...ids].reverse() : ids;
}

function expectedRequests(available: number, page: number, max: number, endIsSaid: boolean): number {
  if (max <= available) return Math.ceil(max / page);
  return endIsSaid ? Math.max(1, Math.ceil(available / page)) : Math.floor(available / page) + 1;
}

describe('properties: walking a paged list', () => {
  it("every item once, in the service's order from the cursor, with the fewest requests; leaving early asks for nothing more", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (case_) => {
        const { all, requests, fetchPage } = modelEndpoint(case_.size, case_.facts);
        const query = { ...case_.cursor, ...(case_.max !== undefined && { max: case_.max }) };
        const seen: string[] = [];
        for await (const item of walkItems('test.list', case_.facts, query, { fetchPage, sleep: async () => {} })) {
          seen.push((item as { id: string }).id);
          if (case_.breakAfter !== undefined && seen.length >= case_.breakAfter) break;
        }
        const available = expectedItems(case_, all);
        const max = case_.max ?? Infinity;
        const wanted = available.slice(0, Math.min(max, case_.breakAfter ?? Infinity));
        expect(seen).toEqual(wanted);
        expect(new Set(seen).size).toBe(seen.length);
        const endIsSaid = case_.facts.hasMore !== undefined || case_.facts.total !== undefined;
        const whole = expectedRequests(available.length, case_.facts.limit, max, endIsSaid);
        if (case_.breakAfter === undefined || case_.breakAfter >= Math.min(max, available.length)) {
          // The loop ran to the walk's end (a break on its very last item asks for nothing either).
          expect(requests.length).toBeLessThanOrEqual(whole);
          if (case_.breakAfter === undefined) expect(requests.length).toBe(whole);
        } else {
          expect(requests.length).toBe(Math.ceil(case_.breakAfter / case_.facts.limit));
        }
        // No request asks for more than the page maximum or more than `max` leaves.
        const asked = requests.reduce((sum, request) => sum + Number(request.limit), 0);
        expect(asked).toBeLessThanOrEqual(Number.isFinite(max) ? max + 0 : Infinity);
      }),
      runs(2000),
    );
  });
});
