/**
 * catalog:sync where its other tests left holes: a name under an existing operation's name, a
 * PUT of `@me`, a catalog behind by links alone, a rewritten catalog that would be invalid, and
 * conflicts in the write mode. Each runs the sync on a catalog folder of its own, from a document
 * the fixture catalog follows but for the one thing the test is about.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nameOf, nameProblem, proposeName } from '../../scripts/sync/derive.ts';
import { isBehind } from '../../scripts/sync/diff.ts';
import { runSync, type SyncRunOptions } from '../../scripts/sync/run.ts';
import {
  catalogFolder,
  FIXTURE_CATALOG,
  type FixtureOperation,
  FOLLOWED,
  noContent,
  openApiDocument,
  syncOptions,
} from '../support/openapi-fixture.ts';

let folder: Awaited<ReturnType<typeof catalogFolder>>;
beforeEach(async () => {
  folder = await catalogFolder();
});
afterEach(async () => {
  await folder.remove();
});

const options = (overrides: Partial<SyncRunOptions>) => syncOptions(folder, overrides);

/** A document of `operations` in a file of the folder (not the pinned one). */
async function documentFile(operations: Record<string, FixtureOperation>, name = 'new.json'): Promise<string> {
  const file = join(folder.dir, name);
  await writeFile(file, JSON.stringify(openApiDocument(operations)));
  return file;
}

/** Pins a document as an earlier sync would have: `openapi.json` and `source.json`. */
async function pin(operations: Record<string, FixtureOperation>, build = '300'): Promise<void> {
  await writeFile(join(folder.pinnedDir, 'openapi.json'), JSON.stringify(openApiDocument(operations)));
  await writeFile(join(folder.pinnedDir, 'source.json'), `${JSON.stringify({ build })}\n`);
}

const name = (method: string, path: string, operationId: string, methodsAtPath: string[] = []) =>
  nameOf({ method: method as 'GET', path, operationId, arrayResult: false }, methodsAtPath);

describe('a new operation under the name of an existing one', () => {
  it('nameProblem: a name whose namespace is already an operation is taken, as is a name that is a namespace', () => {
    const taken = new Set(['guilds.messages.search', 'channels.messages.list']);
    expect(nameProblem('guilds.messages.search.tabs.get', taken)).toBe(
      'its namespace "guilds.messages.search" is already an operation',
    );
    expect(nameProblem('guilds.messages.search', taken)).toBe('"guilds.messages.search" is already an operation');
    expect(nameProblem('channels.messages', taken)).toBe(
      '"channels.messages" is the namespace of "channels.messages.list"',
    );
    // Sharing a namespace is no problem, nor is a name that only begins with another's words.
    expect(nameProblem('guilds.messages.get', taken)).toBeUndefined();
    expect(nameProblem('guilds.messages.searchTabs.get', taken)).toBeUndefined();
  });

  it('proposeName: the words under the operation are joined into one', () => {
    expect(proposeName('guilds.messages.search.tabs.get', new Set(['guilds.messages.search']))).toBe(
      'guilds.messages.searchTabs.get',
    );
  });

  it('the sync proposes a name, reports the collision, exits 0 and writes a valid catalog', async () => {
    const spec = await documentFile({
      ...FOLLOWED,
      'GET /guilds/{guild_id}/messages/search/tabs': { operationId: 'get_guild_search_tabs' },
    });
    const result = await runSync(options({ spec, build: '301' }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.diff?.added).toMatchObject([
      {
        name: 'guilds.messages.searchTabs.get',
        collision:
          'its namespace "guilds.messages.search" is already an operation; proposed "guilds.messages.searchTabs.get"',
      },
    ]);
    expect(result.stdout).toContain(
      '+ GET    /guilds/{guild_id}/messages/search/tabs  →  guilds.messages.searchTabs.get',
    );
    expect(result.stdout).toContain(
      'name collision: its namespace "guilds.messages.search" is already an operation; proposed "guilds.messages.searchTabs.get"',
    );
    const written = await readFile(folder.catalogFile, 'utf8');
    expect(written).toContain("name: 'guilds.messages.searchTabs.get'");
    expect(written).toContain("name: 'guilds.messages.search'");

    // The written catalog loads (it is validated on every run) and follows the pinned document.
    const check = await runSync(options({ check: true }));
    expect(check.stderr).toBe('');
    expect(check.stdout).toContain('The catalog follows the document.');
    expect(check.code).toBe(0);
  });
});

describe('the verb of a PUT', () => {
  it.each([
    // Joining the set of a user: the path's last word is @me, and the operationId's verb is not one of ours.
    [
      '/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me',
      'add_my_message_reaction',
      ['PUT', 'DELETE'],
      'channels.messages.reactions.me.add',
    ],
    ['/lobbies/{lobby_id}/members/@me', 'add_lobby_member_me', ['PUT', 'DELETE'], 'lobbies.members.me.add'],
    ['/guilds/{guild_id}/members/@me', 'put_my_guild_member', [], 'guilds.members.me.add'],
    // One item of a set: add.
    ['/guilds/{guild_id}/members/{user_id}', 'add_guild_member', ['PUT', 'DELETE'], 'guilds.members.add'],
    // The whole collection: replace.
    ['/applications/{application_id}/commands', 'bulk_set_application_commands', [], 'applications.commands.replace'],
    ['/guilds/{guild_id}/members/@me/roles', 'set_my_roles', [], 'guilds.members.me.roles.replace'],
  ])('PUT %s (%s, methods there: %j) → %s', (path, operationId, methods, expected) => {
    expect(name('PUT', path, operationId, methods)).toBe(expected);
  });

  it('the sync drafts a PUT and a DELETE of @me as add and leave', async () => {
    const spec = await documentFile({
      ...FOLLOWED,
      'PUT /lobbies/{lobby_id}/members/@me': { operationId: 'add_lobby_member_me', responses: noContent },
      'DELETE /lobbies/{lobby_id}/members/@me': { operationId: 'leave_lobby', responses: noContent },
    });
    const result = await runSync(options({ spec, check: true }));
    expect(result.diff?.added.map(({ method, name }) => ({ method, name }))).toEqual([
      { method: 'PUT', name: 'lobbies.members.me.add' },
      { method: 'DELETE', name: 'lobbies.members.me.leave' },
    ]);
  });
});

describe('--check on a catalog behind by links alone', () => {
  it('operations matched by method and path but without their operationId: behind, exit 1', async () => {
    await pin(FOLLOWED);
    const result = await runSync(options({ check: true }));
    // Nothing but the links: no fact differs, nothing is added or removed.
    expect(result.diff).toMatchObject({ added: [], removed: [], changed: [], restored: [], conflicts: [] });
    expect(result.diff?.linked.map((link) => link.name)).toEqual([
      'channels.messages.list',
      'channels.messages.create',
      'webhooks.getWithToken',
    ]);
    expect(result.stdout).toContain('linked   3 catalog operations to their operationId');
    expect(result.stdout).toContain('The catalog is behind the document: `npm run catalog:sync` would make 3 edits.');
    expect(result.code).toBe(1);
    expect(isBehind(result.diff!)).toBe(true);
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
  });

  it('what --check prints and how it exits agree, before and after the sync writes the links', async () => {
    await pin(FOLLOWED);
    const before = await runSync(options({ check: true }));
    const write = await runSync(options({}));
    expect(write.code).toBe(0);
    expect(await readFile(folder.catalogFile, 'utf8')).toContain("operationId: 'list_messages'");
    const after = await runSync(options({ check: true }));
    expect(
      [before, after].map((run) => ({ behind: run.stdout.includes('The catalog is behind'), code: run.code })),
    ).toEqual([
      { behind: true, code: 1 },
      { behind: false, code: 0 },
    ]);
    expect(after.stdout).toContain('The catalog follows the document.');
  });
});

describe('a rewritten catalog that would be invalid', () => {
  it('a kept body beside a query that became required: nothing written, nothing pinned, exit 1 naming the problem', async () => {
    await pin(FOLLOWED);
    const pinnedSpec = await readFile(join(folder.pinnedDir, 'openapi.json'));
    const pinnedSource = await readFile(join(folder.pinnedDir, 'source.json'));
    const filesBefore = (await readdir(join(folder.dir, 'catalog'))).sort();
    // guilds.edit keeps its optional body by hand; the document drops the body and requires a query.
    const spec = await documentFile({
      ...FOLLOWED,
      'PATCH /guilds/{guild_id}': { operationId: 'update_guild', query: [{ name: 'with_counts', required: true }] },
    });
    const result = await runSync(options({ spec, build: '301' }));
    expect(result.diff?.kept).toMatchObject([{ name: 'guilds.edit', fact: 'body' }]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^catalog:sync: nothing written: The route catalog is invalid/);
    expect(result.stderr).toContain('"guilds.edit": queryRequired needs documented query parameters and no body');
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
    expect(await readFile(join(folder.pinnedDir, 'openapi.json'))).toEqual(pinnedSpec);
    expect(await readFile(join(folder.pinnedDir, 'source.json'))).toEqual(pinnedSource);
    // No copy of the catalog it loaded to check it, nor a temporary file, is left behind.
    expect((await readdir(join(folder.dir, 'catalog'))).sort()).toEqual(filesBefore);
  });
});

describe('conflicts in the write mode', () => {
  it('an unauthenticated operation the document now says needs a token: exit 1, a person must settle it, on every run', async () => {
    const spec = await documentFile({
      ...FOLLOWED,
      'GET /webhooks/{webhook_id}/{webhook_token}': { operationId: 'get_webhook_by_token' },
    });
    const result = await runSync(options({ spec, build: '301' }));
    expect(result.diff?.conflicts).toHaveLength(1);
    expect(result.stdout).toContain('conflicts  1 (a person must settle these)');
    expect(result.stdout).toContain(
      '! webhooks.getWithToken: sent without Authorization (unauthenticated), but GET /webhooks/{webhook_id}/{webhook_token} needs a token',
    );
    expect(result.stdout).toContain('A person must settle the conflicts above');
    expect(result.code).toBe(1);

    // Until a person settles it, a run from the pinned document says so again.
    const again = await runSync(options({}));
    expect(again.stdout).toContain('A person must settle the conflicts above');
    expect(again.code).toBe(1);
  });
});
