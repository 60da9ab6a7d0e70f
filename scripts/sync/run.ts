/**
 * `catalog:sync` as a function: read a document of the service (a file or a URL), diff against
 * the catalog, report, and (unless checking) write the catalog and pin the document. Everything
 * is checked before anything is written, and each file is written whole or not at all (a
 * temporary file renamed over it), so bad input leaves the catalog as it was.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { CatalogError, parseCatalog, type Catalog } from '../../catalog/schema.ts';
import { applyEdits, CatalogSourceError } from './edits.ts';
import { asOpenApiDocument, readSpec, SpecInputError, type OpenApiDocument } from './openapi.ts';
import { ARCHIVE_FILE, archiveOperations, archiveText, type Archive } from '../codegen/archive.ts';
import { readArchive } from '../codegen/run.ts';
import { isBehind, diffCatalog, type CatalogDiff } from './diff.ts';
import { changesetText, reportJson, reportText, semverOf } from './report.ts';
import type { RenderedSdk } from './compile.ts';
import type { CallCheck } from './calls.ts';
import { buildGate, type SurfaceChange } from './gate.ts';

export interface SyncRunOptions {
  /** catalog/routes.ts (its folder holds the catalog's other modules). */
  readonly catalogFile: string;
  /** The pinned document's folder: `openapi.json`, `source.json`, `LICENSE`. */
  readonly pinnedDir: string;
  /** A file path or an http(s) URL; default: the pinned document. */
  readonly spec?: string;
  /** The document's build number; default: the pinned `source.json`'s for the pinned document. */
  readonly build?: string;
  readonly check: boolean;
  readonly prune: boolean;
  /** Take a document that removes more than a few operations at once (`--allow-removals`). */
  readonly allowRemovals?: boolean;
  readonly json: boolean;
  /** How long a URL may take to answer (ms). */
  readonly timeoutMs: number;
  /** Today's date for `source.json` (YYYY-MM-DD). */
  readonly today: string;
  /** Fetch for URLs (tests pass their own). */
  readonly fetch?: typeof fetch;
  /** The repository whose `src/` the new SDK is built against (default: this one). */
  readonly root?: string;
  /** Where the sync drafts its release note, a changeset of `root`'s package (`.changeset/`); default: none. */
  readonly changesetDir?: string;
  /**
   * The SDK generated from the catalog as it is (`generated/`), to compare the new one with;
   * default: rendered from the catalog and the pinned document.
   */
  readonly generatedDir?: string;
  /**
   * The SDK the catalog and its pinned document generate as they are, rendered already (the
   * replay's step before): compared with as it is, instead of rendered again.
   */
  readonly beforeSdk?: RenderedSdk;
  /** Also check, in the gate's program, that every call of the SDK before still compiles (the replay). */
  readonly checkCalls?: boolean;
}

export interface SyncRunResult {
  /**
   * 0 done (or nothing behind); 1 the catalog is behind (`--check`), invalid, or has conflicts a
   * person must settle; 2 bad input, or a catalog whose SDK would not build.
   */
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
  readonly diff?: CatalogDiff;
  /** What the new catalog does to the public methods, read off the compiler (when it has edits). */
  readonly surface?: readonly SurfaceChange[];
  /** The SDK the new catalog and document generate, as the compiler checked it (when it did). */
  readonly sdk?: RenderedSdk;
  /** The calls' check (`checkCalls`), when the gate ran it. */
  readonly calls?: CallCheck;
}

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/** Where the pinned document came from; `build` names it in `removedIn`. */
export interface PinnedSource {
  readonly build: string;
  readonly [key: string]: unknown;
}

const PINNED_SPEC = 'openapi.json';
const PINNED_SOURCE = 'source.json';

/** What the sync read: the document (and where it came from), the catalog, and the diff between them. */
interface SyncInput {
  readonly given: string;
  readonly pinnedSpec: string;
  /** The document given is the pinned one. */
  readonly pinned: boolean;
  readonly text: string;
  readonly document: unknown;
  readonly build: string;
  readonly source: string;
  readonly catalog: Catalog;
  readonly diff: CatalogDiff;
}

export async function runSync(options: SyncRunOptions): Promise<SyncRunResult> {
  const input = await readInput(options);
  if ('code' in input) return input;
  const { diff, source, document, pinned, pinnedSpec } = input;
  const mode = options.check ? 'check' : 'write';
  const archive = await readArchive(options.pinnedDir);
  // The document the catalog follows now: the pinned one (none yet before a first sync).
  const pinnedDocument = pinned ? asOpenApiDocument(document) : await readPinned(pinnedSpec);
  const pinnedBuild = pinned
    ? input.build
    : ((await readSource(options.pinnedDir).catch(() => undefined))?.build ?? 'unknown');
  const updatedArchive = nextArchive(archive, diff, pinnedDocument, pinnedBuild);
  // The catalog as the sync would write it, valid, and the SDK it generates, built: in both modes,
  // so that `--check` says what a write would meet. The SDK changes with the catalog, and with
  // the document alone: its schemas type the methods.
  const documentChanged = pinnedDocument === undefined || (!pinned && !isDeepStrictEqual(document, pinnedDocument));
  let updated = source;
  let surface: readonly SurfaceChange[] | undefined;
  let sdk: RenderedSdk | undefined;
  let calls: CallCheck | undefined;
  if (diff.edits.length > 0 || documentChanged) {
    const gated = await gateChanges(options, input, { archive, updatedArchive, pinnedDocument });
    if ('code' in gated) return gated;
    ({ updated, surface, sdk, calls } = gated);
  }
  const stdout = options.json ? reportJson(diff, mode, surface) : reportText(diff, mode, surface);
  if (options.check) return { code: isBehind(diff) ? 1 : 0, stdout, stderr: '', diff, ...(surface && { surface }) };
  if (updated !== source) await writeAtomically(options.catalogFile, updated);
  if (archiveText(updatedArchive) !== archiveText(archive)) {
    await writeAtomically(join(options.pinnedDir, ARCHIVE_FILE), archiveText(updatedArchive));
  }
  const note = await draftReleaseNote(options, input, surface);
  if (!pinned) await pin(options, input);
  return {
    code: diff.conflicts.length > 0 ? 1 : 0,
    stdout: options.json ? stdout : `${stdout}${note}`,
    stderr: '',
    diff,
    ...(surface && { surface }),
    ...(sdk && { sdk }),
    ...(calls && { calls }),
  };
}

/** The document, the catalog and the diff; or the result of a run that stops there (bad input, a bad catalog). */
async function readInput(options: SyncRunOptions): Promise<SyncInput | SyncRunResult> {
  const pinnedSpec = join(options.pinnedDir, PINNED_SPEC);
  const given = options.spec ?? pinnedSpec;
  const isUrl = /^https?:\/\//i.test(given);
  const pinned = !isUrl && resolve(given) === resolve(pinnedSpec);
  try {
    const text = isUrl ? await download(given, options.timeoutMs, options.fetch ?? fetch) : await readLocal(given);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new SpecInputError(`${given} is not JSON`);
    }
    const spec = readSpec(document);
    if (options.build !== undefined && !/^[0-9A-Za-z._:-]+$/.test(options.build)) {
      throw new SpecInputError(`--build ${options.build}: a build is a number or a short label`);
    }
    const build = options.build ?? (pinned ? (await readSource(options.pinnedDir)).build : contentLabel(text));
    const source = await readFile(options.catalogFile, 'utf8');
    const catalog = await loadCatalog(options.catalogFile, source);
    const diff = diffCatalog(catalog, spec, {
      build,
      prune: options.prune,
      allowRemovals: options.allowRemovals ?? false,
    });
    return { given, pinnedSpec, pinned, text, document, build, source, catalog, diff };
  } catch (error) {
    if (error instanceof SpecInputError) return { code: 2, stdout: '', stderr: `catalog:sync: ${error.message}\n` };
    if (error instanceof CatalogError) return { code: 1, stdout: '', stderr: `catalog:sync: ${error.message}\n` };
    throw error;
  }
}

/**
 * The catalog with the diff's edits, checked, and the SDKs before and after handed to the
 * compiler (`buildGate`): what the public methods gain and lose, or the result of a run that
 * writes nothing (the edited catalog is not valid, or its SDK does not build).
 */
async function gateChanges(
  options: SyncRunOptions,
  { diff, catalog, source, document }: SyncInput,
  documents: { archive: Archive; updatedArchive: Archive; pinnedDocument: OpenApiDocument | undefined },
): Promise<
  | (Pick<SyncRunResult, 'sdk' | 'calls'> & { updated: string; surface: readonly SurfaceChange[] | undefined })
  | SyncRunResult
> {
  let updated = source;
  let after = catalog;
  try {
    if (diff.edits.length > 0) {
      updated = applyEdits(source, diff.edits);
      after = await loadCatalog(options.catalogFile, updated);
    }
  } catch (error) {
    if (error instanceof CatalogSourceError || error instanceof CatalogError) {
      return failed(1, diff, options.json, `nothing written: ${error.message}`);
    }
    throw error;
  }
  const { archive, updatedArchive, pinnedDocument } = documents;
  const gate = await buildGate({
    root: options.root ?? REPOSITORY,
    before: pinnedDocument && {
      catalog,
      document: pinnedDocument,
      archive,
      ...(options.beforeSdk
        ? { files: options.beforeSdk.files }
        : options.generatedDir && { files: await readGenerated(options.generatedDir) }),
    },
    after: { catalog: after, document, archive: updatedArchive },
    ...(options.checkCalls && { checkCalls: true }),
  });
  if (gate.problems.length > 0) {
    const problems = gate.problems.map((problem) => `  ${problem}`).join('\n');
    return failed(
      2,
      diff,
      options.json,
      `nothing written: the SDK this catalog and document would generate does not build:\n${problems}`,
    );
  }
  return {
    updated,
    surface: gate.surface,
    ...(gate.sdk && { sdk: gate.sdk }),
    ...(gate.calls && { calls: gate.calls }),
  };
}

/**
 * The release note, when the gate ran (`surface`: the SDK or the document it is typed from
 * changed, a release's worth, a patch at least): a changeset. What the run says of it ('' for none).
 */
async function draftReleaseNote(
  options: SyncRunOptions,
  { diff, build }: SyncInput,
  surface: readonly SurfaceChange[] | undefined,
): Promise<string> {
  if (!options.changesetDir || !surface) return '';
  const file = join(options.changesetDir, `catalog-sync-${build}.md`);
  await mkdir(options.changesetDir, { recursive: true });
  await writeAtomically(file, changesetText(await packageNameOf(options.root ?? REPOSITORY), diff, surface));
  return `Release note drafted: ${file} (semver: ${semverOf(surface)}).\n`;
}

/** The document given becomes the pinned one, with where it came from. */
async function pin(options: SyncRunOptions, { pinnedSpec, text, given, build }: SyncInput): Promise<void> {
  await writeAtomically(pinnedSpec, text);
  const source: PinnedSource = { source: given, build, date: options.today };
  await writeAtomically(join(options.pinnedDir, PINNED_SOURCE), `${JSON.stringify(source, null, 2)}\n`);
}

/** The name the release note bumps: the package's own (package.json `name`). */
async function packageNameOf(root: string): Promise<string> {
  const { name } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name?: unknown };
  if (typeof name !== 'string' || name === '')
    throw new Error(`catalog:sync: ${join(root, 'package.json')} names no package`);
  return name;
}

/** A run that stops before writing: the diff as a report of what was found, and why nothing was written. */
function failed(code: 1 | 2, diff: CatalogDiff, json: boolean, why: string): SyncRunResult {
  const stdout = json ? reportJson(diff, 'failed') : reportText(diff, 'failed');
  return { code, stdout, stderr: `catalog:sync: ${why}\n`, diff };
}

/** The TypeScript files of a `generated/` folder, by name. */
async function readGenerated(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.ts')).sort();
  return new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)),
  );
}

/** The pinned document, or undefined before the first sync pins one. */
async function readPinned(file: string): Promise<OpenApiDocument | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : asOpenApiDocument(JSON.parse(text));
}

/**
 * The archive after this sync: operations it marks removed are kept as the pinned document has
 * them (their types stay), operations the document has again leave it.
 */
function nextArchive(
  archive: Archive,
  diff: CatalogDiff,
  pinnedDocument: OpenApiDocument | undefined,
  pinnedBuild: string,
): Archive {
  const leaving = new Set(diff.restored.map((restored) => restored.operationId));
  const removed = new Set(diff.removed.filter((r) => r.action === 'deprecated').map((r) => r.operationId));
  const kept = Object.fromEntries(Object.entries(archive).filter(([operationId]) => !leaving.has(operationId)));
  if (pinnedDocument === undefined || removed.size === 0) return kept;
  return { ...kept, ...archiveOperations(pinnedDocument, removed, pinnedBuild) };
}

async function readLocal(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new SpecInputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function download(url: string, timeoutMs: number, fetcher: typeof fetch): Promise<string> {
  let response: Response;
  try {
    response = await fetcher(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    const why =
      error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String(error);
    throw new SpecInputError(`${url} is unreachable: ${why}`);
  }
  if (!response.ok) throw new SpecInputError(`${url} answered ${response.status} ${response.statusText}`);
  try {
    return await response.text();
  } catch (error) {
    throw new SpecInputError(`${url}: the answer broke off: ${String(error)}`);
  }
}

async function readSource(pinnedDir: string): Promise<PinnedSource> {
  const file = join(pinnedDir, PINNED_SOURCE);
  const source = JSON.parse(await readFile(file, 'utf8')) as Partial<PinnedSource>;
  if (typeof source.build !== 'string') throw new SpecInputError(`${file} names no build`);
  return source as PinnedSource;
}

/** A document without a build number is named by its content: the same bytes, the same label. */
const contentLabel = (text: string) => `sha256-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;

let loads = 0;

/**
 * The catalog module of `text`, validated. It is loaded from a file of its own beside `file` (so
 * its imports resolve), under a new name each time: a module once imported is never read again.
 */
export async function loadCatalog(file: string, text: string): Promise<Catalog> {
  const copy = join(dirname(file), `.${basename(file, '.ts')}.sync-${process.pid}-${++loads}.ts`);
  await writeFile(copy, text);
  try {
    const module = (await import(pathToFileURL(copy).href)) as { catalog?: unknown };
    return parseCatalog(module.catalog);
  } finally {
    await rm(copy, { force: true });
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  await writeFile(temporary, text);
  await rename(temporary, file);
}
