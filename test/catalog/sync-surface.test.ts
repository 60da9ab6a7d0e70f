/**
 * What the sync's build gate (scripts/sync/gate.ts) reads off the compiler for each public
 * method: added, additive, breaking, renamed, deprecated. The SDKs here are written by hand, a
 * `Resources` interface of the methods the fixture catalog names with argument lists of each
 * test's choosing, so that each rule of the comparison meets the one change it judges: no SDK is
 * rendered, and a program over two small files takes about a second.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, CatalogOperation } from '../../catalog/schema.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { buildGate, methodsOf, type SurfaceChange } from '../../scripts/sync/gate.ts';
import { loadFixture } from '../support/openapi-fixture.ts';

const root = join(import.meta.dirname, '..', '..');
let fixture: Catalog;
beforeAll(async () => {
  fixture = await loadFixture();
});

/** The fixture catalog, with `edit` applied to a copy of each operation. */
function catalogWith(edit: (op: CatalogOperation) => CatalogOperation | undefined = (op) => op): Catalog {
  const copy = structuredClone(fixture);
  return {
    ...copy,
    routes: copy.routes.map((route) => ({
      ...route,
      operations: route.operations.flatMap((op) => edit(op) ?? []),
    })),
  } as Catalog;
}

/** An SDK of one file: `Resources`, each method of `catalog` with the parameters given, else none. */
function sdkOf(catalog: Catalog, parameters: Readonly<Record<string, string>> = {}, prelude = ''): Map<string, string> {
  interface Tree {
    [member: string]: Tree | string;
  }
  const tree: Tree = {};
  for (const method of methodsOf(buildModel(catalog)).keys()) {
    const parts = method.split('.');
    let at = tree;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Tree;
    at[parts.at(-1)!] = `(${parameters[method] ?? ''}) => Promise<void>`;
  }
  const print = (node: Tree): string =>
    `{ ${Object.entries(node)
      .map(([name, value]) => `${JSON.stringify(name)}: ${typeof value === 'string' ? value : print(value)};`)
      .join(' ')} }`;
  return new Map([['index.ts', `${prelude}\nexport interface Resources ${print(tree)}\n`]]);
}

interface Side {
  readonly catalog: Catalog;
  readonly parameters?: Readonly<Record<string, string>>;
  readonly prelude?: string;
}

/** The gate's surface from `before` to `after`, as the sync reports it. */
async function surfaceOf(before: Side, after: Side): Promise<readonly SurfaceChange[]> {
  const side = ({ catalog, parameters, prelude }: Side) => ({
    catalog,
    document: {},
    archive: {},
    files: sdkOf(catalog, parameters, prelude),
  });
  const result = await buildGate({ root, before: side(before), after: side(after) });
  expect(result.problems).toEqual([]);
  return result.surface!;
}

/** The change to one method's argument list, the rest of the SDK the same. */
async function argumentChange(method: string, was: string, is: string, prelude = '') {
  const catalog = catalogWith();
  const surface = await surfaceOf(
    { catalog, parameters: { [method]: was }, prelude },
    { catalog, parameters: { [method]: is }, prelude },
  );
  return surface.filter((change) => change.method === method).map(({ change, detail }) => ({ change, detail }));
}

describe("the gate's surface: methods", () => {
  it('the same SDK on both sides changes nothing', async () => {
    const catalog = catalogWith();
    expect(await surfaceOf({ catalog }, { catalog })).toEqual([]);
  });

  it('a method new in the catalog is added, with its method and path; one gone is breaking, with its operationId or none', async () => {
    const before = catalogWith((op) => (op.name === 'guilds.get' ? undefined : op));
    const after = catalogWith((op) => (op.name === 'guilds.delete' || op.name === 'guilds.embed.get' ? undefined : op));
    expect(await surfaceOf({ catalog: before }, { catalog: after })).toEqual([
      { method: 'guilds.get', change: 'added', detail: 'GET /guilds/{guild_id}' },
      { method: 'guilds.delete', change: 'breaking', detail: 'removed (delete_guild)' },
      { method: 'guilds.embed.get', change: 'breaking', detail: 'removed (kept by hand)' },
    ]);
  });

  it('a paginated list brings its walks: list, listAll and listPages', async () => {
    const paginate: CatalogOperation['paginate'] = {
      cursor: 'id',
      parameters: ['before'],
      order: 'newest-first',
      pageOrder: 'descending',
      limit: 100,
      cursorFrom: 'id',
    };
    const after = catalogWith((op) => (op.name === 'channels.messages.list' ? { ...op, paginate } : op));
    expect(await surfaceOf({ catalog: catalogWith() }, { catalog: after })).toEqual([
      { method: 'channels.messages.listAll', change: 'added', detail: 'GET /channels/{channel_id}/messages' },
      { method: 'channels.messages.listPages', change: 'added', detail: 'GET /channels/{channel_id}/messages' },
    ]);
  });

  it('an operationId that changes under a method that keeps its name is a rename of the operation', async () => {
    const after = catalogWith((op) => (op.name === 'guilds.get' ? { ...op, operationId: 'get_guild_v2' } : op));
    expect(await surfaceOf({ catalog: catalogWith() }, { catalog: after })).toEqual([
      {
        method: 'guilds.get',
        change: 'renamed',
        detail: 'operationId get_guild → get_guild_v2; the method keeps its name',
      },
    ]);
  });

  it('an operationId given where there was none is no rename', async () => {
    const after = catalogWith((op) =>
      op.name === 'channels.messages.list' ? { ...op, operationId: 'list_messages' } : op,
    );
    expect(await surfaceOf({ catalog: catalogWith() }, { catalog: after })).toEqual([]);
  });

  it('an operationId taken away (the operation kept by hand from now on) is no rename either', async () => {
    const after = catalogWith((op) => (op.name === 'guilds.get' ? { ...op, operationId: undefined } : op));
    expect(await surfaceOf({ catalog: catalogWith() }, { catalog: after })).toEqual([]);
  });

  it('renamedTo is reported once, as the rename, not as a deprecation too; an earlier one is not again', async () => {
    const renamed = (op: CatalogOperation) =>
      op.name === 'guilds.delete' ? { ...op, removedIn: '300', renamedTo: 'guilds.remove' } : op;
    expect(await surfaceOf({ catalog: catalogWith() }, { catalog: catalogWith(renamed) })).toEqual([
      { method: 'guilds.delete', change: 'renamed', detail: 'to guilds.remove; this name stays, deprecated' },
    ]);
    expect(await surfaceOf({ catalog: catalogWith(renamed) }, { catalog: catalogWith(renamed) })).toEqual([]);
  });

  it('a method deprecated by hand, or gone from the document, is deprecated, with why', async () => {
    const after = catalogWith((op) =>
      op.name === 'guilds.get'
        ? { ...op, deprecated: 'Use guilds.fetch.' }
        : op.name === 'guilds.delete'
          ? { ...op, removedIn: '301' }
          : op,
    );
    expect(await surfaceOf({ catalog: catalogWith() }, { catalog: after })).toEqual([
      { method: 'guilds.get', change: 'deprecated', detail: 'Use guilds.fetch.' },
      { method: 'guilds.delete', change: 'deprecated', detail: 'not in the document since build 301' },
    ]);
  });
});

describe("the gate's surface: argument lists", () => {
  it('a new optional parameter accepts more; a new required one breaks, named by position when unlabelled', async () => {
    expect(await argumentChange('guilds.get', 'id: string', 'id: string, options?: { a?: number }')).toEqual([
      { change: 'additive', detail: 'new optional parameter options' },
    ]);
    expect(await argumentChange('guilds.get', 'id: string', 'id: string, reason: string')).toEqual([
      { change: 'breaking', detail: 'new required parameter reason' },
    ]);
  });

  it('a parameter removed breaks; one made required breaks, one made optional accepts more', async () => {
    expect(await argumentChange('guilds.get', 'id: string, reason?: string', 'id: string')).toEqual([
      { change: 'breaking', detail: 'parameter reason removed' },
    ]);
    expect(await argumentChange('guilds.get', 'id: string, reason?: string', 'id: string, reason: string')).toEqual([
      { change: 'breaking', detail: 'reason now required' },
    ]);
    expect(await argumentChange('guilds.get', 'id: string, reason: string', 'id: string, reason?: string')).toEqual([
      { change: 'additive', detail: 'reason now optional' },
    ]);
  });

  it('a parameter renamed is named old → new; a type that takes less breaks, one that takes more is additive', async () => {
    expect(await argumentChange('guilds.get', 'id: string', 'guildId: string | number')).toEqual([
      { change: 'additive', detail: 'id → guildId accepts more' },
    ]);
    expect(await argumentChange('guilds.get', 'id: string | number', 'id: string')).toEqual([
      { change: 'breaking', detail: 'id accepts less' },
    ]);
  });

  it('every reason is told, joined by "; ", the breaking ones alone when any', async () => {
    expect(await argumentChange('guilds.get', 'a: string, b: string', 'a?: string, b?: string, c?: number')).toEqual([
      { change: 'additive', detail: 'a now optional; b now optional; new optional parameter c' },
    ]);
    expect(await argumentChange('guilds.get', 'a?: string, b?: string', 'a: string, b: string, c?: number')).toEqual([
      { change: 'breaking', detail: 'a now required; b now required' },
    ]);
  });

  it('an object parameter: a field gained accepts more, a field lost breaks, at any depth up to the bound', async () => {
    expect(await argumentChange('guilds.edit', 'body: { a?: string }', 'body: { a?: string; b?: number }')).toEqual([
      { change: 'additive', detail: 'body accepts more' },
    ]);
    expect(await argumentChange('guilds.edit', 'body: { a?: string; b?: number }', 'body: { a?: string }')).toEqual([
      { change: 'breaking', detail: 'body accepts less' },
    ]);
    expect(
      await argumentChange(
        'guilds.edit',
        'body: { a?: { b?: { c?: string } } }',
        'body: { a?: { b?: { c?: string; d?: 1 } } }',
      ),
    ).toEqual([{ change: 'additive', detail: 'body accepts more' }]);
    expect(
      await argumentChange(
        'guilds.edit',
        'body: { a?: { b?: { c?: string; d?: 1 } } }',
        'body: { a?: { b?: { c?: string } } }',
      ),
    ).toEqual([{ change: 'breaking', detail: 'body accepts less' }]);
    // Past four levels down, a field's coming and going is no longer looked for.
    const deep = (leaf: string) => `body: { a?: { b?: { c?: { d?: { e?: { f?: { ${leaf} } } } } } } }`;
    expect(await argumentChange('guilds.edit', deep('g?: string'), deep('g?: string; h?: 1'))).toEqual([]);
  });

  it('the bound: a field gained in the object four levels below the parameter is seen, five levels below it is not', async () => {
    const nested = (levels: readonly string[], leaf: string) =>
      `body: ${levels.reduceRight((inner, name) => `{ ${name}?: ${inner} }`, `{ ${leaf} }`)}`;
    const four = ['a', 'b', 'c', 'd'];
    expect(await argumentChange('guilds.edit', nested(four, 'x?: string'), nested(four, 'x?: string; y?: 1'))).toEqual([
      { change: 'additive', detail: 'body accepts more' },
    ]);
    const five = [...four, 'e'];
    expect(await argumentChange('guilds.edit', nested(five, 'x?: string'), nested(five, 'x?: string; y?: 1'))).toEqual(
      [],
    );
  });

  it('a nested field lost breaks even beside another that gained one', async () => {
    expect(
      await argumentChange(
        'guilds.edit',
        'body: { a?: { x?: string }; b?: { y?: string } }',
        'body: { a?: { x?: string; z?: 1 }; b?: {} }',
      ),
    ).toEqual([{ change: 'breaking', detail: 'body accepts less' }]);
  });

  it('the items of a list are walked as the list: a field gained by each item accepts more', async () => {
    expect(
      await argumentChange(
        'guilds.edit',
        'body: { roles?: { id: string }[] }',
        'body: { roles?: { id: string; color?: number }[] }',
      ),
    ).toEqual([{ change: 'additive', detail: 'body accepts more' }]);
    expect(
      await argumentChange('guilds.edit', 'body: [{ id: string }]', 'body: [{ id: string; color?: number }]'),
    ).toEqual([{ change: 'additive', detail: 'body accepts more' }]);
  });

  it('a union: a field of one member gained accepts more; a field its members share is compared by name only', async () => {
    expect(
      await argumentChange(
        'guilds.edit',
        'body: { type: 1; a?: string } | { type: 2; b?: string }',
        'body: { type: 1; a?: string; c?: number } | { type: 2; b?: string }',
      ),
    ).toEqual([{ change: 'additive', detail: 'body accepts more' }]);
  });

  it("an intersection has its members' fields; a function, a class or a built-in type is not walked", async () => {
    expect(
      await argumentChange(
        'guilds.edit',
        'body: { a?: string } & { b?: string }',
        'body: { a?: string } & { b?: string; c?: 1 }',
      ),
    ).toEqual([{ change: 'additive', detail: 'body accepts more' }]);
    expect(await argumentChange('guilds.edit', 'body: { a?: () => void }', 'body: { a?: () => void }')).toEqual([]);
    expect(await argumentChange('guilds.edit', 'body: { file?: Blob }', 'body: { file?: Blob }')).toEqual([]);
    const prelude = 'declare class Thing { x?: string }';
    expect(await argumentChange('guilds.edit', 'body: { a?: Thing }', 'body: { a?: Thing }', prelude)).toEqual([]);
  });

  it('when each side accepts the other, nothing changes', async () => {
    expect(await argumentChange('guilds.get', 'id: string', 'id: string')).toEqual([]);
  });

  it("the checker's last word: a list it refuses as a whole breaks though no parameter said so", async () => {
    // A rest parameter of strings and one optional string: the same first parameter, but no
    // longer any number of them.
    expect(await argumentChange('guilds.get', '...ids: string[]', 'id?: string')).toEqual([
      { change: 'breaking', detail: 'argument list accepts less' },
    ]);
  });

  it('a parameter without a label is named by its position from 1', async () => {
    expect(await argumentChange('guilds.get', '...ids: string[]', '...ids: [string, string]')).toEqual([
      { change: 'breaking', detail: '#1 now required; new required parameter #2' },
    ]);
  });
});
