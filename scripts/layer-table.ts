/**
 * docs/design.md's layer table, drawn from layers.js (the table ESLint enforces), so the two
 * cannot disagree: `npm run docs:layers` writes it, test/docs/layers.test.ts checks it.
 */
import { join } from 'node:path';
import { LAYERS } from '../layers.js';

export const DESIGN_DOC = join(import.meta.dirname, '..', 'docs', 'design.md');
const START = '<!-- layers: drawn from layers.js by `npm run docs:layers`; do not edit by hand -->';
const END = '<!-- /layers -->';

/** The layer table as Markdown, row for row. */
export function renderLayers(): string {
  const code = (names: readonly string[]) => (names.length === 0 ? 'nothing' : names.map((n) => `\`${n}\``).join(', '));
  const rows = Object.entries(LAYERS).map(([row, layer]) => `| \`${row}\` | ${layer.role} | ${code(layer.imports)} |`);
  return [START, '| Row | What it is for | May import |', '| --- | --- | --- |', ...rows, END].join('\n');
}

/** `document` with its layer table replaced by `table`; throws when the markers are missing. */
export function withLayers(document: string, table: string): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`docs/design.md must hold the layer table between "${START}" and "${END}"`);
  }
  return document.slice(0, start) + table + document.slice(end + END.length);
}
