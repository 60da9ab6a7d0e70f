/**
 * `npm run catalog:sync -- [--spec <file or URL>] [--build <number>] [--check] [--json] [--prune] [--allow-removals]`
 *
 * Brings catalog/routes.ts in step with Discord's OpenAPI document (default: the pinned one,
 * catalog/discord-openapi/openapi.json) and prints what it did: operations added (drafted
 * entries), removed (deprecated, or deleted with --prune) and changed. A document other than the
 * pinned one is pinned after the catalog is written. `--check` writes nothing and exits 1 when
 * the catalog is behind; `--json` prints the report for tools. Bad input, a document that would
 * remove more than 5 % of the operations (unless `--allow-removals`), or a catalog whose SDK
 * would not build: exit 2 and nothing written. Every edit is built first, in memory
 * (scripts/sync/gate.ts), and the report classifies each public method's change. See
 * docs/catalog.md, "When Discord changes its API".
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runSync } from './sync/run.ts';
import { runMain } from './run-main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: catalog:sync [--spec <file or URL>] [--build <number>] [--check] [--json] [--prune] [--allow-removals] [--timeout <ms>]';

async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        spec: { type: 'string' },
        build: { type: 'string' },
        check: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        prune: { type: 'boolean', default: false },
        'allow-removals': { type: 'boolean', default: false },
        timeout: { type: 'string', default: '30000' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`catalog:sync: ${(error as Error).message}; ${USAGE}`);
    return 2;
  }
  const timeoutMs = Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    console.error(`catalog:sync: --timeout must be a positive number of milliseconds; ${USAGE}`);
    return 2;
  }
  if (values.check && values.prune) {
    console.error(`catalog:sync: --check writes nothing, so --prune has nothing to do; ${USAGE}`);
    return 2;
  }
  const result = await runSync({
    catalogFile: join(root, 'catalog', 'routes.ts'),
    pinnedDir: join(root, 'catalog', 'discord-openapi'),
    // CI keeps generated/ current with the catalog: the SDK callers have now, compared as it is.
    generatedDir: join(root, 'generated'),
    changesetDir: join(root, '.changeset'),
    spec: values.spec,
    build: values.build,
    check: values.check,
    prune: values.prune,
    allowRemovals: values['allow-removals'],
    json: values.json,
    timeoutMs,
    today: new Date().toISOString().slice(0, 10),
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.code;
}

runMain(main);
