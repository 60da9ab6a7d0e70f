/**
 * The core (`tollgate`'s entry and everything it imports) imports nothing from `node:`, so it can
 * run where only the web platform is (Web Crypto, fetch): every static import is followed from
 * src/index.ts; type-only imports are erased and do not count.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
/** `import … from '…'` and `export … from '…'`, but not `import type` / `export type`. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function importGraph(entry: string): { files: string[]; bare: Map<string, string[]> } {
  const seen = new Set<string>();
  const bare = new Map<string, string[]>();
  const queue = [resolve(root, entry)];
  while (queue.length > 0 && seen.size < 2000) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) queue.push(resolve(dirname(file), specifier!));
      else bare.set(specifier!, [...(bare.get(specifier!) ?? []), relative(root, file)]);
    }
  }
  return { files: [...seen], bare };
}

it("tollgate's core imports nothing from node:", () => {
  const { files, bare } = importGraph('src/index.ts');
  expect(files.length).toBeGreaterThan(30);
  const fromNode = [...bare].filter(([specifier]) => specifier.startsWith('node:'));
  expect(Object.fromEntries(fromNode)).toEqual({});
  // What it does import at run time: its two dependencies (discord-api-types is types only).
  expect([...bare.keys()].sort()).toEqual(['ky', 'zod']);
});

it("tollgate/cloudflare imports nothing from node:, only workerd's own cloudflare:workers (and not the HTTP layer)", () => {
  const { bare } = importGraph('src/cloudflare/index.ts');
  expect([...bare.keys()]).toEqual(['cloudflare:workers']);
});

it('tollgate/interactions imports nothing at run time but root leaves of src/: no package, no node:, none of the client', () => {
  const { files, bare } = importGraph('src/interactions/index.ts');
  expect([...bare.keys()]).toEqual([]);
  const outside = files
    .map((file) => relative(root, file))
    .filter((file) => dirname(file) !== join('src', 'interactions'));
  expect(outside).toEqual(expect.arrayContaining([join('src', 'runtime-check.ts'), join('src', 'errors.ts')]));
  expect(outside.filter((file) => dirname(file) !== 'src' || file === join('src', 'index.ts'))).toEqual([]);
});
