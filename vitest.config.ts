import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects; `npm test` (`vitest run`) runs both, `npm run test:unit` and
 * `npm run test:integration` one each (`vitest run --project <name>`).
 *
 * - unit: no Redis, no child process, no real sleep, no network beyond in-process msw (a manual
 *   clock, a scripted fetch, msw). Runs anywhere, with nothing to start first.
 * - integration: everything else: Redis (REDIS_URL, or redis-server processes it starts), child
 *   processes (node, npm pack), the reference service or a node:http server on loopback, real time.
 *
 * A file lands in a project by where it lives: a folder below is all integration, or all unit but
 * for the integration files it names. A file in a folder named in neither list is in no project:
 * test/config/vitest-projects.test.ts fails, naming it, until its folder is added to one.
 */

/** Folders whose every test is an integration test. */
export const INTEGRATION_FOLDERS = ['e2e', 'lifecycle', 'redis', 'runtimes', 'undici'];

/** Integration tests in folders that are otherwise unit tests, and what each needs. */
export const INTEGRATION_FILES = [
  'catalog/sync-run.test.ts', // a node:http server, the sync run as a child process
  'cloudflare/interactions-example.test.ts', // the example Worker in workerd (miniflare), the reference service over HTTP
  'cloudflare/workers.test.ts', // Workers and a Durable Object in workerd (miniflare), the reference service over HTTP
  'client/resend.test.ts', // real timeouts (100 ms attempts), a refused connection on loopback
  'limiter/procedure.test.ts', // Redis
  'limiter/reservations.test.ts', // Redis
  'limiter/v10-store.test.ts', // Redis, redis-server processes (Sentinel, Cluster)
  'package/tarball.test.ts', // npm pack, npm install, node children, Redis, workerd (miniflare)
  'properties/limiter.property.test.ts', // Redis (each property runs on both stores)
  'properties/stores-differential.property.test.ts', // Redis
  'properties/v10-limiter.property.test.ts', // Redis (each property runs on both stores)
  'security/secrets.test.ts', // the reference service over HTTP, Redis
  'testing/cli.test.ts', // the reference service's CLI as a child process
  'testing/dialect.test.ts', // the reference service over HTTP
];

/** Folders of unit tests (but for the INTEGRATION_FILES in them). */
export const UNIT_FOLDERS = [
  'bench',
  'catalog',
  'cdn',
  'cloudflare',
  'client',
  'clock',
  'config',
  'docs',
  'input',
  'limiter',
  'package',
  'properties',
  'routing',
  'security',
  'telemetry',
  'testing',
  'types',
];

const inFolder = (folder: string) => `test/${folder}/**/*.test.ts`;

export default defineConfig({
  test: {
    // Both projects inherit these.
    testTimeout: 20_000,
    // Tests share no state; fixed seeds keep property runs repeatable.
    sequence: { shuffle: false },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT_FOLDERS.map(inFolder),
          exclude: [...configDefaults.exclude, ...INTEGRATION_FILES.map((file) => `test/${file}`)],
          // Type tests (here only): misuse of the public signatures must not compile.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
          // A worker per core: nothing here waits on real time, so files may share the cores (the
          // default, one fewer, is a single worker on two cores). Projects with different
          // maxWorkers run one after the other: unit first, then integration.
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: [...INTEGRATION_FOLDERS.map(inFolder), ...INTEGRATION_FILES.map((file) => `test/${file}`)],
          // Vitest's default workers (one fewer than the cores): real time and child processes need room.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
