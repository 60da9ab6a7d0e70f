/**
 * What users download: `npm pack` (its prepack clears dist/, its prepare builds it), then the tarball itself.
 * - Its Markdown links only to files inside it, or to the repository by URL.
 * - Source maps ship with what they point at, or not at all (tsconfig.build.json: none).
 * - Installed offline into a new project (its dependencies from the npm cache, at the versions
 *   of this repository's package-lock.json), a strict TypeScript consumer compiles against its
 *   types and runs against `tollgate/testing`'s ReferenceService.
 * - A Worker bundled from it as wrangler bundles (the `workerd` condition) runs in workerd.
 * - Every entry loads on this Node.js; on an older one each fails at once with one line. The
 *   older Node.js is the machine's `/usr/bin/node` (20 here and in CI). Where there is none, or it
 *   is 22 or newer, the entries are still loaded on every Node.js found, so nothing is skipped;
 *   the refusal itself is then covered by test/package/runtime-check.test.ts alone. (No flag or
 *   variable fakes the version in the shipped code: the package behaves as it will for users.)
 * Everything happens in one temporary directory, removed at the end.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceService } from '../../src/testing/index.ts';
import { bundleWorker, COMPATIBILITY_DATE } from '../support/workers.ts';

const root = join(import.meta.dirname, '..', '..');

/** A Worker of the consumer's: one call, its limits in the token's Durable Object. */
const WORKER = `
import { createClient } from 'tollgate';
import { DurableObjectStore, TollgateLimits } from 'tollgate/cloudflare';
export { TollgateLimits };
export default {
  async fetch(request, env) {
    const client = createClient({
      token: 'Bot consumer',
      baseUrl: new URL(request.url).searchParams.get('service'),
      store: new DurableObjectStore(env.LIMITS),
    });
    let requests = 0;
    client.on('response', () => (requests += 1));
    const channel = await client.channels.get('81384788765712384');
    await client.close();
    return Response.json({ id: channel.id, requests });
  },
};
`;
/** The Node.js npm scripts run on (the pinned dev dependency). */
const node = join(root, 'node_modules', '.bin', 'node');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const OLD_NODE = '/usr/bin/node';
const REPOSITORY = 'tollgate-dev/tollgate';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws (the result says how it went). */
function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return new Promise<Result>((done) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      done({ code, stdout, stderr });
    });
  });
}

/**
 * npm as the npm scripts have it (node_modules/.bin first: Node 24 runs it), without the npm_*
 * variables of an `npm test` around this run, which would speak for the repository's project.
 */
const npmEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') && key !== 'INIT_CWD')),
  PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
};

function explain(what: string, result: Result): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

interface PackedFile {
  path: string;
  size: number;
}
interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFile[];
}
interface Manifest {
  name: string;
  repository?: { type: string; url: string };
  homepage?: string;
  bugs?: { url: string };
  dependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
}

let work: string;
let packed: Packed;
let tarball: string;
/** The tarball, unpacked: `${unpacked}/package.json`, `${unpacked}/dist/…`. */
let unpacked: string;
let files: Set<string>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tollgate-package-'));
  const result = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, env: npmEnv });
  expect(result.code, explain('npm pack', result)).toBe(0);
  // The JSON is the last thing on stdout (a script that printed would come first).
  const json = result.stdout.slice(result.stdout.search(/^\[/m));
  [packed] = JSON.parse(json) as [Packed];
  tarball = join(work, packed.filename);
  files = new Set(packed.files.map((file) => file.path));
  unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  const untar = await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], { cwd: work });
  expect(untar.code, explain('tar', untar)).toBe(0);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const packedText = (path: string) => readFileSync(join(unpacked, path), 'utf8');
const packedManifest = () => JSON.parse(packedText('package.json')) as Manifest;

/** The link targets of a Markdown text: inline links and images, reference definitions, HTML. */
function linkTargets(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1]!),
  ];
}

/** A file of this repository that an absolute link names (blob, tree, raw), or undefined. */
function repositoryPath(url: string): string | undefined {
  const match =
    new RegExp(`^https://github\\.com/${REPOSITORY}/(?:blob|tree|raw)/[^/]+/([^?#]+)`).exec(url) ??
    new RegExp(`^https://raw\\.githubusercontent\\.com/${REPOSITORY}/[^/]+/([^?#]+)`).exec(url);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

describe('the packed tarball', () => {
  it('names the repository, its home page and where bugs go', () => {
    const manifest = packedManifest();
    expect(manifest.repository).toEqual({ type: 'git', url: `git+https://github.com/${REPOSITORY}.git` });
    expect(manifest.homepage).toBe(`https://github.com/${REPOSITORY}#readme`);
    expect(manifest.bugs).toEqual({ url: `https://github.com/${REPOSITORY}/issues` });
  });

  it('holds every file its exports and bin name', () => {
    const manifest = packedManifest();
    const targets = [
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin ?? {}),
    ];
    for (const target of targets) expect(files, `${target} is not in the tarball`).toContain(posix.normalize(target));
  });

  it('links, from every Markdown file in it, only to files in it or to the repository by URL', () => {
    const documents = [...files].filter((path) => path.endsWith('.md'));
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'generated/README.md', 'docs/design.md']));
    const problems: string[] = [];
    for (const document of documents) {
      for (const target of linkTargets(packedText(document))) {
        const inRepository = repositoryPath(target);
        if (inRepository !== undefined) {
          if (!existsSync(join(root, inRepository)))
            problems.push(`${document} → ${target}: no ${inRepository} in the repository`);
          continue;
        }
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // another site
        const path = decodeURI(target.split(/[?#]/)[0]!);
        if (path === '') continue; // an anchor in the same document
        const resolved = posix.normalize(posix.join(posix.dirname(document), path)).replace(/\/$/, '');
        if (resolved.startsWith('..') || posix.isAbsolute(resolved))
          problems.push(`${document} → ${target}: outside the package`);
        else if (!files.has(resolved) && ![...files].some((file) => file.startsWith(`${resolved}/`)))
          problems.push(`${document} → ${target}: not in the tarball (ship it, or link to the repository)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has source maps only with the files they point at (tsconfig.build.json: none)', () => {
    const problems: string[] = [];
    for (const path of files) {
      if (path.endsWith('.map')) {
        const map = JSON.parse(packedText(path)) as { sources?: string[]; sourceRoot?: string };
        for (const source of map.sources ?? []) {
          const target = posix.normalize(posix.join(posix.dirname(path), map.sourceRoot ?? '', source));
          if (!files.has(target)) problems.push(`${path} → ${source}: not in the tarball`);
        }
      } else if (/\.(?:[cm]?js|d\.[cm]?ts)$/.test(path)) {
        const url = /^\/\/[#@] sourceMappingURL=(\S+)\s*$/m.exec(packedText(path))?.[1];
        if (url === undefined || url.startsWith('data:')) continue;
        const target = posix.normalize(posix.join(posix.dirname(path), decodeURI(url)));
        if (!files.has(target)) problems.push(`${path} → ${url}: not in the tarball`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('holds no build output of a source that is gone (dist/ left from an earlier build)', () => {
    const stale = [...files]
      .filter((path) => path.startsWith('dist/'))
      .filter((path) => {
        const source = path.replace(/^dist\//, '').replace(/(?:\.d)?\.[cm]?[jt]s(?:\.map)?$/, '.ts');
        return !existsSync(join(root, source));
      });
    expect(stale, 'remove dist/ and pack again').toEqual([]);
  });
});

/**
 * A lockfile for the new project: tollgate's dependencies and `extra`, with all they need, as
 * this repository's package-lock.json has them (so `npm install --offline` finds them in the npm
 * cache that `npm ci` filled; this npm reads full package documents from the registry for a
 * name it must resolve, and `npm ci` caches only the short ones).
 */
/** What the repository's lockfile says of its own project's needs, not of the new project's. */
const LOCK_FLAGS = new Set(['dev', 'optional', 'devOptional', 'peer']);

function seedLockfile(dependencies: readonly string[], extra: readonly string[]) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; dependencies?: Record<string, string> }>;
  };
  const packages: Record<string, object> = {};
  const pending = [...dependencies, ...extra].map((name) => ({ name, from: '' }));
  for (let next = pending.shift(); next; next = pending.shift()) {
    // Node's lookup: the closest node_modules up from the package that asks.
    let from = next.from;
    let location = `${from}${from ? '/' : ''}node_modules/${next.name}`;
    while (!lock.packages[location] && from) {
      from = from.replace(/\/?node_modules\/(?:@[^/]+\/)?[^/]+$/, '');
      location = `${from}${from ? '/' : ''}node_modules/${next.name}`;
    }
    const entry = lock.packages[location];
    if (!entry) throw new Error(`package-lock.json has no ${next.name} (wanted by ${next.from || 'the project'})`);
    if (packages[location]) continue;
    packages[location] = Object.fromEntries(Object.entries(entry).filter(([key]) => !LOCK_FLAGS.has(key)));
    for (const name of Object.keys(entry.dependencies ?? {})) pending.push({ name, from: location });
  }
  const pinned = Object.fromEntries(extra.map((name) => [name, lock.packages[`node_modules/${name}`]!.version]));
  return { pinned, packages };
}

/** What the new project installs besides tollgate: the optional peers and Node's types. */
const EXTRA = ['@types/node', 'ioredis', 'undici'];

/** The consumer: strict TypeScript, NodeNext, the installed package's own types. */
const CONSUMER = `
import { createClient, HttpError } from 'tollgate';
import { RedisStore, type RedisStoreOptions } from 'tollgate/redis';
import { ReferenceService } from 'tollgate/testing';
import { undiciFetch } from 'tollgate/undici';

const service = await new ReferenceService({ api: 'v10', validTokens: ['Bot test'] }).start();
const transport = undiciFetch();
const client = createClient({ baseUrl: service.baseUrl, token: 'Bot test', fetch: transport });
try {
  const message = await client.channels.messages.create('81384788765712384', { content: 'hello' });
  const id: string = message.id;
  const content: string = message.content;
  // @ts-expect-error: the body is typed, a misspelt field does not compile
  void (() => client.channels.messages.create('81384788765712384', { contnet: 'x' }));
  // @ts-expect-error: so is the result
  void ((): number => message.channel_id);
  const store: RedisStoreOptions = { prefix: 'consumer', onUnavailable: 'local' };
  const statusOf = (error: unknown): number | undefined => (error instanceof HttpError ? error.status : undefined);
  console.log(JSON.stringify({
    id,
    content,
    requests: service.requests.length,
    redisStore: typeof RedisStore,
    store: store.prefix,
    statusOf: statusOf(new Error('x')) ?? 'none',
  }));
} finally {
  await client.close();
  await transport.close();
  await service.stop();
}
`;

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2023',
    types: ['node'],
    skipLibCheck: false,
    noUncheckedIndexedAccess: true,
    rootDir: 'src',
    outDir: 'out',
  },
  include: ['src'],
};

/** The Node.js binaries to load the entries on: this one, and the machine's if it differs. */
const nodes = [node, ...(existsSync(OLD_NODE) ? [OLD_NODE] : [])].map((binary) => ({
  binary,
  version: execFileSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim(),
}));
const nodeNames = nodes.map(({ binary, version }) => `${version} (${binary.replace(`${root}/`, '')})`).join(', ');

describe('installed from the tarball, offline, into a new project', () => {
  let app: string;

  beforeAll(async () => {
    app = join(work, 'consumer');
    mkdirSync(join(app, 'src'), { recursive: true });
    const { pinned, packages } = seedLockfile(Object.keys(packedManifest().dependencies ?? {}), EXTRA);
    const project = { name: 'consumer', private: true, type: 'module', dependencies: pinned };
    writeFileSync(join(app, 'package.json'), JSON.stringify(project, null, 2));
    writeFileSync(
      join(app, 'package-lock.json'),
      JSON.stringify(
        { name: 'consumer', lockfileVersion: 3, requires: true, packages: { '': project, ...packages } },
        null,
        2,
      ),
    );
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: app,
      env: npmEnv,
    });
    expect(install.code, explain('npm install --offline', install)).toBe(0);
    expect(existsSync(join(app, 'node_modules', 'tollgate', 'package.json'))).toBe(true);
  }, 120_000);

  it('a strict TypeScript consumer compiles against its types and runs against ReferenceService', async () => {
    writeFileSync(join(app, 'src', 'main.ts'), CONSUMER);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
    const compiled = await run(node, [tsc, '-p', app], { cwd: app });
    expect(compiled.code, explain('tsc', compiled)).toBe(0);
    const ran = await run(node, [join(app, 'out', 'main.js')], { cwd: app });
    expect(ran.code, explain('the consumer', ran)).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      id: expect.stringMatching(/^\d+$/),
      content: 'hello',
      requests: 1,
      redisStore: 'function',
      store: 'consumer',
      statusOf: 'none',
    });
  }, 120_000);

  it("a Worker bundled from the installed package runs in workerd: tollgate, and tollgate/cloudflare by its 'workerd' condition", async () => {
    writeFileSync(join(app, 'worker.js'), WORKER);
    const { code } = await bundleWorker(join(app, 'worker.js'), { installed: true });
    const service = await new ReferenceService().start();
    const miniflare = new Miniflare({
      modules: true,
      script: code,
      compatibilityDate: COMPATIBILITY_DATE,
      durableObjects: { LIMITS: 'TollgateLimits' },
    });
    try {
      const response = await miniflare.dispatchFetch(`http://worker/?service=${encodeURIComponent(service.baseUrl)}`);
      expect(await response.text()).toBe('{"id":"81384788765712384","requests":1}');
    } finally {
      await miniflare.dispose();
      await service.stop();
    }
  }, 60_000);

  /** `tollgate`, `tollgate/redis`…, and each bin (run with --help). */
  const entries = () => {
    const manifest = packedManifest();
    return [
      ...Object.keys(manifest.exports)
        .filter((key) => key !== './package.json')
        .map((key) => ({
          name: posix.join(manifest.name, key),
          args: ['--input-type=module', '-e', `await import(${JSON.stringify(posix.join(manifest.name, key))})`],
        })),
      ...Object.keys(manifest.bin ?? {}).map((bin) => ({
        name: `the ${bin} bin`,
        args: [join(app, 'node_modules', '.bin', bin), '--help'],
      })),
    ];
  };

  it(`every entry loads on Node.js 22+ and fails at once with one line on an older one: ${nodeNames}`, async () => {
    const list = entries();
    expect(list.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'tollgate',
        'tollgate/redis',
        'tollgate/undici',
        'tollgate/testing',
        'tollgate/cloudflare',
      ]),
    );
    for (const { binary, version } of nodes) {
      const major = Number.parseInt(version, 10);
      for (const entry of list) {
        const result = await run(binary, entry.args, { cwd: app });
        const what = `${entry.name} on Node.js ${version}`;
        if (major >= 22 && entry.name === 'tollgate/cloudflare') {
          // Its Durable Object needs workerd's own modules: elsewhere, one line says so.
          const errors = result.stderr.split('\n').filter((line) => /^[A-Za-z]*Error\b/.test(line));
          expect(errors, explain(what, result)).toEqual([
            "Error: tollgate/cloudflare runs in workerd (Cloudflare Workers) only, bundled with the 'workerd' condition as wrangler does; elsewhere use MemoryStore or tollgate/redis",
          ]);
        } else if (major >= 22) {
          expect(result.code, explain(what, result)).toBe(0);
          expect(result.stderr, what).toBe('');
        } else {
          expect(result.code, explain(what, result)).not.toBe(0);
          // The error's own line, and no other error (a missing API, a module that failed to link).
          const errors = result.stderr.split('\n').filter((line) => /^[A-Za-z]*Error\b/.test(line));
          expect(errors, explain(what, result)).toEqual([
            `Error: tollgate needs Node.js 22 or newer (this is Node.js ${version})`,
          ]);
          expect(result.stdout, what).toBe('');
        }
      }
    }
  }, 60_000);
});
