/**
 * The sync's build gate: the SDK the new catalog would generate must compile, and what it does
 * to each public method is read off the compiler, not off the catalog's facts. Nothing is
 * written: both SDKs are rendered in memory (`renderGenerated`) and handed to one TypeScript
 * program through a compiler host that serves them at paths of their own.
 *
 * - `after` is served at `generated/` itself (its imports of `src/sdk.ts` resolve as they will);
 * - `before` (the catalog as it is, with the document it was synced to) at `BEFORE_SDK_DIR`;
 * - one more module names every method's argument list on both sides, and the checker says,
 *   for each, whether the new one accepts everything the old one did (`isTypeAssignableTo`);
 * - with `checkCalls` (the replay), the replay's calls module beside it (scripts/sync/calls.ts).
 */
import { join } from 'node:path';
import ts from 'typescript';
import { CatalogError, type Catalog, type CatalogOperation } from '../../catalog/schema.ts';
import { renderGenerated } from '../codegen/run.ts';
import { buildModel, type CatalogModel } from '../codegen/model.ts';
import type { Archive } from '../codegen/archive.ts';
import { callsModule, memberPath, readCalls, type CallCheck } from './calls.ts';
import {
  BEFORE_SDK_DIR,
  describeDiagnostic,
  diagnosticsOf,
  ownFiles,
  programOverSdks,
  type RenderedSdk,
} from './compile.ts';

/** How one public method changes (the sync's report and its semver reading). */
export type SurfaceChangeKind = 'added' | 'additive' | 'breaking' | 'renamed' | 'deprecated';

export interface SurfaceChange {
  /** As a caller writes it after `client.`: `guilds.get`, `channels.messages.listAll`. */
  readonly method: string;
  readonly change: SurfaceChangeKind;
  readonly detail: string;
}

export interface GateResult {
  /** Why the new SDK would not build (empty: it builds). */
  readonly problems: readonly string[];
  /** Absent when the SDK before the sync could not be rendered (its catalog and pin disagree). */
  readonly surface: readonly SurfaceChange[] | undefined;
  /** The new SDK as the gate rendered it (absent when its catalog is not valid). */
  readonly sdk?: RenderedSdk;
  /** The calls' check, when asked for (`checkCalls`) and both SDKs built. */
  readonly calls?: CallCheck;
}

export interface GateInput {
  /** The repository: `src/`, `node_modules/`, `tsconfig.json`, `package.json`. */
  readonly root: string;
  /** Absent before a first sync: there is no SDK to compare with. */
  readonly before: GateSide | undefined;
  readonly after: GateSide;
  /**
   * Also compile a call of every method both SDKs have with its argument list before, in the
   * gate's own program (the replay's check, scripts/sync/calls.ts): its verdicts are the
   * result's `calls`, never the gate's problems.
   */
  readonly checkCalls?: boolean;
}

/** A catalog, the document it follows and the archive of the operations that document lost. */
export interface GateSide {
  readonly catalog: Catalog;
  readonly document: unknown;
  readonly archive: Archive;
  /**
   * The SDK already generated from this side, where there is one (the repository's `generated/`,
   * which CI keeps current with its catalog): used as it is instead of rendered again.
   */
  readonly files?: ReadonlyMap<string, string>;
}

const CHECK_FILE = '.gate-check.ts';

export async function buildGate(input: GateInput): Promise<GateResult> {
  const configFile = join(input.root, 'package.json');
  const render = async (side: GateSide) =>
    side.files
      ? { model: buildModel(side.catalog), files: side.files }
      : renderGenerated({ ...side, configFile, format: false });
  let after: Awaited<ReturnType<typeof renderGenerated>>;
  try {
    after = await render(input.after);
  } catch (error) {
    if (error instanceof CatalogError) return { problems: error.problems, surface: undefined };
    throw error;
  }
  // A catalog that disagrees with its own pin (an operation in neither the pinned document nor
  // the archive) has no SDK to compare with; the new one is still built.
  const before =
    input.before &&
    (await render(input.before).catch((error: unknown) => {
      if (error instanceof CatalogError) return undefined;
      throw error;
    }));
  const beforeMethods = before ? methodsOf(before.model) : new Map();
  const afterMethods = methodsOf(after.model);
  const shared = [...afterMethods.keys()].filter((method) => beforeMethods.has(method));
  const sharedIndex = new Map(shared.map((method, index) => [method, index]));

  const entry = { name: CHECK_FILE, text: before ? checkModule(shared) : "import './generated/index.ts';\n" };
  const calls = input.checkCalls && before ? callsModule(shared) : undefined;
  const program = programOverSdks(input.root, after, before, BEFORE_SDK_DIR, entry, calls);
  const problems = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ownFiles(program, input.root, entry).flatMap((file) => diagnosticsOf(program, file)),
  ].map((diagnostic) => describeDiagnostic(diagnostic, input.root));
  if (problems.length > 0 || before === undefined) return { problems, surface: undefined, sdk: after };

  const checker = program.getTypeChecker();
  const aliases = new Map<string, ts.Type>();
  for (const statement of program.getSourceFile(join(input.root, CHECK_FILE))!.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    aliases.set(statement.name.text, checker.getTypeAtLocation(statement.name));
  }
  const surface: SurfaceChange[] = [];
  for (const [method, op] of afterMethods) {
    const old = beforeMethods.get(method);
    if (old === undefined) {
      surface.push({ method, change: 'added', detail: `${op.method} ${op.path}` });
      continue;
    }
    const index = sharedIndex.get(method)!;
    const was = aliases.get(`Before${index}`)!;
    const is = aliases.get(`After${index}`)!;
    const change = compareArguments(checker, was, is);
    if (change !== undefined) surface.push({ method, ...change });
    if (old.operationId !== undefined && op.operationId !== undefined && old.operationId !== op.operationId) {
      surface.push({
        method,
        change: 'renamed',
        detail: `operationId ${old.operationId} → ${op.operationId}; the method keeps its name`,
      });
    }
    if (op.renamedTo !== undefined && old.renamedTo === undefined) {
      surface.push({ method, change: 'renamed', detail: `to ${op.renamedTo}; this name stays, deprecated` });
    } else if (deprecationOf(op) !== undefined && deprecationOf(old) === undefined) {
      surface.push({ method, change: 'deprecated', detail: deprecationOf(op)! });
    }
  }
  for (const [method, op] of beforeMethods) {
    if (!afterMethods.has(method)) {
      surface.push({ method, change: 'breaking', detail: `removed (${op.operationId ?? 'kept by hand'})` });
    }
  }
  return { problems: [], surface, sdk: after, ...(calls && { calls: readCalls(program, input.root, calls, true) }) };
}

/** Every method a caller can call, by its name after `client.`, with the operation behind it. */
export function methodsOf(model: CatalogModel): Map<string, CatalogOperation & { readonly path: string }> {
  const methods = new Map<string, CatalogOperation & { readonly path: string }>();
  for (const op of model.operations) {
    const source = { ...op.source, path: op.pathText };
    methods.set(op.source.name, source);
    if (op.source.paginate) {
      methods.set(`${op.source.name}All`, source);
      methods.set(`${op.source.name}Pages`, source);
    }
  }
  return methods;
}

const deprecationOf = (op: CatalogOperation) =>
  op.deprecated ?? (op.removedIn === undefined ? undefined : `not in the document since build ${op.removedIn}`);

/** A module with each shared method's argument list before and after, as type aliases. */
function checkModule(methods: readonly string[]): string {
  const access = memberPath;
  return [
    `import type { Resources as Before } from './${BEFORE_SDK_DIR}/index.ts';`,
    "import type { Resources as After } from './generated/index.ts';",
    'type Arguments<F> = F extends (...args: infer A) => unknown ? A : never;',
    ...methods.flatMap((method, index) => [
      `export type Before${index} = Arguments<Before${access(method)}>;`,
      `export type After${index} = Arguments<After${access(method)}>;`,
    ]),
    '',
  ].join('\n');
}

/**
 * How a method's argument list changed, parameter by parameter: `breaking` when some call that
 * compiled no longer does (a type that accepts less, a parameter now required or removed),
 * `additive` when it accepts more, undefined when it accepts the same.
 */
function compareArguments(
  checker: ts.TypeChecker,
  was: ts.Type,
  is: ts.Type,
): { change: 'breaking' | 'additive'; detail: string } | undefined {
  const parameters = (type: ts.Type) => {
    const tuple = (type as ts.TupleTypeReference).target;
    return checker.getTypeArguments(type as ts.TypeReference).map((element, index) => ({
      name: (tuple.labeledElementDeclarations?.[index]?.name as ts.Identifier | undefined)?.text ?? `#${index + 1}`,
      type: element,
      required: index < tuple.minLength,
    }));
  };
  const before = parameters(was);
  const after = parameters(is);
  const less: string[] = [];
  const more: string[] = [];
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const old = before[index];
    const now = after[index];
    if (old === undefined)
      (now!.required ? less : more).push(`new ${now!.required ? 'required' : 'optional'} parameter ${now!.name}`);
    else if (now === undefined) less.push(`parameter ${old.name} removed`);
    else {
      const name = old.name === now.name ? now.name : `${old.name} → ${now.name}`;
      const accepts = compareTypes(checker, checker.getNonNullableType(old.type), checker.getNonNullableType(now.type));
      if (accepts === 'less') less.push(`${name} accepts less`);
      if (accepts === 'more') more.push(`${name} accepts more`);
      if (now.required && !old.required) less.push(`${name} now required`);
      if (old.required && !now.required) more.push(`${name} now optional`);
    }
  }
  // The checker has the last word on the whole list: what it refuses is breaking, whatever the reason.
  if (less.length === 0 && !checker.isTypeAssignableTo(was, is)) less.push('argument list accepts less');
  if (less.length > 0) return { change: 'breaking', detail: less.join('; ') };
  return more.length > 0 ? { change: 'additive', detail: more.join('; ') } : undefined;
}

/**
 * Whether a parameter's type accepts more, less or the same. Assignability decides where it
 * can; where each side is assignable to the other, an object that gained or lost a property
 * (at any depth) still changes what an object literal may say, which excess property checks
 * see: a new optional field accepts more, a field gone accepts less.
 */
function compareTypes(checker: ts.TypeChecker, was: ts.Type, is: ts.Type, depth = 0): 'more' | 'less' | undefined {
  const wider = checker.isTypeAssignableTo(was, is);
  const narrower = checker.isTypeAssignableTo(is, was);
  if (!wider) return 'less';
  if (!narrower) return 'more';
  if (depth > 4) return undefined;
  const before = propertiesOf(checker, was);
  const after = propertiesOf(checker, is);
  if ([...before.keys()].some((name) => !after.has(name))) return 'less';
  let result: 'more' | undefined = [...after.keys()].some((name) => !before.has(name)) ? 'more' : undefined;
  for (const [name, properties] of after) {
    const old = before.get(name);
    // A name that members of a union share (`type` of every component) is compared by name only:
    // which member's it is cannot be told apart here, and assignability already judged the union.
    if (old?.length !== 1 || properties.length !== 1) continue;
    const nested = compareTypes(
      checker,
      checker.getNonNullableType(checker.getTypeOfSymbol(old[0]!)),
      checker.getNonNullableType(checker.getTypeOfSymbol(properties[0]!)),
      depth + 1,
    );
    if (nested === 'less') return 'less';
    result ??= nested;
  }
  return result;
}

/** The properties an object literal may give for a type: its object members', arrays by their items. */
function propertiesOf(checker: ts.TypeChecker, type: ts.Type): Map<string, ts.Symbol[]> {
  const members = type.isUnion() ? type.types : [type];
  const properties = new Map<string, ts.Symbol[]>();
  const add = (name: string, symbols: readonly ts.Symbol[]) =>
    properties.set(name, [...(properties.get(name) ?? []), ...symbols]);
  for (const member of members) {
    if (checker.isArrayType(member) || checker.isTupleType(member)) {
      for (const item of checker.getTypeArguments(member as ts.TypeReference)) {
        for (const [name, symbols] of propertiesOf(checker, item)) add(`[] ${name}`, symbols);
      }
      continue;
    }
    // An intersection (`WithFiles<Body>`: the body and its files) has its members' properties.
    const objectLike = member.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection);
    if (!objectLike || member.getCallSignatures().length > 0) continue;
    // Built-in classes (FormData, Blob, AbortSignal) are the same on both sides: not walked.
    if (
      member.getConstructSignatures().length > 0 ||
      member.symbol?.declarations?.some((d) => d.getSourceFile().isDeclarationFile)
    )
      continue;
    for (const property of checker.getPropertiesOfType(member)) add(property.name, [property]);
  }
  return properties;
}
