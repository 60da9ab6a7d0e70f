/**
 * `npm run mutate -- <files or folders…> [stryker options…]`: mutation testing (StrykerJS, with
 * stryker.config.mjs) of the files named, a folder meaning every source file below it:
 *
 *   npm run mutate -- src/http/relay.ts src/proxy/
 *   npm run mutate -- src/stores/ --ignoreStatic
 *
 * The arguments up to the first one starting with `-` are the targets: a file (with Stryker's
 * mutation range if wanted: `src/http/relay.ts:40-90`) or a folder; the rest go to `stryker run`
 * as they are, but for `--tests <file or folder>` (as often as wanted): only those test files
 * run, for a quicker run whose score is a floor of the whole suite's (fewer tests kill no more
 * mutants). They reach vitest.stryker.config.ts as MUTATE_TESTS, and such a run keeps its own
 * incremental file. Stryker's `--mutate` takes globs, not folders, and splits its value at commas;
 * this turns each folder into its files. Not part of .ci/run (docs/catalog.md, "Mutation
 * testing").
 */
import { createHash } from 'node:crypto';
import { existsSync, globSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

const USAGE = 'usage: npm run mutate -- <file or folder>… [stryker options…]';

/** The files a target names: itself (a mutation range kept), or the source files below a folder. */
export function filesOf(target: string, cwd: string = root): string[] {
  const range = /^(.*?)(:\d+(?::\d+)?-\d+(?::\d+)?)$/.exec(target);
  const path = (range?.[1] ?? target).replace(/\/+$/, '');
  if (!existsSync(`${cwd}/${path}`)) throw new Error(`mutate: ${target}: no such file or folder`);
  if (!statSync(`${cwd}/${path}`).isDirectory()) return [`${path}${range?.[2] ?? ''}`];
  if (range) throw new Error(`mutate: ${target}: a mutation range needs a file, not a folder`);
  const files = globSync(`${path}/**/*`, { cwd })
    .filter((file) => SOURCE.test(file) && !DECLARATION.test(file))
    .sort();
  if (files.length === 0) throw new Error(`mutate: ${target}: no source file below it`);
  return files;
}

/** The environment variable that narrows vitest.stryker.config.ts to some test files. */
export const MUTATE_TESTS = 'MUTATE_TESTS';

/**
 * `stryker run`'s arguments: the targets' files as `--mutate`, then the options as given; and the
 * test files or folders `--tests` named, if any.
 */
export function strykerArguments(argv: readonly string[], cwd: string = root): { args: string[]; tests: string[] } {
  const firstOption = argv.findIndex((arg) => arg.startsWith('-'));
  const targets = firstOption < 0 ? argv : argv.slice(0, firstOption);
  const rest = firstOption < 0 ? [] : argv.slice(firstOption);
  if (targets.length === 0) throw new Error(`mutate: name the files or folders to mutate; ${USAGE}`);
  const files = [...new Set(targets.flatMap((target) => filesOf(target, cwd)))];
  const comma = files.find((file) => file.includes(','));
  if (comma) throw new Error(`mutate: ${comma}: Stryker's --mutate cannot take a name with a comma`);
  const options: string[] = [];
  const tests: string[] = [];
  for (let index = 0; index < rest.length; index += 1) {
    if (rest[index] !== '--tests') {
      options.push(rest[index]!);
      continue;
    }
    const test = rest[(index += 1)]?.replace(/\/+$/, '');
    if (!test || test.startsWith('-')) throw new Error(`mutate: --tests needs a test file or folder; ${USAGE}`);
    if (!test.startsWith('test/') || !existsSync(`${cwd}/${test}`)) {
      throw new Error(`mutate: --tests ${test}: no such file or folder under test/`);
    }
    tests.push(test);
  }
  // A narrowed run's results are no guide to a whole run's, nor to another narrowing's.
  const narrowing = fileNameOf(tests.join('+').replace(/[^\w.+-]+/g, '_'));
  const incremental = tests.length === 0 ? [] : ['--incrementalFile', `reports/stryker-incremental-${narrowing}.json`];
  return { args: ['run', '--mutate', files.join(','), ...incremental, ...options], tests };
}

/** Room for the narrowing in `stryker-incremental-<narrowing>.json`, well under 255 bytes. */
const MAX_NAME = 160;

/** A file name holds 255 bytes: a longer narrowing keeps its start and is told apart by its hash. */
function fileNameOf(narrowing: string): string {
  if (narrowing.length <= MAX_NAME) return narrowing;
  const hash = createHash('sha256').update(narrowing).digest('hex').slice(0, 16);
  return `${narrowing.slice(0, MAX_NAME - hash.length - 1)}-${hash}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let run: ReturnType<typeof strykerArguments> | undefined;
  try {
    run = strykerArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
  }
  if (run) {
    const { StrykerCli } = await import('@stryker-mutator/core');
    process.chdir(root);
    if (run.tests.length > 0) process.env[MUTATE_TESTS] = run.tests.join(',');
    new StrykerCli([process.argv[0]!, 'stryker', ...run.args]).run();
  }
}
