/** `npm run docs:layers`: draws docs/design.md's layer table from layers.js; `--check` writes nothing and exits 1 when it is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { DESIGN_DOC, renderLayers, withLayers } from './layer-table.ts';
import { runMain } from './run-main.ts';

async function main(argv: readonly string[]): Promise<number> {
  const current = readFileSync(DESIGN_DOC, 'utf8');
  const drawn = withLayers(current, renderLayers());
  if (drawn === current) return 0;
  if (argv.includes('--check')) {
    console.error('docs/design.md: the layer table is stale; run npm run docs:layers');
    return 1;
  }
  writeFileSync(DESIGN_DOC, drawn);
  console.log('docs/design.md: layer table drawn from layers.js');
  return 0;
}

runMain(main);
