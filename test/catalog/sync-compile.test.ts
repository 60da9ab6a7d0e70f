/**
 * The sync's compiler toolkit (scripts/sync/compile.ts) on its own: files in memory beside the
 * repository's, the project's options for checking only, the diagnostics that are the sync's, and
 * how each is told. Small programs over the repository's tsconfig.json; the gate's and the replay's
 * tests run it over whole SDKs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compilerOptions,
  describeDiagnostic,
  diagnosticsOf,
  ownFiles,
  overlayHost,
  programOverSdks,
  type RenderedSdk,
} from '../../scripts/sync/compile.ts';

const root = join(import.meta.dirname, '..', '..');
const sdk = (files: Record<string, string>): RenderedSdk => ({
  model: undefined as never,
  files: new Map(Object.entries(files)),
});
const told = (program: ts.Program, file: ts.SourceFile) =>
  diagnosticsOf(program, file).map((diagnostic) => describeDiagnostic(diagnostic, root));

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('programOverSdks and ownFiles', () => {
  const after = sdk({
    'index.ts': "export * from './value.ts';\n",
    'value.ts': 'export const value: number = 1;\n',
    'notes.md': '# not code\n',
  });
  const before = sdk({ 'index.ts': "export const old: number = 'broken';\n" });
  const entry = {
    name: '.compile-entry.ts',
    text: [
      "import { value } from './generated/index.ts';",
      "import { old } from './.compile-before/index.ts';",
      'export const sum: string = value + old;',
      '',
    ].join('\n'),
  };
  // Made in each test, not once for the file: a mutation test (npm run mutate) sets its mutant
  // for the tests alone, so what the file's body computes would be the code unmutated.
  const build = () => programOverSdks(root, after, before, '.compile-before', entry);

  it('holds the new SDK, the SDK before and the entry, each at its place, and only their .ts files', () => {
    const program = build();
    const names = program.getSourceFiles().map((file) => file.fileName);
    expect(names).toEqual(
      expect.arrayContaining([
        join(root, 'generated', 'index.ts'),
        join(root, 'generated', 'value.ts'),
        join(root, '.compile-before', 'index.ts'),
        join(root, entry.name),
      ]),
    );
    expect(names.filter((name) => name.endsWith('.md'))).toEqual([]);
  });

  it("the sync's own files are the entry and the new SDK: not the SDK before, not the standard library", () => {
    const program = build();
    expect(
      ownFiles(program, root, entry)
        .map((file) => file.fileName.slice(root.length + 1))
        .sort(),
    ).toEqual(['.compile-entry.ts', 'generated/index.ts', 'generated/value.ts']);
  });

  it("the entry's own diagnostics are told as file(line,col): TSn, and the SDK before's are not the sync's", () => {
    const program = build();
    const own = ownFiles(program, root, entry);
    expect(own.flatMap((file) => told(program, file))).toEqual([
      ".compile-entry.ts(3,14): TS2322 Type 'number' is not assignable to type 'string'.",
    ]);
    const beforeFile = program.getSourceFile(join(root, '.compile-before', 'index.ts'))!;
    expect(told(program, beforeFile)).toEqual([
      ".compile-before/index.ts(1,14): TS2322 Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it('a syntax error is a diagnostic too, beside the semantic ones', () => {
    const broken = programOverSdks(root, sdk({ 'index.ts': 'export const = ;\n' }), undefined, '.compile-before', {
      name: '.compile-entry.ts',
      text: "import './generated/index.ts';\n",
    });
    const file = broken.getSourceFile(join(root, 'generated', 'index.ts'))!;
    expect(told(broken, file)).toEqual(['generated/index.ts(1,14): TS1134 Variable declaration expected.']);
  });
});

describe('diagnosticsOf a program made without programOverSdks', () => {
  it("is the compiler's own diagnostics of the file, syntactic then semantic", () => {
    const name = join(root, '.compile-plain.ts');
    const host = overlayHost(root, new Map([[name, "export const n: number = 'one';\nexport const = ;\n"]]));
    const program = ts.createProgram([name], compilerOptions(root), host);
    expect(told(program, program.getSourceFile(name)!)).toEqual([
      '.compile-plain.ts(2,14): TS1134 Variable declaration expected.',
      ".compile-plain.ts(1,14): TS2322 Type 'string' is not assignable to type 'number'.",
    ]);
  });
});

describe('programs one after another: what the last one found is kept only where nothing it depends on changed', () => {
  const entry = { name: '.compile-entry.ts', text: "import './generated/index.ts';\n" };
  const index = "export * from './value.ts';\nexport * from './use.ts';\nexport * from './other.ts';\n";
  const use = "import { value } from './value.ts';\nexport const doubled: number = value * 2;\n";
  const checked = (value: string, extra = 'export const other = 1;\n') => {
    const program = programOverSdks(
      root,
      sdk({ 'index.ts': index, 'value.ts': value, 'use.ts': use, 'other.ts': extra }),
      undefined,
      '.compile-before',
      entry,
    );
    return ownFiles(program, root, entry).flatMap((file) => told(program, file));
  };
  const numeric = 'export const value: number = 1;\n';
  const text = "export const value: string = 'one';\n";

  it('a file that did not change is checked again when what it imports changed shape, both ways', () => {
    expect(checked(numeric)).toEqual([]);
    expect(checked(text)).toEqual([
      "generated/use.ts(2,32): TS2362 The left-hand side of an arithmetic operation must be of type 'any', 'number', 'bigint' or an enum type.",
    ]);
    expect(checked(numeric)).toEqual([]);
  });

  it("an unchanged file's own diagnostic is still told when only another file changed", () => {
    const broken = "export const other: number = 'one';\n";
    const expected = ["generated/other.ts(1,14): TS2322 Type 'string' is not assignable to type 'number'."];
    expect(checked(numeric, broken)).toEqual(expected);
    expect(checked('export const value: number = 2;\n', broken)).toEqual(expected);
  });
});

describe('describeDiagnostic', () => {
  const file = ts.createSourceFile(
    join(root, 'generated', 'a.ts'),
    'const a = 1;\nconst b = 2;\n',
    ts.ScriptTarget.ES2022,
  );
  const chain: ts.DiagnosticMessageChain = {
    messageText: 'Outer.',
    category: ts.DiagnosticCategory.Error,
    code: 2322,
    next: [{ messageText: 'Inner.', category: ts.DiagnosticCategory.Error, code: 2322 }],
  };
  const diagnostic = (over: Partial<ts.Diagnostic>): ts.Diagnostic => ({
    category: ts.DiagnosticCategory.Error,
    code: 2322,
    file,
    start: 19,
    length: 1,
    messageText: 'Plain.',
    ...over,
  });

  it('a diagnostic in a file: its name from the root, its line and column from 1, its code and message', () => {
    expect(describeDiagnostic(diagnostic({}), root)).toBe('generated/a.ts(2,7): TS2322 Plain.');
  });

  it('a chained message is told whole, each link on a line of its own, indented under the first', () => {
    // The compiler indents each link two spaces deeper than the one before, after the four given.
    expect(describeDiagnostic(diagnostic({ messageText: chain }), root)).toBe(
      'generated/a.ts(2,7): TS2322 Outer.\n      Inner.',
    );
  });

  it('a diagnostic without a file, or without a place in it, is its code and message', () => {
    expect(describeDiagnostic(diagnostic({ file: undefined, start: undefined, code: 5023 }), root)).toBe(
      'TS5023: Plain.',
    );
    expect(describeDiagnostic(diagnostic({ start: undefined }), root)).toBe('TS2322: Plain.');
  });

  it('a file outside the root keeps its whole name', () => {
    const outside = ts.createSourceFile('/elsewhere/b.ts', 'let b = 1;\n', ts.ScriptTarget.ES2022);
    expect(describeDiagnostic(diagnostic({ file: outside, start: 4 }), root)).toBe(
      '/elsewhere/b.ts(1,5): TS2322 Plain.',
    );
  });
});

describe('compilerOptions', () => {
  /** A root of its own, so that its options are read in the test (they are kept by root). */
  const rootWith = (tsconfig: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-compile-'));
    scratch.push(dir);
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig);
    return dir;
  };

  it("a root's tsconfig.json, for checking only: nothing emitted, nothing kept between runs", () => {
    const options = compilerOptions(
      rootWith(
        JSON.stringify({ compilerOptions: { strict: true, noEmit: false, incremental: true, tsBuildInfoFile: 'x' } }),
      ),
    );
    expect(options.strict).toBe(true);
    expect(options.noEmit).toBe(true);
    expect(options.incremental).toBe(false);
    expect(options.tsBuildInfoFile).toBeUndefined();
  });

  it("the project's own are strict and check only", () => {
    expect(compilerOptions(root)).toMatchObject({ strict: true, noEmit: true });
  });

  it('is read once for a root', () => {
    const dir = rootWith('{}');
    expect(compilerOptions(dir)).toBe(compilerOptions(dir));
  });

  it("a tsconfig.json that does not parse is refused with the compiler's message", () => {
    expect(() => compilerOptions(rootWith('{ "compilerOptions": '))).toThrow(/expected/i);
  });
});

describe('overlayHost', () => {
  const inMemory = join(root, '.compile-overlay', 'deep', 'mod.ts');
  const host = overlayHost(root, new Map([[inMemory, 'export const x = 1;\n']]));

  it('a file in memory exists, reads and parses as its text, with its parents set', () => {
    expect(host.fileExists(inMemory)).toBe(true);
    expect(host.readFile(inMemory)).toBe('export const x = 1;\n');
    const parsed = host.getSourceFile(inMemory, ts.ScriptTarget.ES2022)!;
    expect(parsed.text).toBe('export const x = 1;\n');
    expect(parsed.statements[0]!.parent).toBe(parsed);
  });

  it("the folder of a file in memory exists, and disk's folders still do; a folder in neither does not", () => {
    expect(host.directoryExists!(join(root, '.compile-overlay', 'deep'))).toBe(true);
    expect(host.directoryExists!(join(root, 'src'))).toBe(true);
    expect(host.directoryExists!(join(root, '.compile-overlay', 'nowhere'))).toBe(false);
  });

  it('a file on disk is read from disk, parsed once, with its parents set', () => {
    const onDisk = join(root, 'scripts', 'sync', 'compile.ts');
    expect(host.fileExists(onDisk)).toBe(true);
    expect(host.readFile(onDisk)).toContain('export function overlayHost');
    const first = host.getSourceFile(onDisk, ts.ScriptTarget.ES2022)!;
    expect(first.statements[0]!.parent).toBe(first);
    expect(overlayHost(root, new Map()).getSourceFile(onDisk, ts.ScriptTarget.ES2022)).toBe(first);
  });

  it('a file in memory is parsed once for its text: the same text at its name is the same parse, a new text a new one', () => {
    const first = host.getSourceFile(inMemory, ts.ScriptTarget.ES2022)!;
    expect(
      overlayHost(root, new Map([[inMemory, 'export const x = 1;\n']])).getSourceFile(inMemory, ts.ScriptTarget.ES2022),
    ).toBe(first);
    const changed = overlayHost(root, new Map([[inMemory, 'export const x = 2;\n']])).getSourceFile(
      inMemory,
      ts.ScriptTarget.ES2022,
    )!;
    expect(changed).not.toBe(first);
    expect(changed.text).toBe('export const x = 2;\n');
    const elsewhere = join(root, '.compile-overlay', 'other.ts');
    expect(
      overlayHost(root, new Map([[elsewhere, 'export const x = 1;\n']])).getSourceFile(
        elsewhere,
        ts.ScriptTarget.ES2022,
      ),
    ).not.toBe(first);
  });

  it('a file in neither does not exist and has no source', () => {
    const missing = join(root, '.compile-overlay', 'missing.ts');
    expect(host.fileExists(missing)).toBe(false);
    expect(host.readFile(missing)).toBeUndefined();
    expect(host.getSourceFile(missing, ts.ScriptTarget.ES2022)).toBeUndefined();
  });
});
