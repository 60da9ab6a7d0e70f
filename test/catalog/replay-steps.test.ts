/**
 * The replay's own bookkeeping (scripts/sync/replay.ts), on the fixture catalog and small invented
 * builds, where every step costs a fraction of a second: the calls it compiles name exactly the
 * methods that broke, the counts are the sync's, a step the sync refuses is named and skipped, and
 * each step is checked against the last SDK that built. replay.test.ts replays Discord's own
 * history, in which no call breaks.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderGenerated } from '../../scripts/codegen/run.ts';
import type { RenderedSdk } from '../../scripts/sync/compile.ts';
import { buildGate, methodsOf } from '../../scripts/sync/gate.ts';
import {
  checkCalls,
  replay,
  stepOf,
  wroteCatalog,
  type ReplayBuild,
  type ReplayStep,
} from '../../scripts/sync/replay.ts';
import { runSync, type SyncRunResult } from '../../scripts/sync/run.ts';
import type { CatalogDiff } from '../../scripts/sync/types.ts';
import type { Catalog } from '../../catalog/schema.ts';
import {
  catalogFolder,
  type FixtureOperation,
  FOLLOWED,
  loadFixture,
  openApiDocument,
  pinDocument,
  syncOptions,
} from '../support/openapi-fixture.ts';

const root = join(import.meta.dirname, '..', '..');
type Operations = Record<string, FixtureOperation>;

const folders: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await folder.remove();
});

/** The fixture catalog's folder, unsynced (`operations` undefined) or synced to a document of `operations`. */
async function startingCatalog(operations?: Operations): Promise<string> {
  const folder = await catalogFolder();
  folders.push(folder);
  await pinDocument(folder.pinnedDir, FOLLOWED);
  if (operations !== undefined) {
    const spec = join(folder.dir, 'start.json');
    await writeFile(spec, JSON.stringify(openApiDocument(operations)));
    const result = await runSync(syncOptions(folder, { spec, build: '300' }));
    expect(result.code, result.stderr).toBe(0);
  }
  return join(folder.dir, 'catalog');
}

const build = (name: string, operations: Operations): ReplayBuild => ({
  build: name,
  date: '2026-11-26',
  text: () => JSON.stringify(openApiDocument(operations)),
});

const GUILD = 'GET /guilds/{guild_id}';
const ROLES = 'GET /guilds/{guild_id}/roles';
const DELETE_GUILD = 'DELETE /guilds/{guild_id}';
/** The guild's GET with a query parameter: a required one breaks every call made without it. */
const guildWithQuery = (required: boolean): Operations => ({
  ...FOLLOWED,
  [GUILD]: { operationId: 'get_guild', query: [{ name: 'with_counts', required }] },
});
/** The document with the guild's roles listed, then with a required query parameter on that list. */
const WITH_ROLES: Operations = { ...FOLLOWED, [ROLES]: { operationId: 'list_guild_roles' } };
const ROLES_WITH_QUERY: Operations = {
  ...FOLLOWED,
  [ROLES]: { operationId: 'list_guild_roles', query: [{ name: 'limit', required: true }] },
};
const without = (operations: Operations, ...keys: string[]): Operations =>
  Object.fromEntries(Object.entries(operations).filter(([key]) => !keys.includes(key)));

/** What a step that went through says, less the sync's surface report. */
const outcome = (step: ReplayStep) => {
  const { build, code, added, removed, changed, breaking, brokenCalls, unreported, diagnostics } = step;
  return { build, code, added, removed, changed, breaking, brokenCalls, unreported, diagnostics };
};
const quiet = {
  code: 0,
  added: 0,
  removed: 0,
  changed: 0,
  breaking: [],
  brokenCalls: [],
  unreported: [],
  diagnostics: [],
};

describe('the calls the replay compiles', () => {
  it('a required query parameter breaks the call of that method and of no other, and the sync reported it', async () => {
    const catalog = await startingCatalog(FOLLOWED);
    const seen: ReplayStep[] = [];
    const steps = await replay([build('301', FOLLOWED), build('302', guildWithQuery(true))], {
      root,
      catalog,
      onStep: (step) => seen.push(step),
    });
    expect(steps.map(outcome)).toEqual([
      { ...quiet, build: '301' },
      { ...quiet, build: '302', changed: 1, breaking: ['guilds.get'], brokenCalls: ['guilds.get'] },
    ]);
    expect(steps[1]).toMatchObject({
      date: '2026-11-26',
      stderr: '',
      surface: { added: 0, additive: 0, breaking: 1, renamed: 0, deprecated: 0 },
      surfaceChanges: [{ method: 'guilds.get', change: 'breaking' }],
    });
    expect(seen).toEqual(steps);
  });

  it('an optional one breaks nothing; taking it away again breaks the calls that passed it', async () => {
    const catalog = await startingCatalog(FOLLOWED);
    const steps = await replay([build('301', guildWithQuery(false)), build('302', FOLLOWED)], { root, catalog });
    expect(steps.map(outcome)).toEqual([
      { ...quiet, build: '301', changed: 1 },
      { ...quiet, build: '302', changed: 1, breaking: ['guilds.get'], brokenCalls: ['guilds.get'] },
    ]);
    expect(steps[0]!.surfaceChanges).toEqual([expect.objectContaining({ method: 'guilds.get', change: 'additive' })]);
  });

  it('a breaking report the compiler lets through is breaking, not a broken call (the gate is the stricter check)', async () => {
    // The fixture catalog as written, before any sync: its query and body are looser than the document's.
    const steps = await replay([build('301', FOLLOWED)], { root, catalog: await startingCatalog() });
    expect(outcome(steps[0]!)).toEqual({
      ...quiet,
      build: '301',
      breaking: ['channels.messages.list', 'channels.messages.create'],
      brokenCalls: ['channels.messages.list'],
    });
  });

  it('each step is checked against the SDK the step before it left: a method added, then broken', async () => {
    const catalog = await startingCatalog(FOLLOWED);
    const steps = await replay([build('301', WITH_ROLES), build('302', ROLES_WITH_QUERY)], { root, catalog });
    expect(steps.map(outcome)).toEqual([
      { ...quiet, build: '301', added: 1 },
      { ...quiet, build: '302', changed: 1, breaking: ['guilds.roles.list'], brokenCalls: ['guilds.roles.list'] },
    ]);
    expect(steps[0]!.surface).toEqual({ added: 1, additive: 0, breaking: 0, renamed: 0, deprecated: 0 });
  });

  it('replays from two different catalogs in one process start from two different SDKs', async () => {
    const first = await replay([build('301', FOLLOWED)], { root, catalog: await startingCatalog(FOLLOWED) });
    expect(first.map(outcome)).toEqual([{ ...quiet, build: '301' }]);
    // The second catalog has a method the first has not: its call is checked, so the SDK before is its own.
    const second = await replay([build('301', ROLES_WITH_QUERY)], { root, catalog: await startingCatalog(WITH_ROLES) });
    expect(second.map(outcome)).toEqual([
      { ...quiet, build: '301', changed: 1, breaking: ['guilds.roles.list'], brokenCalls: ['guilds.roles.list'] },
    ]);
  });
  it('replays from one catalog over two pinned documents start from two different SDKs', async () => {
    const first = await replay([build('301', FOLLOWED)], { root, catalog: await startingCatalog(FOLLOWED) });
    expect(first.map(outcome)).toEqual([{ ...quiet, build: '301' }]);
    // The same catalog, its pinned document asking more of a message's body: the SDK before types it so.
    const catalog = await startingCatalog(FOLLOWED);
    const pinned = openApiDocument(FOLLOWED) as { components: { schemas: Record<string, Record<string, unknown>> } };
    pinned.components.schemas.MessageCreateRequest!.required = ['content'];
    await writeFile(join(catalog, 'discord-openapi', 'openapi.json'), JSON.stringify(pinned));
    const [step] = await replay([build('301', FOLLOWED)], { root, catalog });
    expect(step!.surfaceChanges).toEqual([
      expect.objectContaining({ method: 'channels.messages.create', change: 'additive' }),
    ]);
  });
});

describe('the steps the replay counts, skips and settles', () => {
  it('a removal is counted once, in the step that removes it; the method stays, deprecated, and its call compiles', async () => {
    const catalog = await startingCatalog(FOLLOWED);
    const removed = without(FOLLOWED, DELETE_GUILD);
    const steps = await replay([build('301', removed), build('302', removed)], { root, catalog });
    expect(steps.map(outcome)).toEqual([
      { ...quiet, build: '301', removed: 1 },
      { ...quiet, build: '302' },
    ]);
    expect(steps[0]!.surfaceChanges).toEqual([
      expect.objectContaining({ method: 'guilds.delete', change: 'deprecated' }),
    ]);
  });

  it('removals past the bound: allowed on entering the history, refused on any later step', async () => {
    const fewer = without(FOLLOWED, DELETE_GUILD, GUILD, ROLES, 'PATCH /guilds/{guild_id}');
    const entering = await replay([build('301', fewer)], { root, catalog: await startingCatalog(FOLLOWED) });
    expect(outcome(entering[0]!)).toEqual({ ...quiet, build: '301', removed: 3 });

    const later = await replay([build('301', FOLLOWED), build('302', fewer)], {
      root,
      catalog: await startingCatalog(FOLLOWED),
    });
    expect(later[1]).toMatchObject({ build: '302', code: 2, removed: 0, brokenCalls: [] });
    expect(later[1]!.diagnostics).toEqual([`the sync exited 2: ${later[1]!.stderr.trim()}`]);
    expect(later[1]!.stderr).toMatch(/remov/);
  });

  it('a build the sync cannot read is named with its exit and message; the next is checked against the last SDK that built', async () => {
    const catalog = await startingCatalog(FOLLOWED);
    const steps = await replay(
      [build('301', WITH_ROLES), { build: '302', date: '2026-11-26', text: () => '{' }, build('303', ROLES_WITH_QUERY)],
      { root, catalog },
    );
    expect(steps[1]).toMatchObject({
      build: '302',
      code: 2,
      added: 0,
      removed: 0,
      changed: 0,
      breaking: [],
      brokenCalls: [],
    });
    expect(steps[1]!.stderr).toMatch(/^catalog:sync: .*openapi-302\.json is not JSON\n$/);
    expect(steps[1]!.diagnostics).toEqual([`the sync exited 2: ${steps[1]!.stderr.trim()}`]);
    // The build was written into a folder of the replay's own, in the system's temporary folder, gone after.
    const folder = /^catalog:sync: (.*)\/openapi-302\.json/.exec(steps[1]!.stderr)![1]!;
    expect(dirname(folder)).toBe(tmpdir());
    expect(basename(folder)).toMatch(/^tollgate-replay-/);
    expect(existsSync(folder)).toBe(false);
    expect(outcome(steps[2]!)).toEqual({
      ...quiet,
      build: '303',
      changed: 1,
      breaking: ['guilds.roles.list'],
      brokenCalls: ['guilds.roles.list'],
    });
  });

  it('a step with a conflict for a person to settle (exit 1) is written, and its calls are checked all the same', async () => {
    const catalog = await startingCatalog(FOLLOWED);
    const conflicted = {
      ...guildWithQuery(true),
      'GET /webhooks/{webhook_id}/{webhook_token}': { operationId: 'get_webhook_by_token' }, // now needs a bot token
    };
    const [step] = await replay([build('301', conflicted)], { root, catalog });
    expect(outcome(step!)).toMatchObject({
      build: '301',
      code: 1,
      breaking: ['guilds.get'],
      brokenCalls: ['guilds.get'],
      diagnostics: [],
    });
    expect(step!.stderr).toBe('');
  });
});

/** The fixture catalog's SDK over the FOLLOWED document, `edit` applied to the catalog first. */
async function fixtureSdk(edit: (catalog: Catalog) => Catalog = (catalog) => catalog): Promise<RenderedSdk> {
  const catalog = edit(await loadFixture());
  const input = { catalog, document: openApiDocument(FOLLOWED), archive: {} };
  return renderGenerated({ ...input, configFile: join(root, 'package.json'), format: false });
}
/** `guilds.get` with a query it must be given: every call of it before breaks. */
const requireGuildQuery = (catalog: Catalog): Catalog => ({
  ...catalog,
  routes: catalog.routes.map((route) => ({
    ...route,
    operations: route.operations.map((op) =>
      op.name === 'guilds.get' ? { ...op, query: ['with_counts'], queryRequired: true } : op,
    ),
  })),
});
const withFile = (sdk: RenderedSdk, name: string, text: (old: string) => string): RenderedSdk => ({
  ...sdk,
  files: new Map(sdk.files).set(name, text(sdk.files.get(name)!)),
});

describe('checkCalls: compiling the calls of the SDK before against the new one', () => {
  it('a method the new SDK no longer has (pruned) is not called, so not broken', async () => {
    const before = await fixtureSdk();
    const after = await fixtureSdk((catalog) => ({
      ...catalog,
      routes: catalog.routes.map((route) => ({
        ...route,
        operations: route.operations.filter((op) => op.name !== 'guilds.delete'),
      })),
    }));
    expect(checkCalls(root, before, after)).toEqual({ diagnostics: [], brokenCalls: [] });
  });

  it("the new SDK's own diagnostic is one, by file, and names no method, though its line is a call's line in the calls module", async () => {
    const before = await fixtureSdk();
    // Line 6 of index.ts: in the calls module, line 6 calls a method.
    const after = withFile(before, 'index.ts', (text) => {
      const lines = text.split('\n');
      return [...lines.slice(0, 5), "export const broken: number = 'not a number';", ...lines.slice(5)].join('\n');
    });
    expect(checkCalls(root, before, after)).toEqual({
      diagnostics: ["generated/index.ts: Type 'string' is not assignable to type 'number'."],
      brokenCalls: [],
    });
  });

  it("the new SDK's diagnostic with a chain of messages is told on one line: each part after a space and the compiler's indent", async () => {
    const before = await fixtureSdk();
    const after = withFile(
      before,
      'index.ts',
      (text) => `${text}\nexport const f: (a: string) => void = (a: number) => {};\n`,
    );
    expect(checkCalls(root, before, after).diagnostics).toEqual([
      "generated/index.ts: Type '(a: number) => void' is not assignable to type '(a: string) => void'.   " +
        "Types of parameters 'a' and 'a' are incompatible.     Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it("an SDK the sync's gate already built is not checked again: only the calls are", async () => {
    const before = await fixtureSdk();
    const after = withFile(before, 'index.ts', (text) => `${text}\nexport const broken: number = 'not a number';\n`);
    expect(checkCalls(root, before, after, true)).toEqual({ diagnostics: [], brokenCalls: [] });
    const required = await fixtureSdk(requireGuildQuery);
    expect(checkCalls(root, before, required, true)).toEqual({ diagnostics: [], brokenCalls: ['guilds.get'] });
  });

  it('a calls module that cannot import the SDK before says so in a diagnostic of its own, beside its calls', async () => {
    const after = await fixtureSdk();
    const before = withFile(after, 'index.ts', () => 'export {};\n');
    const { diagnostics, brokenCalls } = checkCalls(root, before, after);
    expect(diagnostics).toEqual([expect.stringMatching(/^\.replay-calls\.ts: .*has no exported member 'Resources'/)]);
    // Every call then fails, each under its method's name: the import's line is no call's.
    expect(brokenCalls).toEqual([...methodsOf(after.model).keys()]);
  });
});

describe("the calls' check in the gate's own program (buildGate's checkCalls)", () => {
  const gateOver = async (edit: (catalog: Catalog) => Catalog, checks: boolean) => {
    const catalog = await loadFixture();
    const side = (of: Catalog) => ({ catalog: of, document: openApiDocument(FOLLOWED), archive: {} });
    return buildGate({ root, before: side(catalog), after: side(edit(catalog)), ...(checks && { checkCalls: true }) });
  };

  it("finds what a program of its own finds, and a broken call is never one of the gate's problems", async () => {
    const gate = await gateOver(requireGuildQuery, true);
    expect(gate.problems).toEqual([]);
    expect(gate.calls).toEqual({ diagnostics: [], brokenCalls: ['guilds.get'] });
    expect(gate.calls).toEqual(checkCalls(root, await fixtureSdk(), await fixtureSdk(requireGuildQuery), true));
    expect(gate.surface).toContainEqual(expect.objectContaining({ method: 'guilds.get', change: 'breaking' }));
  });

  it('nothing broken: every call compiles; not asked: no check', async () => {
    expect((await gateOver((catalog) => catalog, true)).calls).toEqual({ diagnostics: [], brokenCalls: [] });
    expect((await gateOver(requireGuildQuery, false)).calls).toBeUndefined();
  });
});

const EMPTY_DIFF: CatalogDiff = {
  build: '301',
  documentOperations: 6,
  added: [],
  removed: [],
  changed: [],
  linked: [],
  restored: [],
  kept: [],
  conflicts: [],
  handKept: 0,
  newParameters: {},
  edits: [],
};
const result = (code: 0 | 1 | 2, diff?: Partial<CatalogDiff>, rest: Partial<SyncRunResult> = {}): SyncRunResult => ({
  code,
  stdout: '',
  stderr: code === 0 ? '' : 'catalog:sync: why\n',
  ...(diff && { diff: { ...EMPTY_DIFF, ...diff } }),
  ...rest,
});

describe('wroteCatalog and stepOf: what a step records', () => {
  it('the sync wrote the catalog when it is done, or done with conflicts; not when it refused or found the catalog invalid', () => {
    expect(wroteCatalog(result(0, {}))).toBe(true);
    expect(wroteCatalog(result(1, { conflicts: ['a person must settle this'] }))).toBe(true);
    // Exit 1 without conflicts: the rewritten catalog would be invalid, or the catalog is (no diff then).
    expect(wroteCatalog(result(1, {}))).toBe(false);
    expect(wroteCatalog(result(1))).toBe(false);
    // Exit 2: refused, whatever the diff holds.
    expect(wroteCatalog(result(2, { conflicts: ['a person must settle this'] }))).toBe(false);
    expect(wroteCatalog(result(2))).toBe(false);
  });

  it("a step not written: the sync's exit and message as its diagnostic, nothing counted, no call checked", () => {
    expect(stepOf({ build: '302', date: '2026-11-26', text: () => '' }, result(2), undefined)).toEqual({
      build: '302',
      date: '2026-11-26',
      code: 2,
      stderr: 'catalog:sync: why\n',
      added: 0,
      removed: 0,
      changed: 0,
      surface: { added: 0, additive: 0, breaking: 0, renamed: 0, deprecated: 0 },
      surfaceChanges: [],
      breaking: [],
      brokenCalls: [],
      unreported: [],
      diagnostics: ['the sync exited 2: catalog:sync: why'],
    });
  });

  it('a broken call the sync did not report breaking is unreported; one it reported is not', () => {
    const step = stepOf(
      { build: '301', date: '2026-11-26', text: () => '' },
      result(0, {}, { surface: [{ method: 'guilds.get', change: 'breaking', detail: 'query now required' }] }),
      { diagnostics: [], brokenCalls: ['guilds.get', 'guilds.delete'] },
    );
    expect(step).toMatchObject({
      breaking: ['guilds.get'],
      brokenCalls: ['guilds.get', 'guilds.delete'],
      unreported: ['guilds.delete'],
      diagnostics: [],
    });
  });
});
