/**
 * The sync's build gate (scripts/sync/gate.ts, over scripts/sync/compile.ts) when the compiler
 * itself refuses: the new SDK's diagnostics are the sync's problems, each as file(line,col): TSn;
 * the SDK before it is the repository's own, and its problems are not the sync's.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderGenerated } from '../../scripts/codegen/run.ts';
import { buildGate, type GateSide } from '../../scripts/sync/gate.ts';
import { FOLLOWED, loadFixture, openApiDocument } from '../support/openapi-fixture.ts';

const root = join(import.meta.dirname, '..', '..');
const BROKEN = "\nexport const broken: number = 'not a number';\n";

/** The fixture's side, with its SDK rendered and `index.ts` given a line that does not compile if asked. */
async function side(broken: boolean): Promise<GateSide & { lineOfBroken: number }> {
  const input = { catalog: await loadFixture(), document: openApiDocument(FOLLOWED), archive: {} };
  const { files } = await renderGenerated({ ...input, configFile: join(root, 'package.json'), format: false });
  const index = files.get('index.ts')!;
  const changed = new Map(files);
  if (broken) changed.set('index.ts', index + BROKEN);
  return { ...input, files: changed, lineOfBroken: index.split('\n').length + 1 };
}

describe('the build gate when the new SDK does not compile', () => {
  it("reports the compiler's diagnostic in the new SDK, where it is, and no surface", async () => {
    const after = await side(true);
    const result = await buildGate({ root, before: undefined, after });
    expect(result.problems).toEqual([
      `generated/index.ts(${after.lineOfBroken},14): TS2322 Type 'string' is not assignable to type 'number'.`,
    ]);
    expect(result.surface).toBeUndefined();
  });

  it('with an SDK before it as well: the diagnostic, and no surface read off a program that does not build', async () => {
    const after = await side(true);
    const result = await buildGate({ root, before: await side(false), after });
    expect(result.problems).toEqual([
      `generated/index.ts(${after.lineOfBroken},14): TS2322 Type 'string' is not assignable to type 'number'.`,
    ]);
    expect(result.surface).toBeUndefined();
  });

  it('a catalog before that disagrees with its own pin has no SDK to compare with: the new one is still built, no surface', async () => {
    const input = await side(false);
    const before = { catalog: input.catalog, document: openApiDocument({}), archive: {} };
    const result = await buildGate({ root, before, after: await side(false) });
    expect(result.problems).toEqual([]);
    expect(result.surface).toBeUndefined();
    expect(result.sdk?.files.get('index.ts')).toBe(input.files!.get('index.ts'));
  });

  it("a broken SDK before the sync is not the sync's problem: the new one builds, and its surface is read", async () => {
    const result = await buildGate({ root, before: await side(true), after: await side(false) });
    expect(result.problems).toEqual([]);
    expect(result.surface).toEqual([]);
  });
});
