/**
 * The catalog writer (scripts/sync/edits.ts): whatever string the document holds (a summary, a
 * deprecation, a path), the text it writes into catalog/routes.ts parses back to that same
 * string, once saved as the UTF-8 file the sync writes. Quotes, backslashes, line breaks of every
 * kind (CR, LF, U+2028, U+2029), astral characters and lone surrogates included.
 */
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../scripts/sync/edits.ts';
import type { CatalogEdit } from '../../scripts/sync/diff.ts';
import { FIXTURE_CATALOG, loadFixture } from '../support/openapi-fixture.ts';
import { runs } from '../support/property-runs.ts';

/** What needs escaping or could be mangled, among any UTF-16 code unit or code point. */
const tricky = fc.constantFrom(
  "'",
  '"',
  '`',
  '${',
  '\\',
  '\\n',
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\0',
  '\u2028',
  '\u2029',
  '\u0085',
  '\uFEFF',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  'é',
  '😀',
  '*/',
);
const text = fc.string({
  unit: fc.oneof(
    tricky,
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  minLength: 1,
  maxLength: 24,
});

/** The catalog as the sync saves it and reads it again: UTF-8 bytes (`writeFile`), then text. */
const saved = (source: string) => Buffer.from(source, 'utf8').toString('utf8');

/** Every `summary` and `deprecated` of the catalog, by operation name, as TypeScript reads the file. */
function stringsByTypeScript(source: string): Map<string, Record<string, string>> {
  const file = ts.createSourceFile('routes.ts', source, ts.ScriptTarget.Latest, true);
  const problems = (file as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
  expect(problems.map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, '\n'))).toEqual([]);
  const found = new Map<string, Record<string, string>>();
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const strings: Record<string, string> = {};
      for (const property of node.properties) {
        if (ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer))
          strings[property.name.getText(file)] = property.initializer.text;
      }
      if (strings.name !== undefined && strings.summary !== undefined) found.set(strings.name, strings);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('the catalog writer', () => {
  it('writes every string so that it parses back to the same string (TypeScript, and the module as imported)', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, text, async (summary, deprecated, added) => {
        const edits: CatalogEdit[] = [
          // An operation on one line (written again whole), one a property a line (spliced), a new one.
          { kind: 'set', operationName: 'guilds.get', properties: { summary, deprecated } },
          { kind: 'set', operationName: 'channels.messages.create', properties: { summary, deprecated } },
          {
            kind: 'add-operation',
            routeKey: 'GuildsId',
            operation: { name: 'guilds.added.get', method: 'PUT', summary: added, deprecated },
          },
        ];
        const source = saved(applyEdits(FIXTURE_CATALOG, edits));
        const read = stringsByTypeScript(source);
        expect(read.get('guilds.get')).toMatchObject({ summary, deprecated });
        expect(read.get('channels.messages.create')).toMatchObject({ summary, deprecated });
        expect(read.get('guilds.added.get')).toMatchObject({ summary: added, deprecated });
        const operations = new Map(
          (await loadFixture(source)).routes.flatMap((route) => route.operations.map((op) => [op.name, op] as const)),
        );
        expect(operations.get('guilds.get')).toMatchObject({ summary, deprecated });
        expect(operations.get('channels.messages.create')).toMatchObject({ summary, deprecated });
        expect(operations.get('guilds.added.get')).toMatchObject({ summary: added, deprecated });
      }),
      runs(150),
    );
  });
});
