import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Two projects, told apart by the file name; `npm test` (`vitest run`) runs both side by side,
 * `npm run test:unit` and `npm run test:integration` one each (`vitest run --project <name>`).
 *
 * - unit (`*.test.ts`): no Redis, no child process, no real sleep, no network beyond in-process
 *   msw (a manual clock, a scripted fetch, msw). Runs anywhere, with nothing to start first.
 * - integration (`*.int.test.ts`): everything else: Redis (REDIS_URL, or redis-server processes
 *   it starts), child processes (node, npm pack), the reference service or a node:http server on
 *   loopback, real time. test/config/vitest-projects.test.ts keeps Redis, child processes and the
 *   end-to-end harness out of unit files.
 */
export const UNIT_FILES = 'test/**/*.test.ts';
export const INTEGRATION_FILES = 'test/**/*.int.test.ts';

/**
 * One worker more than this machine's two cores, for both projects at once: the unit files keep
 * the cores busy (the catalog's compiler runs, the properties), while most integration files
 * wait on real time (windows, Sentinel failovers, child processes) and use little of them. What
 * the integration files assert does not depend on the machine's speed (no 429, no window over
 * its limit), so sharing the cores slows them without changing their outcome. `npm run
 * test:unit` runs the unit project alone with a worker per core (`--maxWorkers=100%`): its files
 * all want a core, and a third worker only makes them take turns (85 s against 94 s here).
 */
const WORKERS = 3;

/**
 * Vitest's own order, longest first (by the last run's durations, else by size), within each
 * project; then the projects' lists taken a file from each in turn. Vitest would run one
 * project's files before the other's, and so the busy unit files after the waiting integration
 * ones, instead of beside them.
 */
class InterleavedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byProject = new Map<string, TestSpecification[]>();
    for (const file of files) byProject.set(file.project.name, [...(byProject.get(file.project.name) ?? []), file]);
    const lists = await Promise.all([...byProject.values()].map((list) => super.sort(list)));
    const longest = Math.max(0, ...lists.map((list) => list.length));
    return Array.from({ length: longest }, (_, index) => lists.flatMap((list) => list[index] ?? [])).flat();
  }
}

/**
 * Node's compile cache (V8's code for each module, TypeScript's stripped source) for every Node
 * process of a run: the workers, and the processes the tests start (the Redis workers, the CLIs,
 * npm), which otherwise each compile src/, vitest, TypeScript's compiler and the rest afresh
 * (a child that loads src/ 0.70 s → 0.44 s; cli, demo and replay-steps 0.74× the CPU; the
 * whole run 0.93×). Kept with the install; one already set (or NODE_DISABLE_COMPILE_CACHE=1) wins.
 */
const COMPILE_CACHE =
  process.env.NODE_COMPILE_CACHE ?? join(import.meta.dirname, 'node_modules', '.cache', 'node-compile-cache');

export default defineConfig({
  test: {
    // Both projects inherit these.
    testTimeout: 20_000,
    env: { NODE_COMPILE_CACHE: COMPILE_CACHE },
    // Tests share no state; fixed seeds keep property runs repeatable.
    sequence: { shuffle: false, sequencer: InterleavedSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: [UNIT_FILES],
          exclude: [...configDefaults.exclude, INTEGRATION_FILES],
          // Type tests (here only): misuse of the public signatures must not compile.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
          // Projects of one group share a worker count and run together.
          maxWorkers: WORKERS,
          // A worker's unit files share one module graph: TypeScript's compiler, the standard
          // library and src/ as it parsed them (scripts/sync/compile.ts), zod, msw and src/ are
          // loaded once a worker, not once a file (test:unit 72 s against 116 s here). Safe
          // because no unit file mocks a module or stubs a global or the environment, and each
          // restores what it spies on and closes the servers it starts:
          // test/config/vitest-projects.test.ts holds the first. Integration files stay isolated.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: [INTEGRATION_FILES],
          maxWorkers: WORKERS,
        },
      },
    ],
  },
});
