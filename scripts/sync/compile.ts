/**
 * The compiler as the sync uses it (the gate, the replay): the new SDK and the one before it as
 * files in memory beside the repository's own, the sync's module that uses both (the gate's, and
 * for a replay step the calls module beside it), checked with the project's compiler options;
 * the diagnostics that are the sync's to report.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { renderGenerated } from '../codegen/run.ts';

/** An SDK rendered in memory: its model and its files by name under `generated/`. */
export type RenderedSdk = Pick<Awaited<ReturnType<typeof renderGenerated>>, 'model' | 'files'>;

/** The sync's own module, the one the program starts from. */
export interface EntryModule {
  /** Relative to the repository. */
  readonly name: string;
  readonly text: string;
}

/**
 * Where the sync's programs serve the SDK before: one folder for the gate's and the replay's, so
 * that the replay's check of a step reads the very files its gate parsed.
 */
export const BEFORE_SDK_DIR = '.sync-before';

/**
 * The SDKs at `generated/` (after) and `beforeDir` (before), and `entry`, in one program; with
 * `companion`, a second module beside the entry, checked by the same checker but none of the
 * entry's (`ownFiles` leaves it out).
 */
export function programOverSdks(
  root: string,
  after: RenderedSdk,
  before: RenderedSdk | undefined,
  beforeDir: string,
  entry: EntryModule,
  companion?: EntryModule,
): ts.Program {
  const virtual = new Map<string, string>();
  // Every file of each SDK, its notes too: the compiler reads only what the modules import.
  for (const [name, text] of after.files) virtual.set(join(root, 'generated', name), text);
  for (const [name, text] of before?.files ?? []) virtual.set(join(root, beforeDir, name), text);
  const modules = companion ? [entry, companion] : [entry];
  for (const module of modules) virtual.set(join(root, module.name), module.text);
  // The entry imports both SDKs whole; `src/` only reads names no catalog changes.
  const builder = ts.createSemanticDiagnosticsBuilderProgram(
    modules.map((module) => join(root, module.name)),
    compilerOptions(root),
    overlayHost(root, virtual),
    lastBuilders.get(root),
  );
  lastBuilders.set(root, builder);
  const program = builder.getProgram();
  builders.set(program, { builder, settled: false });
  return program;
}

/**
 * The last program over SDKs at each root, with what its checker found, file by file: the next
 * program's checks start from it as `tsc --watch` does (the compiler's builder). A file keeps its
 * diagnostics only when neither it nor anything it imports changed, or what it imports changed in
 * no way its declarations show; every other file is checked again. A replay's step, or a test's
 * next edit, changes a few files of SDKs thousands of lines long.
 */
const lastBuilders = new Map<string, ts.SemanticDiagnosticsBuilderProgram>();
const builders = new WeakMap<ts.Program, { builder: ts.SemanticDiagnosticsBuilderProgram; settled: boolean }>();

/**
 * The files whose diagnostics are the sync's: the entry module and the new SDK. The SDK before
 * and `src/` are what the repository already builds; the checker reads them only as far as these need.
 */
export function ownFiles(program: ts.Program, root: string, entry: EntryModule): ts.SourceFile[] {
  const entryFile = join(root, entry.name);
  return program
    .getSourceFiles()
    .filter((file) => file.fileName === entryFile || file.fileName.startsWith(join(root, 'generated')));
}

/**
 * A file's diagnostics, syntactic and semantic. In a program over SDKs, the builder first learns
 * which files the changes since the last program affect (their diagnostics kept before are
 * dropped, not computed yet); a file's are then computed when first asked for, or kept.
 */
export function diagnosticsOf(program: ts.Program, file: ts.SourceFile): ts.Diagnostic[] {
  const built = builders.get(program);
  if (!built) return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
  if (!built.settled) {
    while (built.builder.getSemanticDiagnosticsOfNextAffectedFile(undefined, () => true));
    built.settled = true;
  }
  return [...program.getSyntacticDiagnostics(file), ...built.builder.getSemanticDiagnostics(file)];
}

export function describeDiagnostic(diagnostic: ts.Diagnostic, root: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n    ');
  if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const file = diagnostic.file.fileName.startsWith(root)
    ? diagnostic.file.fileName.slice(root.length + 1)
    : diagnostic.file.fileName;
  return `${file}(${line + 1},${character + 1}): TS${diagnostic.code} ${message}`;
}

const optionsByRoot = new Map<string, ts.CompilerOptions>();

/** The project's own compiler options (tsconfig.json), checking only. */
export function compilerOptions(root: string): ts.CompilerOptions {
  const known = optionsByRoot.get(root);
  if (known) return known;
  const file = join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(file));
  const options = { ...parsed.options, noEmit: true, incremental: false, tsBuildInfoFile: undefined };
  optionsByRoot.set(root, options);
  return options;
}

/**
 * Files on disk never change while the sync runs, so their parsed form is kept: a replay of many
 * builds parses the standard library and `src/` once.
 */
const diskSourceFiles = new Map<string, ts.SourceFile>();

/**
 * A file in memory, the last text it was parsed from: the next program that serves the same text
 * at the same name gets the same parse, bound once (the compiler binds a file only once, however
 * many programs hold it). A replay step's SDKs differ from the step before's in a few files, and
 * its calls' check holds the very SDKs its gate did. One entry a name, so it never grows past one
 * copy of each SDK.
 */
const virtualSourceFiles = new Map<string, ts.SourceFile>();

/** A parse with the version the builder compares programs' files by: its text's hash. */
function versioned(file: ts.SourceFile): ts.SourceFile {
  (file as { version?: string }).version = createHash('sha256').update(file.text).digest('base64');
  return file;
}

export function overlayHost(root: string, virtual: ReadonlyMap<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(compilerOptions(root));
  const virtualDirectories = new Set([...virtual.keys()].map((file) => dirname(file)));
  return {
    ...host,
    fileExists: (file) => virtual.has(file) || host.fileExists(file),
    readFile: (file) => virtual.get(file) ?? host.readFile(file),
    directoryExists: (directory) => virtualDirectories.has(directory) || (host.directoryExists?.(directory) ?? false),
    getSourceFile(file, languageVersion) {
      const text = virtual.get(file);
      if (text !== undefined) {
        const known = virtualSourceFiles.get(file);
        if (known?.text === text) return known;
        const parsed = versioned(ts.createSourceFile(file, text, languageVersion, true));
        virtualSourceFiles.set(file, parsed);
        return parsed;
      }
      const known = diskSourceFiles.get(file);
      if (known) return known;
      let read: string;
      try {
        read = readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
      const parsed = versioned(ts.createSourceFile(file, read, languageVersion, true));
      diskSourceFiles.set(file, parsed);
      return parsed;
    },
  };
}
