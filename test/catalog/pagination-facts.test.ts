/**
 * Every paged list of the catalog has its pagination facts and its two iterators, and the facts
 * agree with Discord's OpenAPI document where it says the same thing (the largest page, the
 * largest offset, the cursor parameters).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import { parseCatalog } from '../../catalog/schema.ts';
import { createClient } from '../../src/index.ts';

const operations = catalog.routes.flatMap((route) => route.operations);
const document = JSON.parse(
  await readFile(new URL('../../catalog/discord-openapi/openapi.json', import.meta.url), 'utf8'),
) as {
  paths: Record<
    string,
    Record<string, { operationId?: string; parameters?: { name: string; in: string; schema?: { maximum?: number } }[] }>
  >;
};
const byId = new Map(
  Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((op) => (op.operationId ? [[op.operationId, op] as const] : [])),
  ),
);

describe('paged lists', () => {
  it('every list that takes a cursor and a limit has pagination facts (user-only ones aside)', () => {
    const unpaged = operations.filter((op) => {
      const query = op.query ?? [];
      const cursors = ['before', 'after', 'offset'].some((name) => query.includes(name));
      return cursors && query.includes('limit') && !op.paginate && !op.userOnly;
    });
    expect(unpaged.map((op) => op.name)).toEqual([]);
    expect(operations.filter((op) => op.paginate)).toHaveLength(18);
  });

  it.each(operations.filter((op) => op.paginate).map((op) => [op.name, op] as const))(
    '%s: its facts agree with the document',
    (_, op) => {
      const facts = op.paginate!;
      const spec = op.operationId === undefined ? undefined : byId.get(op.operationId);
      if (!spec) return; // kept by hand: nothing to compare
      const query = new Map((spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
      expect(query.get('limit')?.schema?.maximum).toBe(facts.limit);
      if (facts.cursor === 'offset') expect(query.get('offset')?.schema?.maximum).toBe(facts.maxOffset);
      for (const cursor of facts.parameters) expect(query.has(cursor), cursor).toBe(true);
    },
  );

  it('the schema refuses facts the walk cannot follow: a newest-first list without before', () => {
    const copy = structuredClone(catalog);
    const members = copy.routes.flatMap((route) => route.operations).find((op) => op.name === 'guilds.members.list')!;
    members.paginate = { ...members.paginate!, order: 'newest-first', pageOrder: 'descending' };
    expect(() => parseCatalog(copy)).toThrow('a newest-first list goes on with `before`, which it must take');
  });

  it('every paged list has its iterators on the client: <verb>All for items, <verb>Pages for results', async () => {
    const client = createClient({ token: 'Bot x' });
    for (const op of operations.filter((candidate) => candidate.paginate)) {
      const parts = op.name.split('.');
      let target: unknown = client;
      for (const part of parts.slice(0, -1)) target = (target as Record<string, unknown>)[part];
      expect(typeof (target as Record<string, unknown>)[`${parts.at(-1)}All`], op.name).toBe('function');
      expect(typeof (target as Record<string, unknown>)[`${parts.at(-1)}Pages`], op.name).toBe('function');
    }
    await client.close();
  });
});
