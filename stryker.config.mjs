// @ts-check
/**
 * Mutation testing with StrykerJS: `npm run mutate -- <files or folders>` (scripts/mutate.ts names
 * the files to mutate; nothing is mutated without them). docs/catalog.md, "Mutation testing",
 * says when to run it and what score to expect.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  vitest: {
    // vitest.config.ts's projects (unit and integration) and sequencer, less the tests whose
    // subject runs in another process, and without the type tests.
    configFile: 'vitest.stryker.config.ts',
    // Only the test files that import the mutated files, directly or not: the rest cannot kill.
    related: true,
    // Stryker's default: a worker thread per test file starts faster than a process (`npm test`'s
    // forks); src/discordjs/, 44 mutants: 40 s against 53 s, the same score.
    pool: 'threads',
  },
  // The dry run records which tests reach each mutant; a mutant then runs only those tests.
  // Code that runs only in a child process a test starts (the reference service's CLI, the
  // proxy's `tollgate proxy`, discord.js workers) records nothing: its mutants are NoCoverage.
  coverageAnalysis: 'perTest',
  // A copy of the repository in .stryker-tmp/ (the sandbox), never the checkout's own files:
  // others work in this checkout, and `inPlace` would rewrite src/ under them.
  tempDirName: '.stryker-tmp',
  // Outputs git ignores, not copied into the sandbox (a test that wants dist/ or site/ builds it).
  ignorePatterns: ['/dist', '/site', '/coverage', '/test-artifacts'],
  // One worker (a vitest process of one worker): this machine has two cores and shares them.
  concurrency: 1,
  // Integration tests wait on real time and child processes; a slow machine is not a timeout.
  timeoutMS: 10_000,
  // The dry run of a store or of the relay is most of the suite on one worker.
  dryRunTimeoutMinutes: 30,
  // A static mutant (a module-level constant or schema, run while a module loads) is tested by
  // reloading and running every related test: about 8 minutes each here, most of a run's time
  // for a file with a few. Ignored, and so left out of the score; `ignoreStatic: false` counts them.
  ignoreStatic: true,
  // Reuses the last run's results for the mutants and tests that did not change.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false },
  thresholds: { high: 80, low: 60, break: null },
};

export default config;
