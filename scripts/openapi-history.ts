/**
 * `node scripts/openapi-history.ts --repo <git dir> --since 2024-01-01 --out test/fixtures/openapi-history [--to <commit>]`
 *
 * Writes the fixtures of the replay test: Discord's published history of `specs/openapi.json`
 * (discord/discord-api-spec), read from a clone or mirror of that repository with `git`. Every
 * commit that changes the file is one published build ("Automated spec update (212061)": build
 * 212061; a commit without a number is labelled by its short hash). The range is every build
 * committed on or after --since (a UTC date) up to --to (default HEAD).
 *
 * The whole range is some 200 MB of JSON, and most builds change only descriptions and schemas.
 * So only the builds whose operations differ from the previous kept build are kept: the
 * projection compared is, for every operation, method, path, operationId, parameters (name, in,
 * required, schema; the path item's merged in), request body (its `required`, its content types),
 * security and response status codes; and the document's info.version. The first and last builds
 * of the range and the one catalog/discord-openapi/source.json pins are always kept. --out gets:
 *
 * - openapi-history.ndjson.br: the kept builds, oldest first, one JSON line each,
 *   `{"build","commit","date","document"}`, the whole compressed as one brotli stream so that
 *   each document compresses against the ones before it (quality 10, 16 MiB window: about 57 KB
 *   for 62 builds of 28 MB; quality 11 comes out larger on this input, a window under 4 MiB much
 *   larger). Numbers are kept as written (2^63 - 1 too), so `JSON.stringify(document, null, 2)`
 *   is the build's file, byte for byte; that is checked for each line before anything is written.
 * - manifest.json: every build of the range, kept or not, with its blob id and why.
 * - LICENSE: the repository's license (MIT, Discord), which goes with every copy.
 *
 * Same repository, same arguments: same bytes. Read by test/support/openapi-history.ts.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import type { ManifestBuild } from './sync/history.ts';
import { runMain } from './run-main.ts';

const SPEC = 'specs/openapi.json';
const FIXTURE = 'openapi-history.ndjson.br';
const PINNED = new URL('../catalog/discord-openapi/source.json', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const USAGE = 'usage: openapi-history --repo <git dir> --since <YYYY-MM-DD> --out <dir> [--to <commit>]';

/** JSON.rawJSON and JSON.isRawJSON (JSON.parse source text access: Node 22+), not yet in TypeScript's lib. */
const Raw = JSON as unknown as { rawJSON(text: string): unknown; isRawJSON(value: unknown): boolean };
type Reviver = (key: string, value: unknown, context: { source: string }) => unknown;
const exactNumbers: Reviver = (_key, value, context) =>
  typeof value === 'number' ? Raw.rawJSON(context.source) : value;
/** Parses JSON keeping every number as its source text, so that stringifying it again changes no digit. */
const parseExact = (text: string): unknown => JSON.parse(text, exactNumbers as never);

type JsonObject = Record<string, unknown>;
const object = (value: unknown): JsonObject =>
  typeof value === 'object' && value !== null ? (value as JsonObject) : {};
const list = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.map(object) : []);

/** What builds are compared on: info.version, and `METHOD path` → that operation's projection, as text. */
interface Projection {
  readonly version: string;
  readonly operations: ReadonlyMap<string, string>;
}

const git = async (repo: string, args: readonly string[]): Promise<Buffer> =>
  (await promisify(execFile)('git', ['-C', repo, ...args], { encoding: 'buffer', maxBuffer: 1 << 30 })).stdout;

/** JSON with every object's keys sorted: equal values, equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    typeof member === 'object' && member !== null && !Array.isArray(member) && !Raw.isRawJSON(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}

function project(document: JsonObject): Projection {
  const operations = new Map<string, string>();
  for (const [path, item] of Object.entries(object(document.paths))) {
    const shared = list(object(item).parameters);
    for (const method of METHODS) {
      if (object(item)[method] === undefined) continue;
      const operation = object(object(item)[method]);
      // The path item's parameters, then the operation's, which replace those of the same name and place.
      const parameters = new Map<string, JsonObject>();
      for (const { $ref, name, in: where, required = false, schema } of [...shared, ...list(operation.parameters)]) {
        parameters.set(String($ref ?? `${where} ${name}`), { $ref, name, in: where, required, schema });
      }
      const body = operation.requestBody === undefined ? null : object(operation.requestBody);
      operations.set(
        `${method.toUpperCase()} ${path}`,
        canonical({
          operationId: operation.operationId,
          parameters: [...parameters.values()],
          requestBody: body && { required: body.required ?? false, content: Object.keys(object(body.content)).sort() },
          security: operation.security ?? document.security ?? null,
          responses: Object.keys(object(operation.responses)).sort(),
        }),
      );
    }
  }
  return { version: canonical(object(document.info).version), operations };
}

/** How `next` differs from `previous`, in words, or '' when it does not. */
function difference(previous: Projection, next: Projection): string {
  const count = (keys: Iterable<string>, test: (key: string) => boolean) => [...keys].filter(test).length;
  const before = previous.operations;
  const after = next.operations;
  const added = count(after.keys(), (key) => !before.has(key));
  const removed = count(before.keys(), (key) => !after.has(key));
  const changed = count(after.keys(), (key) => before.has(key) && before.get(key) !== after.get(key));
  const operations = [added && `${added} added`, removed && `${removed} removed`, changed && `${changed} changed`];
  const words = [
    previous.version === next.version ? '' : `info.version ${previous.version} -> ${next.version}`,
    operations.some(Boolean) ? `operations ${operations.filter(Boolean).join(', ')}` : '',
  ];
  return words.filter(Boolean).join('; ');
}

async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { repo: { type: 'string' }, since: { type: 'string' }, out: { type: 'string' }, to: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`openapi-history: ${(error as Error).message}; ${USAGE}`);
    return 2;
  }
  const { repo, since, out, to = 'HEAD' } = values;
  if (!repo || !out || !since || !/^\d{4}-\d{2}-\d{2}$/.test(since)) {
    console.error(`openapi-history: --repo, --out and --since (a date) are needed; ${USAGE}`);
    return 2;
  }
  const last = (await git(repo, ['rev-parse', '--verify', `${to}^{commit}`])).toString().trim();
  const pinned = (JSON.parse(await readFile(PINNED, 'utf8')) as { commit?: string }).commit;
  const log = (await git(repo, ['log', '--reverse', '--format=%H%x09%cI%x09%s', last, '--', SPEC])).toString();

  const range = log
    .split('\n')
    .filter(Boolean)
    .map((entry) => {
      const [commit = '', committed = '', subject = ''] = entry.split('\t');
      const build = /\((\d+)\)$/.exec(subject)?.[1] ?? commit.slice(0, 7);
      return { build, commit, date: new Date(committed).toISOString().slice(0, 10) };
    })
    .filter(({ date }) => date >= since);
  const read = (index: number) =>
    index < range.length ? git(repo, ['cat-file', 'blob', `${range[index]!.commit}:${SPEC}`]) : undefined;

  const builds: ManifestBuild[] = [];
  const lines: string[] = [];
  let kept: { build: string; projection: Projection } | undefined;
  let next = read(0);
  for (const [index, { build, commit, date }] of range.entries()) {
    const bytes = (await next)!;
    next = read(index + 1); // git reads the next build while this one is parsed
    const blob = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    const document = parseExact(bytes.toString('utf8')) as JsonObject;
    const projection = project(document);
    const why = [
      kept ? difference(kept.projection, projection) : `first build since ${since}`,
      commit === pinned ? 'pinned by catalog/discord-openapi/source.json' : '',
      commit === last ? 'last build of the range' : '',
    ].filter(Boolean);
    const selected = why.length > 0;
    builds.push({
      build,
      commit,
      date,
      blob,
      selected,
      why: selected ? why.join('; ') : `operations as in ${kept!.build}`,
    });
    if (!selected) continue;
    const line = JSON.stringify({ build, commit, date, document });
    const restored = JSON.stringify((parseExact(line) as { document: unknown }).document, null, 2);
    if (!Buffer.from(restored).equals(bytes))
      throw new Error(`build ${build}: the file is not JSON.stringify(document, null, 2)`);
    lines.push(`${line}\n`);
    kept = { build, projection };
  }
  if (builds.length === 0) {
    console.error(`openapi-history: no build of ${SPEC} since ${since} up to ${last}`);
    return 1;
  }

  const ndjson = Buffer.from(lines.join(''));
  const compressed = await promisify(brotliCompress)(ndjson, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 10,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: ndjson.length,
    },
  });
  // One line a build: the manifest reads, and diffs, as a table.
  const about = { repository: 'discord/discord-api-spec', path: SPEC, since, to: last, fixture: FIXTURE };
  const rows = builds.map((row) => `    ${JSON.stringify(row)}`).join(',\n');
  const manifest = `${JSON.stringify(about, null, 2).slice(0, -2)},\n  "builds": [\n${rows}\n  ]\n}\n`;
  await mkdir(out, { recursive: true });
  await writeFile(join(out, FIXTURE), compressed);
  await writeFile(join(out, 'manifest.json'), manifest);
  await writeFile(join(out, 'LICENSE'), await git(repo, ['cat-file', 'blob', `${last}:LICENSE`]));
  console.log(
    `${out}: ${builds.length} builds since ${since}, ${lines.length} kept; ${FIXTURE} ${compressed.length} bytes (${ndjson.length} bytes of NDJSON)`,
  );
  return 0;
}

runMain(main);
