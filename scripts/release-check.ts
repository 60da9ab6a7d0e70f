/**
 * `npm run release:check`: what must hold before a version is published, each check on one line,
 * exit code 1 when any fails (CI runs it). Nothing is published.
 *
 * 1. build: `npm pack` into a temporary folder, as `npm publish` packs: prepack clears dist/,
 *    prepare builds it. The checks below read that build and that tarball, so each is packed and
 *    built once (`attw --pack` and `npm pack --dry-run` would each pack, and build, again).
 * 2. the API report: `scripts/api-report.ts --check` on that dist/ (etc/api/ is current).
 * 3. publint on the tarball (warnings fail too).
 * 4. @arethetypeswrong/cli on the tarball, with the esm-only profile: every entry point's types
 *    resolve for ESM under node16 and for bundlers (CommonJS resolution is not asked for).
 * 5. the tarball's size and file count against the budget below.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runMain } from './run-main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/**
 * What the tarball may weigh. Measured when it was set: 496 KiB packed, 348 files (0.2.0 with
 * what landed since). About an eighth above that: what a few of Discord's builds add goes
 * through, a folder shipped by mistake (the site, a fixture, the OpenAPI document) does not.
 */
const PACK_BUDGET = { packedBytes: 560 * 1024, files: 400 } as const;

interface Outcome {
  readonly ok: boolean;
  /** One line for the summary. */
  readonly line: string;
  /** What to read when it failed: the tool's own output. */
  readonly detail?: string;
}

/** What `npm pack --json` says of the one tarball it made. */
interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
}

interface ToolRun {
  readonly code: number;
  readonly stdout: string;
  /** stdout and stderr, or why it did not run. */
  readonly output: string;
}

/** A child process's outcome: its exit code and what it printed, never a throw. */
async function runTool(file: string, args: readonly string[]): Promise<ToolRun> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    const stdout = failed.stdout ?? '';
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout,
      output: `${stdout}${failed.stderr ?? ''}` || failed.message,
    };
  }
}

/** Runs a package's bin on this Node.js (npm scripts run on the pinned one). */
const runBin = (path: string, args: readonly string[]) => runTool(process.execPath, [join(root, path), ...args]);

async function pack(into: string): Promise<{ outcome: Outcome; packed?: Packed }> {
  const { code, stdout, output } = await runTool('npm', ['pack', '--json', '--pack-destination', into]);
  // The lifecycle scripts print before npm's JSON, which is the last thing on stdout.
  const json = stdout.slice(stdout.lastIndexOf('\n[') + 1);
  let packed: Packed | undefined;
  try {
    packed = code === 0 ? (JSON.parse(json) as Packed[])[0] : undefined;
  } catch {
    packed = undefined;
  }
  if (!packed) return { outcome: { ok: false, line: 'build: npm pack failed', detail: output } };
  return { outcome: { ok: true, line: `build: npm pack built dist/ and made ${packed.filename}` }, packed };
}

async function apiReport(): Promise<Outcome> {
  const { code, output } = await runBin('scripts/api-report.ts', ['--check']);
  return code === 0
    ? { ok: true, line: 'API report: etc/api/ matches the build' }
    : {
        ok: false,
        line: 'API report: the build differs from etc/api/ (npm run api:report, if intended)',
        detail: output,
      };
}

async function publint(tarball: string): Promise<Outcome> {
  const { code, output } = await runBin('node_modules/publint/src/cli.js', ['run', tarball, '--strict']);
  const clean = code === 0 && /All good!/.test(output);
  return clean
    ? { ok: true, line: 'publint: no error, warning or suggestion' }
    : code === 0
      ? { ok: true, line: 'publint: no error or warning (suggestions below)', detail: output }
      : { ok: false, line: 'publint: problems in the package', detail: output };
}

async function typesResolve(tarball: string): Promise<Outcome> {
  const { code, output } = await runBin('node_modules/@arethetypeswrong/cli/dist/index.js', [
    tarball,
    '--profile',
    'esm-only',
    '--format',
    'table-flipped',
    '--no-color',
  ]);
  return code === 0
    ? {
        ok: true,
        line: 'attw (esm-only): every entry point resolves, types and JavaScript, under node16 (ESM) and bundlers',
      }
    : { ok: false, line: 'attw (esm-only): an entry point does not resolve as it should', detail: output };
}

function size(packed: Packed): Outcome {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const over = packed.size > PACK_BUDGET.packedBytes || packed.entryCount > PACK_BUDGET.files;
  const line =
    `size: ${kib(packed.size)} packed (budget ${kib(PACK_BUDGET.packedBytes)}), ` +
    `${packed.entryCount} files (budget ${PACK_BUDGET.files}), ${kib(packed.unpackedSize)} unpacked`;
  return over
    ? {
        ok: false,
        line: `${line}: over budget`,
        detail:
          'See what grew with `npm pack --dry-run`; raise PACK_BUDGET in scripts/release-check.ts only for a reason.',
      }
    : { ok: true, line };
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length > 0) {
    console.error(`release:check: takes no arguments (got ${argv.join(' ')})`);
    return 2;
  }
  const started = performance.now();
  const outcomes: Outcome[] = [];
  const report = (outcome: Outcome) => {
    outcomes.push(outcome);
    console.log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.line}`);
    if (outcome.detail) console.log(outcome.detail.trimEnd().replace(/^/gm, '     '));
  };
  const folder = await mkdtemp(join(tmpdir(), 'tollgate-release-check-'));
  try {
    const { outcome, packed } = await pack(folder);
    report(outcome);
    if (packed) {
      const tarball = join(folder, packed.filename);
      report(await apiReport());
      report(await publint(tarball));
      report(await typesResolve(tarball));
      report(size(packed));
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (failed > 0 || outcomes.length < 5) {
    console.error(`release:check: ${failed} of ${outcomes.length} checks failed (${seconds} s)`);
    return 1;
  }
  console.log(`release:check: all ${outcomes.length} checks passed (${seconds} s)`);
  return 0;
}

runMain(main);
