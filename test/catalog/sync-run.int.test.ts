/**
 * catalog:sync end to end: a catalog folder of its own, documents from files and from a local
 * server, what it writes (the catalog, the pinned document) and what it leaves alone on bad
 * input; and the command itself on the repository (`--check`, CI's step).
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSync, type SyncRunOptions } from '../../scripts/sync/run.ts';
import { freePorts } from '../support/redis-processes.ts';
import {
  catalogFolder,
  FIXTURE_CATALOG,
  FOLLOWED,
  noContent,
  OPEN,
  openApiDocument,
  pinDocument,
  syncOptions,
} from '../support/openapi-fixture.ts';

const root = join(import.meta.dirname, '..', '..');
const OPERATIONS = {
  'GET /channels/{channel_id}/messages': { operationId: 'list_messages', query: ['limit', 'before'] },
  'POST /channels/{channel_id}/messages': {
    operationId: 'create_message',
    body: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageCreateRequest' } } },
    },
  },
  'GET /guilds/{guild_id}': { operationId: 'get_guild' },
  'PATCH /guilds/{guild_id}': {
    operationId: 'update_guild',
    body: { required: true, content: { 'application/json': { schema: {} } } },
  },
  'GET /webhooks/{webhook_id}/{webhook_token}': { operationId: 'get_webhook_by_token', security: OPEN },
  'DELETE /lobbies/{lobby_id}': { operationId: 'delete_lobby', responses: noContent },
};
const DOCUMENT = openApiDocument(OPERATIONS);

let folder: Awaited<ReturnType<typeof catalogFolder>>;
beforeEach(async () => {
  folder = await catalogFolder();
});
afterEach(async () => {
  await folder.remove();
});

const options = (overrides: Partial<SyncRunOptions>) => syncOptions(folder, overrides);

async function documentFile(document: unknown, name = 'openapi.json'): Promise<string> {
  const file = join(folder.dir, name);
  await writeFile(file, typeof document === 'string' ? document : JSON.stringify(document));
  return file;
}

describe('catalog:sync on a catalog folder', () => {
  it('writes the drafted catalog and pins the document; a second run and --check find nothing to do', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const spec = await documentFile(DOCUMENT, 'new.json');
    const first = await runSync(options({ spec, build: '212999' }));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      '+ DELETE /lobbies/{lobby_id}  →  lobbies.delete  (new route LobbiesId; delete_lobby)',
    );
    expect(first.stdout).toContain(
      '- DELETE /guilds/{guild_id}  guilds.delete  (delete_guild; deprecated: still callable, removedIn 212999)',
    );
    const written = await readFile(folder.catalogFile, 'utf8');
    expect(written).toContain("removedIn: '212999'");
    expect(written).toContain('// The history, newest first.');
    // The document is pinned, with where it came from.
    expect(JSON.parse(await readFile(join(folder.pinnedDir, 'openapi.json'), 'utf8'))).toEqual(DOCUMENT);
    expect(JSON.parse(await readFile(join(folder.pinnedDir, 'source.json'), 'utf8'))).toEqual({
      source: spec,
      build: '212999',
      date: '2026-11-25',
    });

    const check = await runSync(options({ check: true }));
    expect(check.stdout).toContain('The catalog follows the document.');
    expect(check.code).toBe(0);
    const again = await runSync(options({}));
    expect(again.code).toBe(0);
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(written);
  });

  it('--check writes nothing and exits 1 when the catalog is behind; --json prints the report for tools', async () => {
    // Pinned: the document, with the one operation the catalog follows beyond it.
    await pinDocument(
      folder.pinnedDir,
      { ...OPERATIONS, 'DELETE /guilds/{guild_id}': FOLLOWED['DELETE /guilds/{guild_id}']! },
      '212061',
    );
    const behind = await runSync(options({ check: true, json: true }));
    expect(behind.code).toBe(1);
    const report = JSON.parse(behind.stdout) as { mode: string; build: string; added: { name: string }[] };
    expect(report).toMatchObject({ mode: 'check', build: '212061', added: [{ name: 'lobbies.delete' }] });
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
  });

  it('a document file that does not exist: one line, exit 2', async () => {
    const result = await runSync(options({ spec: join(folder.dir, 'nowhere.json') }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^catalog:sync: cannot read .*nowhere\.json: ENOENT\n$/);
  });

  it('a document without a build number is named by its content', async () => {
    const spec = await documentFile(DOCUMENT);
    const result = await runSync(options({ spec, check: true, json: true }));
    expect((JSON.parse(result.stdout) as { build: string }).build).toMatch(/^sha256-[0-9a-f]{12}$/);
  });

  it.each([
    ['a file that is not JSON', 'openapi: 3.1.0\n', /is not JSON\n$/],
    [
      'a Swagger 2 document',
      { swagger: '2.0', info: { version: '10' }, paths: {} },
      /not an OpenAPI document: it has no "openapi" version field\n$/,
    ],
    ['another API version', openApiDocument({}, { version: '9' }), /describes API version 9/],
    [
      'a path parameter the catalog cannot classify',
      openApiDocument(
        { 'GET /quests/{quest_code}': { operationId: 'get_quest' } },
        { stringParameters: ['quest_code'] },
      ),
      /cannot classify path parameter \{quest_code\}/,
    ],
  ])('bad input (%s): one line, exit 2, the catalog and the pin untouched', async (_, document, message) => {
    const spec = await documentFile(document, 'bad.json');
    const result = await runSync(options({ spec }));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
    await expect(readFile(join(folder.pinnedDir, 'openapi.json'))).rejects.toThrow(/ENOENT/);
  });

  it('a --build that is not a number or a short label: one line, exit 2, nothing written', async () => {
    const result = await runSync(options({ spec: await documentFile(DOCUMENT), build: '212 100' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('catalog:sync: --build 212 100: a build is a number or a short label\n');
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
  });

  it('a --build label of letters, digits and . _ : - is taken as it is', async () => {
    const spec = await documentFile(DOCUMENT);
    const result = await runSync(options({ spec, check: true, json: true, build: 'v10.2_rc:1-B' }));
    expect((JSON.parse(result.stdout) as { build: string }).build).toBe('v10.2_rc:1-B');
  });

  it('a pinned document whose source.json names no build: one line, exit 2', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    await writeFile(join(folder.pinnedDir, 'source.json'), '{"build": 300}\n');
    const result = await runSync(options({}));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`catalog:sync: ${join(folder.pinnedDir, 'source.json')} names no build\n`);
  });

  it('a write leaves no file of its own behind: no temporary file, no copy of the catalog it loaded', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const result = await runSync(options({ spec: await documentFile(DOCUMENT, 'new.json'), build: '212100' }));
    expect(result.stderr).toBe('');
    const left = [...(await readdir(join(folder.dir, 'catalog'))), ...(await readdir(folder.pinnedDir))];
    expect(left.filter((name) => name.startsWith('.'))).toEqual([]);
    expect(await readFile(folder.catalogFile, 'utf8')).not.toBe(FIXTURE_CATALOG);
  });

  it('a catalog that is invalid is refused before anything is planned, with every problem named', async () => {
    await writeFile(folder.catalogFile, FIXTURE_CATALOG.replace("name: 'guilds.get'", "name: 'guilds.delete'"));
    const result = await runSync(options({ spec: await documentFile(DOCUMENT) }));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('duplicate operation name');
  });
});

describe('catalog:sync: what a run writes, and what it leaves as it was', () => {
  it('a run on the pinned document writes nothing: not the catalog, not the pin, not the archive', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const source = await readFile(join(folder.pinnedDir, 'source.json'), 'utf8');
    // The first run writes the three operationIds the fixture catalog lacks (and pins nothing: the
    // document is the pinned one); the second has nothing to do.
    expect((await runSync(options({}))).code).toBe(0);
    expect(await readFile(join(folder.pinnedDir, 'source.json'), 'utf8')).toBe(source);
    const { ino } = await stat(folder.catalogFile);
    const result = await runSync(options({}));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    // Nothing changed, so nothing was built: no surface, no SDK, and the report ends the run's output.
    expect(result).not.toHaveProperty('surface');
    expect(result).not.toHaveProperty('sdk');
    expect(result.stdout.endsWith('The catalog follows the document.\n')).toBe(true);
    expect((await stat(folder.catalogFile)).ino).toBe(ino);
    expect(await readFile(join(folder.pinnedDir, 'source.json'), 'utf8')).toBe(source);
    expect(await readdir(folder.pinnedDir)).toEqual(['openapi.json', 'source.json']);
  });

  it('a first sync, with no document pinned yet, builds the SDK (no surface: nothing to compare) and hands it back', async () => {
    const result = await runSync(
      options({ spec: await documentFile(openApiDocument(FOLLOWED), 'first.json'), build: '1' }),
    );
    expect(result.code).toBe(0);
    expect(result.sdk?.files.get('index.ts')).toContain('export');
    expect(result).not.toHaveProperty('surface');
  });

  it('a write reports as a write; --check reports the surface too, and with --json the mode', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const spec = await documentFile(DOCUMENT, 'new.json');
    const check = await runSync(options({ spec, check: true }));
    expect(check.surface).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'lobbies.delete' })]));
    const write = await runSync(options({ spec, build: '212999' }));
    expect(write.stdout).toMatch(/catalog\/routes\.ts: \d+ edits\. Review drafted names/);
    expect(write.stdout.endsWith('\n')).toBe(true);
    expect(write.sdk?.files.has('index.ts')).toBe(true);
  });

  it('the release note goes in a folder made for it, however deep', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const changesetDir = join(folder.dir, 'deep', 'er', '.changeset');
    const result = await runSync(
      options({ spec: await documentFile(DOCUMENT, 'new.json'), build: '212999', changesetDir }),
    );
    expect(result.code).toBe(0);
    expect(await readdir(changesetDir)).toEqual(['catalog-sync-212999.md']);
  });

  it('--prune deletes what the document lost: the archive keeps no types for it', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const result = await runSync(
      options({ spec: await documentFile(DOCUMENT, 'new.json'), build: '212999', prune: true }),
    );
    expect(result.code).toBe(0);
    expect(await readFile(folder.catalogFile, 'utf8')).not.toContain("name: 'guilds.delete'");
    expect(await readdir(folder.pinnedDir)).toEqual(['openapi.json', 'source.json']);
  });

  it('a pinned document without its source.json: what it lost is archived under an unknown build', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    await rm(join(folder.pinnedDir, 'source.json'));
    const result = await runSync(options({ spec: await documentFile(DOCUMENT, 'new.json'), build: '212999' }));
    expect(result.code).toBe(0);
    const archive = JSON.parse(await readFile(join(folder.pinnedDir, 'removed.json'), 'utf8')) as unknown;
    expect(JSON.stringify(archive)).toContain('"unknown"');
  });

  it('a removal past the bound is refused when nothing allows it', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const gone = new Set(['GET /guilds/{guild_id}', 'DELETE /guilds/{guild_id}']);
    const fewer = Object.fromEntries(Object.entries(FOLLOWED).filter(([key]) => !gone.has(key)));
    const spec = await documentFile(openApiDocument(fewer), 'fewer.json');
    const refused = await runSync(options({ spec, build: '212999' }));
    expect(refused.code).not.toBe(0);
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
    const allowed = await runSync(options({ spec, build: '212999', allowRemovals: true }));
    expect(allowed.code).toBe(0);
  });
});

describe('catalog:sync from a URL', () => {
  let server: Server;
  let base: string;
  const hang = new Set<ServerResponse>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/openapi.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(DOCUMENT));
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/openapi.json' }).end();
      } else if (request.url === '/broken') {
        // Promises a body it never finishes: the connection ends mid-answer.
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        response.write('{"openapi": "3.1.0", ');
        setTimeout(() => response.destroy(), 20);
      } else if (request.url === '/slow') {
        hang.add(response); // answers nothing: the sync's timeout ends the wait
      } else {
        response.writeHead(404).end('no');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const response of hang) response.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('fetches the document and pins it with the URL it came from', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const result = await runSync(options({ spec: `${base}/openapi.json`, build: '212100' }));
    expect(result.code).toBe(0);
    expect(JSON.parse(await readFile(join(folder.pinnedDir, 'source.json'), 'utf8'))).toMatchObject({
      source: `${base}/openapi.json`,
      build: '212100',
    });
  });

  it('follows a redirect, and pins the URL it was given; a scheme in capitals is a URL all the same', async () => {
    await pinDocument(folder.pinnedDir, FOLLOWED);
    const given = `${base.replace('http:', 'HTTP:')}/moved`;
    const result = await runSync(options({ spec: given, build: '212100' }));
    expect(result.code).toBe(0);
    expect(JSON.parse(await readFile(join(folder.pinnedDir, 'source.json'), 'utf8'))).toMatchObject({
      source: given,
      build: '212100',
    });
  });

  it.each([
    ['breaks off its answer', '/broken', /the answer broke off: /],
    ['answers 404', '/missing', /answered 404/],
    ['answers nothing within the timeout', '/slow', /is unreachable: no answer within 300 ms/],
  ])('a URL that %s: one line, exit 2, nothing written', async (_, path, message) => {
    const result = await runSync(options({ spec: `${base}${path}`, timeoutMs: 300 }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(await readFile(folder.catalogFile, 'utf8')).toBe(FIXTURE_CATALOG);
  });

  it('an unreachable URL (nobody listens on the port): one line, exit 2', async () => {
    const [port] = await freePorts(1);
    const result = await runSync(options({ spec: `http://127.0.0.1:${port}/openapi.json` }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^catalog:sync: http:\/\/127\.0\.0\.1:\d+\/openapi\.json is unreachable: .*\n$/);
    expect(result.stderr).not.toContain('no answer within');
  });
});

describe('npm run catalog:sync (the command)', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        join(root, 'node_modules', '.bin', 'node'),
        [join(root, 'scripts', 'catalog-sync.ts'), ...args],
        { cwd: root },
        (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('--check: the repository follows its pinned document (build 212061)', async () => {
    const result = await run(['--check']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain("catalog:sync against build 212061 of Discord's OpenAPI document (231 operations)");
    expect(result.stdout).toContain('The catalog follows the document.');
    expect(result.code).toBe(0);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--timeout', 'soon'], /--timeout must be a positive number/],
    [['--check', '--prune'], /--check writes nothing, so --prune has nothing to do/],
  ])('%j: one line with the usage, exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: catalog:sync');
  });
});
