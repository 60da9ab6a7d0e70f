/**
 * The replay's own check of a step (scripts/sync/replay.ts): a module that calls each method of
 * the SDK before with that method's own argument list spread into the new method, and the
 * compiler's verdict on each call, as a caller's compiler would give it. Where the sync's gate
 * compares argument lists with the checker's assignability, this resolves real calls; the two
 * agree or the replay says where they do not.
 *
 * The calls module is checked in the gate's own program when the gate runs (`buildGate`'s
 * `checkCalls`), where both SDKs are parsed, bound and typed already; else in a program of its own
 * (the replay's `checkCalls`).
 */
import { join } from 'node:path';
import ts from 'typescript';
import { BEFORE_SDK_DIR, diagnosticsOf, ownFiles, type EntryModule } from './compile.ts';

/** What compiling the calls of the SDK before against the new one found. */
export interface CallCheck {
  /** The new SDK's own diagnostics, and any of the calls module's that is no call's. */
  readonly diagnostics: readonly string[];
  /** Methods whose call no longer compiles. */
  readonly brokenCalls: readonly string[];
}

/** The calls module, and the methods it calls in the order of its lines. */
export interface CallsModule extends EntryModule {
  readonly methods: readonly string[];
}

const CALLS_FILE = '.replay-calls.ts';
const FIRST_CALL_LINE = 4;

/** A method's name as a path of members of `Resources`: `guilds.get` → `["guilds"]["get"]`. */
export const memberPath = (method: string) =>
  method
    .split('.')
    .map((part) => `[${JSON.stringify(part)}]`)
    .join('');

/** One call a line, from FIRST_CALL_LINE: `after["guilds"]["get"](...argumentsOf<Before["guilds"]["get"]>());`. */
export function callsModule(methods: readonly string[]): CallsModule {
  const text = [
    `import type { Resources as Before } from './${BEFORE_SDK_DIR}/index.ts';`,
    "import type { Resources as After } from './generated/index.ts';",
    'declare const after: After; type Arguments<F> = F extends (...args: infer A) => unknown ? A : never;',
    'declare function argumentsOf<F>(): Arguments<F>;',
    ...methods.map((method) => `void after${memberPath(method)}(...argumentsOf<Before${memberPath(method)}>());`),
    '',
  ].join('\n');
  return { name: CALLS_FILE, text, methods };
}

/**
 * The calls' verdicts in `program`, which holds `calls`: a diagnostic on a call's line names
 * that method broken; any other is told as it is. The new SDK's own files are read too unless
 * `sdkChecked` (the gate built that very SDK, and a problem there was the sync's exit 2).
 */
export function readCalls(program: ts.Program, root: string, calls: CallsModule, sdkChecked: boolean): CallCheck {
  const callsFile = join(root, calls.name);
  const diagnostics: string[] = [];
  const broken = new Set<string>();
  for (const file of ownFiles(program, root, calls)) {
    const ours = file.fileName === callsFile;
    if (sdkChecked && !ours) continue;
    for (const diagnostic of diagnosticsOf(program, file)) {
      if (ours && diagnostic.start !== undefined) {
        const line = file.getLineAndCharacterOfPosition(diagnostic.start).line;
        const method = calls.methods[line - FIRST_CALL_LINE];
        if (method !== undefined) {
          broken.add(method);
          continue;
        }
      }
      diagnostics.push(
        `${file.fileName.slice(root.length + 1)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
      );
    }
  }
  return { diagnostics, brokenCalls: [...broken] };
}
