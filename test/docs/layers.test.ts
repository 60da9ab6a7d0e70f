/**
 * The layer table (layers.js) has no holes, docs/design.md draws its layout from it, and ESLint's
 * `layers/imports` rule enforces it: an import the row does not name, and a file of src/ without
 * a row, are errors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS, layerOf, layersPlugin } from '../../layers.js';
import { DESIGN_DOC, renderLayers, withLayers } from '../../scripts/layer-table.ts';

const root = join(import.meta.dirname, '..', '..');

/** The rows src/ needs: each folder, and each file at its root. */
function rowsOfSrc(): string[] {
  return readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .map((entry) => (entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`))
    .sort();
}

describe('the layer table', () => {
  it('has a row for every folder and root file of src/, for generated/ and for scripts/, and none for what is not there', () => {
    const needed = [...rowsOfSrc(), 'generated/', 'scripts/'].sort();
    expect(Object.keys(LAYERS).sort()).toEqual(needed);
  });

  it('names only rows, catalog/, bench/ and layers.js as what a row may import', () => {
    const known = new Set([...Object.keys(LAYERS), 'catalog/', 'bench/', 'layers.js', 'src/']);
    const unknown = Object.entries(LAYERS).flatMap(([row, layer]) =>
      layer.imports.filter((target) => !known.has(target)).map((target) => `${row} → ${target}`),
    );
    expect(unknown).toEqual([]);
  });

  it('lets generated/ in through src/index.ts alone', () => {
    const importers = Object.entries(LAYERS)
      .filter(([, layer]) => layer.imports.includes('generated/'))
      .map(([row]) => row);
    expect(importers).toEqual(['src/index.ts']);
  });

  it("is drawn into docs/design.md's layout (npm run docs:layers)", () => {
    const document = readFileSync(DESIGN_DOC, 'utf8');
    expect(withLayers(document, renderLayers())).toBe(document);
  });
});

describe("ESLint's layers/imports rule", () => {
  // The rule alone, on files that need not exist (typed linting would need them on disk).
  const linter = new Linter({ cwd: root });
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { layers: layersPlugin },
      rules: { 'layers/imports': 'error' },
    },
  ];
  const problems = async (file: string, text: string) =>
    linter.verify(text, config, { filename: join(root, file) }).map((message) => message.message);

  it('is on for src/, generated/ and scripts/ (eslint.config.js)', async () => {
    const eslint = new ESLint({ cwd: root });
    for (const file of ['src/limiter/limiter.ts', 'generated/index.ts', 'scripts/generate.ts']) {
      const rules = ((await eslint.calculateConfigForFile(join(root, file))) as Linter.Config).rules ?? {};
      expect(rules['layers/imports'], file).toEqual([2]);
    }
  });

  it('refuses an import the row does not name, naming both rows', async () => {
    expect(await problems('src/limiter/probe.ts', "import '../http/client.ts';\nexport {};\n")).toEqual([
      expect.stringContaining('src/limiter/ may not import src/http/'),
    ]);
    expect(await problems('src/http/probe.ts', "export * from '../../generated/index.ts';\n")).toEqual([
      expect.stringContaining('src/http/ may not import generated/'),
    ]);
    expect(await problems('src/contracts/probe.ts', "import '../limiter/limiter.ts';\nexport {};\n")).toEqual([
      expect.stringContaining('src/contracts/ may not import src/limiter/'),
    ]);
  });

  it('allows what the row names', async () => {
    expect(await problems('src/http/probe.ts', "import '../limiter/limiter.ts';\nexport {};\n")).toEqual([]);
    expect(await problems('src/index.ts', "export * from '../generated/index.ts';\n")).toEqual([]);
  });

  it('refuses a file of src/ without a row', async () => {
    expect(layerOf('src/newfolder/probe.ts')).toBe('src/newfolder/');
    expect(await problems('src/newfolder/probe.ts', 'export const probe = 1;\n')).toEqual([
      expect.stringContaining('has no row in the layer table'),
    ]);
  });
});
