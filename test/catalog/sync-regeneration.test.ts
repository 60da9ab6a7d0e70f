/**
 * What keeps regeneration from breaking a caller: identifiers the generator writes once,
 * drafted names that read well, the build gate and its report, renames and moves, the archive
 * of removed operations, the guard on removals, and the release note.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseChangesetFile } from '@changesets/parse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalog as realCatalog } from '../../catalog/routes.ts';
import { CatalogError, parseCatalog, type Catalog } from '../../catalog/schema.ts';
import { identifierClashes } from '../../scripts/codegen/identifiers.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { renderGenerated } from '../../scripts/codegen/run.ts';
import { nameOf, nameProblem } from '../../scripts/sync/derive.ts';
import { diffCatalog } from '../../scripts/sync/diff.ts';
import { readSpec } from '../../scripts/sync/openapi.ts';
import { changesetText } from '../../scripts/sync/report.ts';
import { runSync, type SyncRunOptions } from '../../scripts/sync/run.ts';
import {
  catalogFolder,
  FIXTURE_CATALOG,
  type FixtureOperation,
  FOLLOWED,
  json,
  loadFixture,
  ok,
  openApiDocument,
  pinDocument,
  syncOptions,
} from '../support/openapi-fixture.ts';

const root = join(import.meta.dirname, '..', '..');

describe('identifiers: each written once, derived as the generator derives them', () => {
  const renamed = (from: string, to: string) => {
    const copy = structuredClone(realCatalog) as { routes: { operations: { name: string }[] }[] };
    for (const route of copy.routes) for (const op of route.operations) if (op.name === from) op.name = to;
    return parseCatalog(copy);
  };

  it('two dotted names that differ only in their dots are one class and one type: refused, both named', async () => {
    // Build 227040's draft beside the catalog's guilds.scheduledEvents.users.list.
    const catalog = renamed('guilds.scheduledEvents.get', 'guilds.scheduledEventsUsers.list');
    const clashes = identifierClashes(buildModel(catalog), new Map());
    expect(clashes).toContainEqual({
      scope: 'export',
      identifier: 'GuildsScheduledEventsUsersApi',
      owners: ['namespace guilds.scheduledEvents.users', 'namespace guilds.scheduledEventsUsers'],
    });
    const error = await renderGenerated({ catalog, configFile: join(root, 'package.json'), format: false }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).message).toContain('export GuildsScheduledEventsUsersApi is written by');
  });

  it("a class's members are a scope of their own: an operation named as a list's iterator is caught there", () => {
    // The catalog's schema refuses this name first; the generator's own check sees it too.
    const copy = structuredClone(realCatalog) as { routes: { operations: { name: string }[] }[] };
    for (const route of copy.routes) {
      for (const op of route.operations) if (op.name === 'channels.messages.get') op.name = 'channels.messages.listAll';
    }
    expect(identifierClashes(buildModel(copy as unknown as Catalog), new Map())).toEqual([
      {
        scope: 'member of ChannelsMessagesApi',
        identifier: 'listAll',
        owners: ['operation channels.messages.list', 'operation channels.messages.listAll'],
      },
    ]);
  });

  it('the catalog as it is writes every identifier once', () => {
    expect(identifierClashes(buildModel(realCatalog), new Map())).toEqual([]);
  });

  it('the sync sees the same clash in a name it would draft', () => {
    expect(nameProblem('guilds.scheduledEventsUsers.get', new Set(['guilds.scheduledEvents.users.list']))).toBe(
      'namespaces "guilds.scheduledEventsUsers" and "guilds.scheduledEvents.users" would write the same class GuildsScheduledEventsUsersApi',
    );
    expect(nameProblem('guilds.messagesSearch.get', new Set(['guilds.messages.search.get']))).toMatch(
      /would write the same types \(GuildsMessagesSearchGetQuery\)/,
    );
    expect(
      nameProblem('guilds.scheduledEvents.exceptions.users.list', new Set(['guilds.scheduledEvents.users.list'])),
    ).toBeUndefined();
  });
});

describe('drafted names', () => {
  const id = (name: string) => ({ name, snowflake: true, required: true }) as never;
  it.each([
    [
      'GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/users/counts',
      'count_guild_scheduled_event_users',
      ['guild_id', 'guild_scheduled_event_id'],
      [],
      'guilds.scheduledEvents.users.count',
    ],
    [
      'GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/{guild_scheduled_event_exception_id}/users',
      'list_guild_scheduled_event_exception_users',
      ['guild_id', 'guild_scheduled_event_id', 'guild_scheduled_event_exception_id'],
      [],
      'guilds.scheduledEvents.exceptions.users.list',
    ],
    // An id after an id, its word plural: a vowel before the y keeps it (keys, not kies).
    [
      'GET /applications/{application_id}/{application_key_id}',
      'get_application_key',
      ['application_id', 'application_key_id'],
      [],
      'applications.keys.get',
    ],
    // A wrapper result, but it pages: a list.
    [
      'GET /guilds/{guild_id}/requests',
      'get_guild_join_requests',
      ['guild_id'],
      ['limit', 'after'],
      'guilds.requests.list',
    ],
    // A credential after an id names no resource.
    ['GET /webhooks/{webhook_id}/{webhook_token}/messages', 'get_x', ['webhook_id'], [], 'webhooks.messages.get'],
  ])('%s → %s', (key, operationId, ids, query, expected) => {
    const [method, path] = key.split(' ') as ['GET', string];
    const operation = {
      method,
      path,
      operationId,
      arrayResult: false,
      pathParameters: ids.map(id),
      query: query.map((name) => ({ name, required: false })),
    };
    expect(nameOf(operation, [method])).toBe(expected);
  });
});

describe('diffCatalog: renames, moves, removals and bodies that come late', () => {
  const load = () => loadFixture();

  it('an operationId renamed at the same method and path keeps the method; deprecated_… deprecates it', async () => {
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    operations['GET /guilds/{guild_id}'] = { operationId: 'deprecated_get_guild' };
    const diff = diffCatalog(await load(), readSpec(openApiDocument(operations)), { build: '301', prune: false });
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.linked).toContainEqual({ name: 'guilds.get', operationId: 'deprecated_get_guild' });
    expect(diff.edits).toContainEqual({
      kind: 'set',
      operationName: 'guilds.get',
      properties: {
        operationId: 'deprecated_get_guild',
        deprecated: 'Discord deprecated it (operationId deprecated_get_guild).',
      },
    });
  });

  it('an operationId found at another path moved: drafted there, the old method deprecated and renamed to it', async () => {
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    delete operations['GET /guilds/{guild_id}'];
    operations['GET /guilds/{guild_id}/profile'] = { operationId: 'get_guild' };
    const diff = diffCatalog(await load(), readSpec(openApiDocument(operations)), { build: '301', prune: false });
    expect(diff.added).toMatchObject([{ name: 'guilds.profile.get', operationId: 'get_guild' }]);
    expect(diff.removed).toMatchObject([{ name: 'guilds.get', action: 'deprecated', renamedTo: 'guilds.profile.get' }]);
    expect(diff.edits).toContainEqual({
      kind: 'set',
      operationName: 'guilds.get',
      properties: { removedIn: '301', renamedTo: 'guilds.profile.get' },
    });
  });

  it('a body that comes to an operation whose parameters are its query goes in the options (bodyIn)', async () => {
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    operations['GET /channels/{channel_id}/messages'] = { operationId: 'list_messages', query: ['limit', 'before'] };
    operations['DELETE /guilds/{guild_id}'] = {
      operationId: 'delete_guild',
      query: ['reason'],
      body: { required: false, ...json({ type: 'object', properties: { note: { type: 'string' } } }) },
    };
    const diff = diffCatalog(await load(), readSpec(openApiDocument(operations)), { build: '301', prune: false });
    const edit = diff.edits.find((e) => e.kind === 'set' && e.operationName === 'guilds.delete');
    // guilds.delete had no query: its parameters become the body, no bodyIn.
    expect(edit).toMatchObject({ properties: { body: 'optional', query: ['reason'] } });
    expect((edit as { properties: Record<string, unknown> }).properties.bodyIn).toBeUndefined();
    const withQuery = FIXTURE_CATALOG.replace(
      "{ name: 'guilds.delete', method: 'DELETE', summary: 'Delete Guild', operationId: 'delete_guild' }",
      "{ name: 'guilds.delete', method: 'DELETE', summary: 'Delete Guild', query: ['reason'], operationId: 'delete_guild' }",
    );
    expect(withQuery).not.toBe(FIXTURE_CATALOG);
    const later = diffCatalog(await loadFixture(withQuery), readSpec(openApiDocument(operations)), {
      build: '301',
      prune: false,
    });
    expect(later.edits.find((e) => e.kind === 'set' && e.operationName === 'guilds.delete')).toMatchObject({
      properties: { body: 'optional', bodyIn: 'options' },
    });
  });

  it('more than 5 % of the synced operations gone (and more than one) is refused, unless removals are allowed', async () => {
    const empty = readSpec(openApiDocument({}));
    expect(() => diffCatalog(parseCatalog(realCatalog), empty, { build: '301', prune: false })).toThrow(
      /the document would remove \d+ of the catalog's \d+ synced operations \(100\.0 %, more than 5 %\): refused; if Discord really removed them, pass --allow-removals/,
    );
    const allowed = diffCatalog(parseCatalog(realCatalog), empty, { build: '301', prune: false, allowRemovals: true });
    expect(allowed.removed.length).toBeGreaterThan(200);
    // One operation gone is a release, not a broken document.
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    delete operations['DELETE /guilds/{guild_id}'];
    expect(
      diffCatalog(await load(), readSpec(openApiDocument(operations)), { build: '301', prune: false }).removed,
    ).toHaveLength(1);
  });

  it('exactly 5 % of the synced operations gone is still a release; one more is refused', async () => {
    const pinned = JSON.parse(await readFile(join(root, 'catalog', 'discord-openapi', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const copy = structuredClone(realCatalog) as {
      routes: { operations: { operationId?: string; removedIn?: string }[] }[];
    };
    const synced = copy.routes.flatMap((route) => route.operations).filter((op) => op.operationId && !op.removedIn);
    // A few already removed (gone from the document too), so that 5 % of the rest is a whole number.
    const removedBefore = synced.splice(0, synced.length % 20);
    for (const op of removedBefore) op.removedIn = '300';
    const share = synced.length / 20;
    const documentWithout = (count: number) => {
      const gone = new Set([...removedBefore, ...synced.slice(0, count)].map((op) => op.operationId));
      const paths = Object.entries(pinned.paths).map(([path, item]) => [
        path,
        Object.fromEntries(Object.entries(item).filter(([, operation]) => !gone.has(operation.operationId))),
      ]);
      return readSpec({ ...pinned, paths: Object.fromEntries(paths) });
    };
    const catalog = parseCatalog(copy);
    const diff = diffCatalog(catalog, documentWithout(share), { build: '301', prune: false });
    expect(diff.removed.filter((removed) => removed.action === 'deprecated')).toHaveLength(share);
    expect(() => diffCatalog(catalog, documentWithout(share + 1), { build: '301', prune: false })).toThrow(
      `the document would remove ${share + 1} of the catalog's ${synced.length} synced operations`,
    );
  });

  it('an operationId that moves again: the method that follows it now is deprecated toward the new one, not its renamed predecessor', async () => {
    // guilds.preview.get followed get_guild once and was renamed to guilds.get (and comes after it in
    // the catalog); now Discord moves get_guild again and keeps the path as deprecated_get_guild.
    const withPredecessor = FIXTURE_CATALOG.replace(
      "    {\n      key: 'GuildsIdEmbed',",
      [
        '    {',
        "      key: 'GuildsIdPreview',",
        "      major: 'guild_id',",
        "      path: '/guilds/{guild_id}/preview',",
        "      pathSource: 'spec',",
        "      operations: [{ name: 'guilds.preview.get', method: 'GET', summary: 'Get Guild Preview', operationId: 'get_guild', removedIn: '200', renamedTo: 'guilds.get' }],",
        '    },',
        '    {',
        "      key: 'GuildsIdEmbed',",
      ].join('\n'),
    );
    expect(withPredecessor).not.toBe(FIXTURE_CATALOG);
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    operations['GET /guilds/{guild_id}'] = { operationId: 'deprecated_get_guild' };
    operations['GET /guilds/{guild_id}/profile'] = { operationId: 'get_guild' };
    const diff = diffCatalog(await loadFixture(withPredecessor), readSpec(openApiDocument(operations)), {
      build: '301',
      prune: false,
    });
    expect(diff.added).toMatchObject([{ name: 'guilds.profile.get', operationId: 'get_guild' }]);
    expect(diff.edits).toContainEqual({
      kind: 'set',
      operationName: 'guilds.get',
      properties: {
        operationId: 'deprecated_get_guild',
        deprecated: 'Use `guilds.profile.get`: Discord moved this operation to GET /guilds/{guild_id}/profile.',
      },
    });
    expect(diff.edits).toContainEqual({
      kind: 'set',
      operationName: 'guilds.preview.get',
      properties: { renamedTo: 'guilds.profile.get' },
    });
  });
});

describe('runSync: the gate, the archive, the release note', () => {
  let folder: Awaited<ReturnType<typeof catalogFolder>>;
  beforeEach(async () => {
    folder = await catalogFolder();
    await pinDocument(folder.pinnedDir, FOLLOWED);
  });
  afterEach(async () => {
    await folder.remove();
  });
  const options = (overrides: Partial<SyncRunOptions>) => syncOptions(folder, overrides);
  const documentFile = async (operations: Record<string, FixtureOperation>, extra: Record<string, unknown> = {}) => {
    const file = join(folder.dir, 'new.json');
    await writeFile(file, JSON.stringify({ ...openApiDocument(operations), ...extra }));
    return file;
  };
  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(
        [folder.catalogFile, ...(await readdir(folder.pinnedDir)).map((name) => join(folder.pinnedDir, name))].map(
          async (file) => [file, await readFile(file, 'utf8')] as const,
        ),
      ),
    );

  it('a document whose SDK would not compile writes nothing, exits 2 and names the problem', async () => {
    const document = openApiDocument({
      ...FOLLOWED,
      'GET /lobbies/{lobby_id}': { operationId: 'get_lobby', responses: ok() },
    });
    // A schema of the name the new operation's result type would take.
    (document.components as { schemas: Record<string, unknown> }).schemas.GetLobbyResult = { type: 'string' };
    const spec = await documentFile({}, document);
    const before = await snapshot();
    const result = await runSync(options({ spec, build: '301' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing written: the SDK this catalog and document would generate does not build');
    expect(result.stderr).toContain('lobbies.get: the type GetLobbyResult it needs is already a schema');
    expect(result.stdout).toContain('Nothing written');
    expect(await snapshot()).toEqual(before);
  });

  it("the JSON report names the run's mode: a write, and a run that wrote nothing", async () => {
    const written = await runSync(options({ spec: await documentFile(FOLLOWED), build: '300', json: true }));
    expect([written.code, JSON.parse(written.stdout).mode]).toEqual([0, 'write']);
    const document = openApiDocument({
      ...FOLLOWED,
      'GET /lobbies/{lobby_id}': { operationId: 'get_lobby', responses: ok() },
    });
    (document.components as { schemas: Record<string, unknown> }).schemas.GetLobbyResult = { type: 'string' };
    const refused = await runSync(options({ spec: await documentFile({}, document), build: '301', json: true }));
    expect([refused.code, JSON.parse(refused.stdout).mode]).toEqual([2, 'failed']);
  });

  it('a removed operation keeps its types: the archive holds it from the build that had it, and the SDK builds', async () => {
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    delete operations['PATCH /guilds/{guild_id}'];
    const result = await runSync(options({ spec: await documentFile(operations), build: '301' }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const archive = JSON.parse(await readFile(join(folder.pinnedDir, 'removed.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(archive).toMatchObject({ update_guild: { build: '300', method: 'PATCH', path: '/guilds/{guild_id}' } });
    expect(result.surface).toContainEqual({
      method: 'guilds.edit',
      change: 'deprecated',
      detail: 'not in the document since build 301',
    });
    // Back in the document: it leaves the archive.
    const back = await runSync(options({ spec: await documentFile(FOLLOWED), build: '302' }));
    expect(back.code).toBe(0);
    expect(JSON.parse(await readFile(join(folder.pinnedDir, 'removed.json'), 'utf8'))).toEqual({});
  });

  it('the report classifies each public method and drafts the release note with its semver meaning', async () => {
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    operations['GET /guilds/{guild_id}'] = { operationId: 'get_guild', query: ['with_counts'] };
    operations['GET /lobbies/{lobby_id}'] = { operationId: 'get_lobby' };
    const changesetDir = join(folder.dir, '.changeset');
    // First the document the fixture follows, so its three operations without an operationId are
    // linked (their queries then typed by the document: that is a change of its own).
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const json = await runSync(
      options({ spec: await documentFile(operations), build: '301', check: true, json: true }),
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ api: { semver: 'minor' } });
    const result = await runSync(options({ spec: await documentFile(operations), build: '301', changesetDir }));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/public API {2}2 changes of methods \(semver: minor\)/);
    expect(result.stdout).toMatch(/~ guilds\.get +additive: params → query accepts more/);
    expect(result.stdout).toMatch(/\+ lobbies\.get +added: GET \/lobbies\/\{lobby_id\}/);
    const note = await readFile(join(changesetDir, 'catalog-sync-301.md'), 'utf8');
    expect(note).toBe(changesetText('tollgate', result.diff!, result.surface!));
    expect(note).toMatch(/^---\n"tollgate": minor\n---\n/);
  });

  it("with checkCalls the result holds the calls' verdicts from the gate's program; without it, none", async () => {
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    operations['GET /guilds/{guild_id}'] = { operationId: 'get_guild', query: ['with_counts'] };
    const checked = await runSync(options({ spec: await documentFile(operations), build: '301', checkCalls: true }));
    expect(checked.code).toBe(0);
    expect(checked.calls).toEqual({ diagnostics: [], brokenCalls: [] });
    operations['GET /lobbies/{lobby_id}'] = { operationId: 'get_lobby' };
    const unchecked = await runSync(options({ spec: await documentFile(operations), build: '302' }));
    expect(unchecked.code).toBe(0);
    expect(Object.keys(unchecked)).not.toContain('calls');
  });

  it("with generatedDir the SDK before is that folder's TypeScript files, as they are, not rendered again", async () => {
    // The SDK of the catalog before its first sync: the sync of 300 changes it (its queries typed).
    const generatedDir = join(folder.dir, 'generated-before');
    const { files } = await renderGenerated({
      catalog: await loadFixture(),
      document: openApiDocument(FOLLOWED),
      archive: {},
      configFile: join(root, 'package.json'),
      format: false,
    });
    await mkdir(generatedDir);
    for (const [name, text] of files) await writeFile(join(generatedDir, name), text);
    await writeFile(join(generatedDir, 'notes.md'), '# not code\n');
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const operations = { ...FOLLOWED, 'GET /lobbies/{lobby_id}': { operationId: 'get_lobby' } };
    const spec = await documentFile(operations);
    const rendered = await runSync(options({ spec, build: '301', check: true }));
    expect(rendered.surface).toEqual([{ method: 'lobbies.get', change: 'added', detail: 'GET /lobbies/{lobby_id}' }]);
    const given = await runSync(options({ spec, build: '301', check: true, generatedDir }));
    // Both say the catalog is behind (--check); the SDK before differs.
    expect([rendered.code, given.code]).toEqual([1, 1]);
    expect(given.surface).toEqual(expect.arrayContaining([...rendered.surface!]));
    expect(given.surface!.length).toBeGreaterThan(rendered.surface!.length);
  });

  it('a document whose change reaches no method still drafts a release note: a patch', async () => {
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const document = openApiDocument(FOLLOWED) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    document.components.schemas.MessageCreateRequest!.properties.content = {
      type: 'string',
      description: 'The message, up to 2000 characters',
    };
    const changesetDir = join(folder.dir, '.changeset');
    const result = await runSync(options({ spec: await documentFile({}, document), build: '301', changesetDir }));
    expect(result.code).toBe(0);
    expect(result.surface).toEqual([]);
    expect(result.stdout).toContain('Release note drafted: ');
    const note = parseChangesetFile(await readFile(join(changesetDir, 'catalog-sync-301.md'), 'utf8'));
    expect(note.releases).toEqual([{ name: 'tollgate', type: 'patch' }]);
    expect(note.summary).toMatch(/^Follows build 301 of Discord's OpenAPI document .*\n\nNo method was added/);
  });

  it('a sync that changes nothing drafts no release note', async () => {
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const changesetDir = join(folder.dir, '.changeset');
    const again = await runSync(options({ spec: await documentFile(FOLLOWED), build: '300', changesetDir }));
    expect(again.code).toBe(0);
    expect(again.surface).toBeUndefined();
    expect(await readdir(changesetDir).catch(() => [])).toEqual([]);
  });

  it('a body field whose type narrows is breaking, named by its parameter, and the release is major', async () => {
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const document = openApiDocument(FOLLOWED) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    document.components.schemas.MessageCreateRequest!.properties.content = { type: 'integer' };
    const changesetDir = join(folder.dir, '.changeset');
    // Only the document changes (the catalog has nothing to edit): the gate still compares.
    const result = await runSync(options({ spec: await documentFile({}, document), build: '301', changesetDir }));
    expect(result.code).toBe(0);
    expect(result.diff!.edits).toEqual([]);
    expect(result.surface).toEqual([
      { method: 'channels.messages.create', change: 'breaking', detail: 'body accepts less' },
    ]);
    expect(result.stdout).toMatch(/public API {2}1 changes of methods \(semver: major\)/);
    const note = await readFile(join(changesetDir, 'catalog-sync-301.md'), 'utf8');
    expect(note).toMatch(/^---\n"tollgate": major\n---\n/);
    expect(note).toContain(
      '**Breaking** (a call that compiled may not):\n- `channels.messages.create`: body accepts less\n',
    );
  });

  it('an optional body field removed is breaking (a call that gave it no longer compiles), and the release is major', async () => {
    expect((await runSync(options({ spec: await documentFile(FOLLOWED), build: '300' }))).code).toBe(0);
    const document = openApiDocument(FOLLOWED) as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const request = document.components.schemas.MessageCreateRequest!;
    // `content` is optional (the schema requires no field), and goes.
    expect(request.required ?? []).not.toContain('content');
    delete request.properties.content;
    const changesetDir = join(folder.dir, '.changeset');
    const result = await runSync(options({ spec: await documentFile({}, document), build: '301', changesetDir }));
    expect(result.code).toBe(0);
    expect(result.surface).toEqual([
      { method: 'channels.messages.create', change: 'breaking', detail: 'body accepts less' },
    ]);
    expect(result.stdout).toMatch(/public API {2}1 changes of methods \(semver: major\)/);
    const note = await readFile(join(changesetDir, 'catalog-sync-301.md'), 'utf8');
    expect(parseChangesetFile(note).releases).toEqual([{ name: 'tollgate', type: 'major' }]);
  });

  it('a method deprecated by an earlier sync is not reported again: the next sync reports what it changed', async () => {
    const operations = { ...FOLLOWED } as Record<string, FixtureOperation>;
    delete operations['PATCH /guilds/{guild_id}'];
    const first = await runSync(options({ spec: await documentFile(operations), build: '301' }));
    expect(first.surface).toContainEqual({
      method: 'guilds.edit',
      change: 'deprecated',
      detail: 'not in the document since build 301',
    });
    operations['GET /lobbies/{lobby_id}'] = { operationId: 'get_lobby' };
    const next = await runSync(options({ spec: await documentFile(operations), build: '302' }));
    expect(next.code).toBe(0);
    expect(next.surface).toEqual([{ method: 'lobbies.get', change: 'added', detail: 'GET /lobbies/{lobby_id}' }]);
  });
});

describe('the release note', () => {
  it('lists the methods under their kind of change, breaking first, with the semver of the whole', async () => {
    const diff = diffCatalog(await loadFixture(), readSpec(openApiDocument(FOLLOWED)), {
      build: '301',
      prune: false,
    });
    const note = changesetText('tollgate', diff, [
      { method: 'guilds.delete', change: 'deprecated', detail: 'not in the document since build 301' },
      {
        method: 'guilds.get',
        change: 'renamed',
        detail: 'operationId get_guild → fetch_guild; the method keeps its name',
      },
      { method: 'channels.messages.list', change: 'additive', detail: 'query accepts more' },
      { method: 'lobbies.get', change: 'added', detail: 'GET /lobbies/{lobby_id}' },
      { method: 'guilds.edit', change: 'breaking', detail: 'body accepts less' },
    ]);
    expect(note).toBe(
      [
        '---',
        '"tollgate": major',
        '---',
        '',
        "Follows build 301 of Discord's OpenAPI document (`npm run catalog:sync`).",
        '',
        '**Breaking** (a call that compiled may not):',
        '- `guilds.edit`: body accepts less',
        '',
        'Added:',
        '- `lobbies.get`: GET /lobbies/{lobby_id}',
        '',
        'Accepts more:',
        '- `channels.messages.list`: query accepts more',
        '',
        'Renamed:',
        '- `guilds.get`: operationId get_guild → fetch_guild; the method keeps its name',
        '',
        'Deprecated:',
        '- `guilds.delete`: not in the document since build 301',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['major', [{ method: 'guilds.edit', change: 'breaking', detail: 'body accepts less' }]],
    ['minor', [{ method: 'lobbies.get', change: 'added', detail: 'GET /lobbies/{lobby_id}' }]],
    ['patch', []],
  ] as const)(
    'is a changeset as @changesets/cli reads it: a %s release of the package named',
    async (type, surface) => {
      const diff = diffCatalog(await loadFixture(), readSpec(openApiDocument(FOLLOWED)), {
        build: '301',
        prune: false,
      });
      for (const name of ['tollgate', '@tollgate-dev/sdk']) {
        const parsed = parseChangesetFile(changesetText(name, diff, surface));
        expect(parsed.releases).toEqual([{ name, type }]);
        expect(parsed.summary.split('\n')[0]).toBe(
          "Follows build 301 of Discord's OpenAPI document (`npm run catalog:sync`).",
        );
        for (const change of surface) expect(parsed.summary).toContain(`- \`${change.method}\`: ${change.detail}`);
      }
    },
  );
});
