/**
 * Replays Discord's published builds through `catalog:sync`, one after another, on a copy of the
 * catalog, the way a maintainer would have met them. Every step must write a catalog whose SDK
 * compiles, and every call that compiled against the step before must still compile, except on a
 * method the sync's report names as breaking.
 *
 * That last check is the replay's own, not the sync's: where the sync's gate compares argument
 * lists with the checker's assignability, the replay writes a call of every method of the SDK
 * before (its own argument list spread into the new method) and lets the compiler resolve each
 * call, as a caller's compiler would (scripts/sync/calls.ts).
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARCHIVE_FILE } from '../codegen/archive.ts';
import { readArchive, renderGenerated } from '../codegen/run.ts';
import { callsModule, readCalls, type CallCheck } from './calls.ts';
import { BEFORE_SDK_DIR, programOverSdks, type RenderedSdk } from './compile.ts';
import { methodsOf, type SurfaceChange } from './gate.ts';
import { loadCatalog, runSync, type SyncRunResult } from './run.ts';

export interface ReplayBuild {
  readonly build: string;
  readonly date: string;
  text(): string;
}

export interface ReplayStep {
  readonly build: string;
  readonly date: string;
  /** The sync's exit code: 0, or 1 where a person must settle a conflict (the catalog is written). */
  readonly code: number;
  readonly stderr: string;
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  /** The sync's report of the public API, by kind. */
  readonly surface: Readonly<Record<SurfaceChange['change'], number>>;
  /** The sync's report of the public API, change by change. */
  readonly surfaceChanges: readonly SurfaceChange[];
  /** Methods the sync reported breaking. */
  readonly breaking: readonly string[];
  /** Methods whose earlier calls no longer compile (the replay's own check). */
  readonly brokenCalls: readonly string[];
  /** Broken calls the sync did not report as breaking: must be empty. */
  readonly unreported: readonly string[];
  /** The SDK's own diagnostics after the step: must be empty. */
  readonly diagnostics: readonly string[];
}

export interface ReplayOptions {
  /** The repository: its src/ and node_modules/ are built against, and its catalog/ copied. */
  readonly root: string;
  /** The catalog folder to start from, copied (`root`'s catalog/ unless given). */
  readonly catalog?: string;
  /** Called after each step (progress). */
  readonly onStep?: (step: ReplayStep) => void;
}

/**
 * Replays `builds` in order on a copy of the repository's catalog. The first step goes from the
 * catalog as it is to the first build, removals allowed (it may go back in time).
 */
export async function replay(builds: Iterable<ReplayBuild> | AsyncIterable<ReplayBuild>, options: ReplayOptions) {
  const folder = await mkdtemp(join(tmpdir(), 'tollgate-replay-'));
  try {
    const catalogDir = join(folder, 'catalog');
    await cp(options.catalog ?? join(options.root, 'catalog'), catalogDir, { recursive: true });
    // The catalog's modules import zod: a link to the project's node_modules resolves it.
    await symlink(join(options.root, 'node_modules'), join(folder, 'node_modules'));
    const catalogFile = join(catalogDir, 'routes.ts');
    const pinnedDir = join(catalogDir, 'discord-openapi');
    const configFile = join(options.root, 'package.json');
    const render = async () => {
      const catalog = await loadCatalog(catalogFile, await readFile(catalogFile, 'utf8'));
      const document = JSON.parse(await readFile(join(pinnedDir, 'openapi.json'), 'utf8')) as unknown;
      return renderGenerated({ catalog, document, archive: await readArchive(pinnedDir), configFile, format: false });
    };
    let previous = await startingSdk(
      [catalogFile, join(pinnedDir, 'openapi.json'), join(pinnedDir, ARCHIVE_FILE), configFile],
      render,
    );
    const steps: ReplayStep[] = [];
    for await (const build of builds) {
      const spec = join(folder, `openapi-${build.build}.json`);
      await writeFile(spec, build.text());
      const result = await runSync({
        catalogFile,
        pinnedDir,
        spec,
        build: build.build,
        check: false,
        prune: false,
        allowRemovals: steps.length === 0,
        json: false,
        timeoutMs: 30_000,
        today: build.date,
        root: options.root,
        // The gate's SDK before is the one the last step left (or the starting one): not rendered twice.
        beforeSdk: previous,
        // The calls' check in the gate's own program, where both SDKs are typed already.
        checkCalls: true,
      });
      await rm(spec);
      let calls: CallCheck | undefined;
      if (wroteCatalog(result)) {
        // The SDK the sync's gate rendered and built, when it ran: the same catalog and document.
        const next = result.sdk ?? (await render());
        calls = result.calls ?? checkCalls(options.root, previous, next, result.sdk !== undefined);
        previous = next;
      }
      const step = stepOf(build, result, calls);
      steps.push(step);
      options.onStep?.(step);
    }
    return steps;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

type Rendered = RenderedSdk;

/**
 * The sync wrote the step's catalog: it is done, or done with conflicts a person must settle
 * (exit 1 with conflicts). Exit 1 without them is a catalog that would be invalid, and exit 2 a
 * refusal: nothing written.
 */
export const wroteCatalog = (result: SyncRunResult): boolean =>
  result.code === 0 || (result.code === 1 && (result.diff?.conflicts.length ?? 0) > 0);

/** A step's record: what the sync said, and what the calls' check found (none where nothing was written). */
export function stepOf(build: ReplayBuild, result: SyncRunResult, calls: CallCheck | undefined): ReplayStep {
  const surface = result.surface ?? [];
  const breaking = surface.filter((change) => change.change === 'breaking').map((change) => change.method);
  const brokenCalls = calls?.brokenCalls ?? [];
  return {
    build: build.build,
    date: build.date,
    code: result.code,
    stderr: result.stderr,
    added: result.diff?.added.length ?? 0,
    removed: result.diff?.removed.filter((removed) => removed.action !== 'still removed').length ?? 0,
    changed: result.diff?.changed.length ?? 0,
    surface: countByKind(surface),
    surfaceChanges: surface,
    breaking,
    brokenCalls,
    unreported: brokenCalls.filter((method) => !breaking.includes(method)),
    diagnostics: calls?.diagnostics ?? [`the sync exited ${result.code}: ${result.stderr.trim()}`],
  };
}

/** The last starting SDK rendered in this process, by what it was rendered from. */
let started: { readonly key: string; readonly sdk: Rendered } | undefined;

/**
 * The SDK of the catalog a replay starts from (`inputs`: the files it is rendered from). Replays
 * in one process (a test file's) mostly start from the same catalog and document: rendered once
 * for all of them.
 */
async function startingSdk(inputs: readonly string[], render: () => Promise<Rendered>): Promise<Rendered> {
  const hash = createHash('sha256');
  for (const file of inputs) {
    hash.update(await readFile(file).catch(() => Buffer.from('(none)')));
    hash.update('\0');
  }
  const key = hash.digest('hex');
  if (started?.key !== key) started = { key, sdk: await render() };
  return started.sdk;
}

/**
 * The calls' check in a program of its own (scripts/sync/calls.ts), where the sync's gate did not
 * run it: a call of every method of the SDK before that the new one still has (the sync keeps
 * removed methods, deprecated, unless told to prune them). The new SDK's own files are checked
 * too unless `sdkChecked`: the sync's gate built that very SDK, and a problem there was the
 * sync's exit 2.
 */
export function checkCalls(root: string, before: Rendered, after: Rendered, sdkChecked = false): CallCheck {
  const afterMethods = new Set(methodNames(after));
  const calls = callsModule(methodNames(before).filter((method) => afterMethods.has(method)));
  return readCalls(programOverSdks(root, after, before, BEFORE_SDK_DIR, calls), root, calls, sdkChecked);
}

const methodNames = ({ model }: Rendered): string[] => [...methodsOf(model).keys()];

const countByKind = (surface: readonly SurfaceChange[]) => {
  const counts = { added: 0, additive: 0, breaking: 0, renamed: 0, deprecated: 0 };
  for (const change of surface) counts[change.change]++;
  return counts;
};
