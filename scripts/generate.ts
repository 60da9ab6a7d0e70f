/**
 * `npm run generate`: catalog → generated/. `npm run generate -- --check`: fails, writing
 * nothing, when generated/ is stale, incomplete or has extra files.
 * The catalog is validated first; a bad catalog fails with the entries named and nothing written.
 */
import { readFile, readdir, mkdir, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { catalog } from '../catalog/routes.ts';
import { CatalogError, parseCatalog } from '../catalog/schema.ts';
import { buildModel } from './codegen/model.ts';
import { emitGenerated } from './codegen/emit.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'generated');

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`generate: unknown argument(s) ${unknown.join(' ')}; usage: generate [--check]`);
    return 2;
  }
  const check = argv.includes('--check');
  const started = performance.now();
  const model = buildModel(parseCatalog(catalog));
  const prettierOptions = (await prettier.resolveConfig(join(root, 'package.json'))) ?? {};
  const files = await emitGenerated(model, prettierOptions);
  const existing = await readdir(outDir).catch(() => [] as string[]);

  const stale: string[] = [];
  for (const [name, text] of files) {
    const current = await readFile(join(outDir, name), 'utf8').catch(() => undefined);
    if (current !== text) stale.push(current === undefined ? `${name} (missing)` : `${name} (out of date)`);
  }
  const extra = existing.filter((name) => !files.has(name));
  stale.push(...extra.map((name) => `${name} (not produced by the catalog)`));
  const ms = (performance.now() - started).toFixed(0);

  if (check) {
    if (stale.length === 0) {
      console.log(`generated/ is up to date: ${model.routes.length} route keys, ${model.operations.length} operations (${ms} ms)`);
      return 0;
    }
    console.error(`generated/ is not what the catalog produces; run \`npm run generate\`:\n  ${stale.join('\n  ')}`);
    return 1;
  }
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of files) await writeFile(join(outDir, name), text);
  for (const name of extra) await rm(join(outDir, name), { recursive: true });
  console.log(
    `generated/: ${model.routes.length} route keys, ${model.operations.length} operations, ${files.size} files, ${stale.length} changed (${ms} ms)`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof CatalogError ? error.message : error);
    process.exitCode = 1;
  },
);
