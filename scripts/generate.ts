/**
 * `npm run generate`: catalog/routes.ts → generated/.
 * `npm run generate -- --check`: writes nothing; fails when generated/ is stale, incomplete or
 * has extra files. A bad catalog fails with every bad entry named, and nothing is written.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalog } from '../catalog/routes.ts';
import { CatalogError } from '../catalog/schema.ts';
import { generate } from './codegen/run.ts';
import { runMain } from './run-main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`generate: unknown argument(s) ${unknown.join(' ')}; usage: generate [--check]`);
    return 2;
  }
  const check = argv.includes('--check');
  const started = performance.now();
  const result = await generate({
    catalog,
    outDir: join(root, 'generated'),
    check,
    configFile: join(root, 'package.json'),
  });
  const summary = `${result.routeKeys} route keys, ${result.operations} operations, ${result.cdnEndpoints} CDN endpoints, ${result.files} files (${(performance.now() - started).toFixed(0)} ms)`;
  if (!check) {
    console.log(`generated/ written: ${summary}; ${result.differences.length} changed`);
    return 0;
  }
  if (result.differences.length === 0) {
    console.log(`generated/ is up to date: ${summary}`);
    return 0;
  }
  console.error(
    `generated/ is not what the catalog produces; run \`npm run generate\`:\n  ${result.differences.join('\n  ')}`,
  );
  return 1;
}

runMain(main, (error) => (error instanceof CatalogError ? error.message : error));
