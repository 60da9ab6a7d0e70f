/**
 * `npm run docs [-- --out <dir>]`: the API reference site, every entry point of the package with
 * the guides of docs/, built by TypeDoc into site/ (git ignores it; open site/index.html). Any
 * TypeDoc warning fails it, with exit code 1. See scripts/site/.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runMain } from './run-main.ts';
import { buildSite } from './site/build.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: docs [--out <dir>]';

async function main(argv: readonly string[]): Promise<number> {
  let out: string;
  try {
    const { values } = parseArgs({ args: [...argv], options: { out: { type: 'string' } }, strict: true });
    out = values.out === undefined ? join(root, 'site') : resolve(values.out);
  } catch (error) {
    console.error(`docs: ${(error as Error).message}; ${USAGE}`);
    return 2;
  }
  const site = await buildSite(root, out);
  if (!site.ok) {
    console.error(`docs: no site: ${site.problem}`);
    return 1;
  }
  console.log(`docs: ${site.pages} pages in ${out} (${site.seconds.toFixed(1)} s); open index.html`);
  return 0;
}

runMain(main);
