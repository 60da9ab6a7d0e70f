import { statSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { MUTATE_TESTS } from './scripts/mutate.ts';
import config from './vitest.config.ts';

/**
 * The tests `npm run mutate` runs (stryker.config.mjs): vitest.config.ts's two projects and its
 * sequencer, less what cannot kill a mutant. Stryker activates a mutant in the test's own process
 * only; these files test code that runs elsewhere (a child process, Bun, Deno, workerd, a packed
 * tarball, a browser), with at most the reference service in the test's process. Run in the
 * sandbox on one worker they only add minutes, and their real-time checks across processes fail
 * the run when the machine is busy (a failed test in Stryker's first run ends it). A test is
 * tried once more before it fails, for the real-time checks of the files left on a busy machine.
 */
export const OUT_OF_PROCESS = [
  'test/runtimes/runtimes.int.test.ts', // Node.js, Bun and Deno child processes, workerd
  'test/cloudflare/workers.int.test.ts', // workerd (miniflare)
  'test/cloudflare/interactions-example.int.test.ts', // workerd (miniflare)
  'test/interactions/node-example.int.test.ts', // the example, bundled, as its own process
  'test/discordjs/fleet.int.test.ts', // four discord.js processes
  'test/redis/failover.int.test.ts', // four worker processes, a Sentinel failover
  'test/redis/shared.int.test.ts', // Node processes on one Redis (its one-process tests go too)
  'test/proxy/replicas.int.test.ts', // `tollgate proxy` as child processes
  'test/testing/cli.int.test.ts', // the reference service's command line
  'test/http/close.int.test.ts', // a child process that must exit
  'test/e2e/demo.int.test.ts', // `npm start` as a child process
  'test/package/tarball.int.test.ts', // `npm pack` and the built dist/
  'test/docs/site.int.test.ts', // the built site in chromium
];

const projects = (config.test?.projects ?? []) as TestProjectInlineConfiguration[];

/**
 * A project's files, or with `npm run mutate -- … --tests <file or folder>` (MUTATE_TESTS) only
 * those of them: a folder's under the project's own patterns, their `test/` made that folder; a
 * file where one of the patterns takes it (each project's exclude still applies).
 */
export function includeOf(
  patterns: readonly string[],
  only = process.env[MUTATE_TESTS]?.split(',').filter(Boolean),
): string[] {
  if (!only) return [...patterns];
  return only.flatMap((test) =>
    statSync(test).isDirectory()
      ? patterns.map((pattern) => pattern.replace(/^test\//, `${test}/`))
      : patterns.some((pattern) => matchesGlob(test, pattern))
        ? [test]
        : [],
  );
}

export default defineConfig({
  ...config,
  test: {
    ...config.test,
    projects: projects.map((project) => ({
      ...project,
      test: {
        ...project.test,
        include: includeOf(project.test?.include ?? []),
        exclude: [...(project.test?.exclude ?? configDefaults.exclude), ...OUT_OF_PROCESS],
        // Type tests check signatures; a mutant changes only what runs.
        typecheck: { ...project.test?.typecheck, enabled: false },
        // Each mutant's run loads the modules afresh: a module's cache filled under one mutant
        // (the replay's starting SDK, the compiler's parsed files) must not answer under the next.
        isolate: true,
        retry: 1,
      },
    })),
  },
});
