/**
 * What `catalog:sync` would change: the catalog compared with a document of the service, as a
 * report and as a list of edits (`edits.ts` writes them into catalog/routes.ts). Pure.
 *
 * - A document operation is matched to the catalog operation that follows its operationId, else
 *   to the one with its method and path shape (placeholders as `{}`; the first sync links them).
 * - **Added**: no catalog operation matches. A draft is made by the naming rules (`derive.ts`).
 * - **Removed**: a catalog operation that follows an operationId the document no longer has. It
 *   stays, marked `removedIn`; `--prune` deletes it. Operations kept by hand (no operationId:
 *   the seed's v6 routes among them) are never touched.
 * - **Changed**: a synced fact (SYNCED_FACTS) differs from the document. It is applied, unless
 *   the operation keeps it by hand (`keep`), which is reported instead.
 */
import {
  SYNCED_FACTS,
  type Catalog,
  type CatalogOperation,
  type CatalogRoute,
  type ParameterKind,
  type SyncedFact,
} from '../../catalog/schema.ts';
import {
  catalogFactsOf,
  describeFact,
  factsOf,
  majorOf,
  nameOf,
  nameProblem,
  proposePagination,
  proposeName,
  routeKeyOf,
  sameFact,
  shapeOf,
  type SyncedFacts,
} from './derive.ts';
import { SpecInputError, type SpecDocument, type SpecOperation } from './openapi.ts';

export interface SyncOptions {
  /** The build of the document, named in `removedIn`. */
  readonly build: string;
  /** Delete removed operations instead of marking them. */
  readonly prune: boolean;
}

/** One edit of catalog/routes.ts; `edits.ts` applies them in order. */
export type CatalogEdit =
  | { readonly kind: 'add-parameter'; readonly name: string; readonly parameterKind: ParameterKind }
  | { readonly kind: 'add-route'; readonly route: CatalogRoute; readonly afterKey: string | undefined }
  | { readonly kind: 'add-operation'; readonly routeKey: string; readonly operation: CatalogOperation }
  | {
      readonly kind: 'set';
      readonly operationName: string;
      /** Properties to write (undefined: remove the property). */
      readonly properties: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'remove-operation'; readonly operationName: string };

export interface AddedOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly name: string;
  readonly routeKey: string;
  /** The route is new (else the operation joins an existing route of its path). */
  readonly newRoute: boolean;
  /** The natural name was taken: why, and that `name` is the proposal. */
  readonly collision?: string;
  /** What a person should look at (a credential in the path, a token the call may go without). */
  readonly notes: readonly string[];
}

export interface FactChange {
  readonly fact: SyncedFact;
  readonly from: string;
  readonly to: string;
}

export interface ChangedOperation {
  readonly name: string;
  readonly operationId: string;
  readonly changes: readonly FactChange[];
}

export interface KeptFact {
  readonly name: string;
  readonly fact: SyncedFact;
  readonly reason: string;
  readonly catalog: string;
  readonly document: string;
}

export interface RemovedOperation {
  readonly name: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** `deprecated` now, `pruned` (deleted), or `still removed` (marked by an earlier sync). */
  readonly action: 'deprecated' | 'pruned' | 'still removed';
}

export interface SyncPlan {
  readonly build: string;
  /** Operations of the document. */
  readonly documentOperations: number;
  readonly added: readonly AddedOperation[];
  readonly removed: readonly RemovedOperation[];
  readonly changed: readonly ChangedOperation[];
  /** Catalog operations now linked to their operationId (matched by method and path). */
  readonly linked: readonly { readonly name: string; readonly operationId: string }[];
  /** Operations marked removed that the document has again. */
  readonly restored: readonly { readonly name: string; readonly operationId: string }[];
  readonly kept: readonly KeptFact[];
  /** Hand facts the document contradicts, which a person must settle. */
  readonly conflicts: readonly string[];
  /** Catalog operations the document does not have and that follow none of its operations. */
  readonly handKept: number;
  readonly newParameters: Readonly<Record<string, ParameterKind>>;
  readonly edits: readonly CatalogEdit[];
}

/** The catalog is behind the document: the sync would change it, or a person must settle something. */
export const isBehind = (plan: SyncPlan) =>
  plan.added.length > 0 ||
  plan.removed.some((removed) => removed.action !== 'still removed') ||
  plan.changed.length > 0 ||
  plan.linked.length > 0 ||
  plan.restored.length > 0 ||
  plan.conflicts.length > 0;

/** The seed's v6-only operations: the document never decides anything about them. */
const isV6Only = (operation: CatalogOperation) => operation.types?.from === 'v6';

interface Located {
  readonly route: CatalogRoute;
  readonly operation: CatalogOperation;
  readonly path: string;
}

export function planSync(catalog: Catalog, spec: SpecDocument, options: SyncOptions): SyncPlan {
  const located: Located[] = catalog.routes.flatMap((route) =>
    route.operations.map((operation) => ({ route, operation, path: operation.path ?? route.path })),
  );
  const byOperationId = new Map(
    located.filter((l) => l.operation.operationId).map((l) => [l.operation.operationId!, l]),
  );
  const byShape = new Map(
    located.filter((l) => !isV6Only(l.operation)).map((l) => [`${l.operation.method} ${shapeOf(l.path)}`, l]),
  );
  const routeOfShape = new Map<string, CatalogRoute>();
  for (const route of catalog.routes) {
    for (const path of [route.path, ...(route.aliases ?? [])]) routeOfShape.set(shapeOf(path), route);
  }
  const methodsAtPath = Map.groupBy(spec.operations, (operation) => operation.path);

  const edits: CatalogEdit[] = [];
  const added: AddedOperation[] = [];
  const changed: ChangedOperation[] = [];
  const linked: { name: string; operationId: string }[] = [];
  const restored: { name: string; operationId: string }[] = [];
  const kept: KeptFact[] = [];
  const conflicts: string[] = [];
  const matched = new Set<CatalogOperation>();
  const parameters: Record<string, ParameterKind> = { ...catalog.parameters };
  const newParameters: Record<string, ParameterKind> = {};
  const names = new Set(located.map((l) => l.operation.name));
  const routeKeys = new Set(catalog.routes.map((route) => route.key));
  const newRoutes = new Map<string, CatalogRoute & { operations: CatalogOperation[] }>();

  for (const document of spec.operations) {
    const found =
      byOperationId.get(document.operationId) ?? byShape.get(`${document.method} ${shapeOf(document.path)}`);
    if (found && !matched.has(found.operation)) {
      matched.add(found.operation);
      const { operation } = found;
      const properties: Record<string, unknown> = {};
      if (operation.operationId !== document.operationId) {
        properties.operationId = document.operationId;
        linked.push({ name: operation.name, operationId: document.operationId });
      }
      if (operation.removedIn !== undefined) {
        properties.removedIn = undefined;
        restored.push({ name: operation.name, operationId: document.operationId });
      }
      const changes = compareFacts(operation, document, properties, kept);
      if (operation.unauthenticated && !document.auth.none) {
        conflicts.push(
          `${operation.name}: sent without Authorization (unauthenticated), but ${document.method} ${document.path} needs a token`,
        );
      }
      if (changes.length > 0) changed.push({ name: operation.name, operationId: document.operationId, changes });
      if (Object.keys(properties).length > 0) edits.push({ kind: 'set', operationName: operation.name, properties });
      continue;
    }
    added.push(
      draft(document, {
        parameters,
        newParameters,
        names,
        routeKeys,
        routeOfShape,
        newRoutes,
        methodsAtPath: (methodsAtPath.get(document.path) ?? []).map((op) => op.method),
        edits,
        catalog,
      }),
    );
  }

  const removed: RemovedOperation[] = [];
  let handKept = 0;
  for (const { operation, path } of located) {
    if (matched.has(operation)) continue;
    if (operation.operationId === undefined) {
      handKept++;
      continue;
    }
    const base = { name: operation.name, operationId: operation.operationId, method: operation.method, path };
    if (options.prune) {
      removed.push({ ...base, action: 'pruned' });
      edits.push({ kind: 'remove-operation', operationName: operation.name });
    } else if (operation.removedIn !== undefined) {
      removed.push({ ...base, action: 'still removed' });
    } else {
      removed.push({ ...base, action: 'deprecated' });
      edits.push({ kind: 'set', operationName: operation.name, properties: { removedIn: options.build } });
    }
  }

  return {
    build: options.build,
    documentOperations: spec.operations.length,
    added,
    removed,
    changed,
    linked,
    restored,
    kept,
    conflicts,
    handKept,
    newParameters,
    edits: [
      ...Object.entries(newParameters).map(([name, parameterKind]) => ({
        kind: 'add-parameter' as const,
        name,
        parameterKind,
      })),
      ...edits,
    ],
  };
}

/** Compares the synced facts; fills `properties` with what to write, `kept` with what is kept by hand. */
function compareFacts(
  operation: CatalogOperation,
  document: SpecOperation,
  properties: Record<string, unknown>,
  kept: KeptFact[],
): FactChange[] {
  const ours = catalogFactsOf(operation);
  const theirs = factsOf(document);
  const changes: FactChange[] = [];
  for (const fact of SYNCED_FACTS) {
    if (sameFact(fact, ours, theirs)) continue;
    const reason = operation.keep?.[fact];
    if (reason !== undefined) {
      kept.push({
        name: operation.name,
        fact,
        reason,
        catalog: describeFact(fact, ours),
        document: describeFact(fact, theirs),
      });
      continue;
    }
    changes.push({ fact, from: describeFact(fact, ours), to: describeFact(fact, theirs) });
    Object.assign(properties, propertiesOf(fact, theirs));
    // The catalog's cross-entry rules: typed parts need the part they type.
    if (fact === 'body' && theirs.body === undefined) {
      Object.assign(properties, { encoding: undefined, attachmentsIn: undefined });
      if (operation.types?.body) properties.types = { ...operation.types, body: undefined };
    }
    if (fact === 'query' && theirs.query === undefined) {
      properties.queryRequired = undefined;
      if (operation.types?.query) properties.types = { ...(properties.types ?? operation.types), query: undefined };
    }
  }
  return changes;
}

/** The catalog properties that write a fact (undefined: the property goes). */
function propertiesOf(fact: SyncedFact, facts: SyncedFacts): Record<string, unknown> {
  switch (fact) {
    case 'encoding':
      return { encoding: facts.encoding.encoding, attachmentsIn: facts.encoding.attachmentsIn };
    default:
      return { [fact]: facts[fact] };
  }
}

interface DraftContext {
  readonly catalog: Catalog;
  readonly parameters: Record<string, ParameterKind>;
  readonly newParameters: Record<string, ParameterKind>;
  readonly names: Set<string>;
  readonly routeKeys: Set<string>;
  readonly routeOfShape: Map<string, CatalogRoute>;
  readonly newRoutes: Map<string, CatalogRoute & { operations: CatalogOperation[] }>;
  readonly methodsAtPath: readonly string[];
  readonly edits: CatalogEdit[];
}

/** A drafted catalog entry for a document operation no catalog operation matches. */
function draft(document: SpecOperation, context: DraftContext): AddedOperation {
  const where = `${document.method} ${document.path}`;
  const notes: string[] = [];
  const shape = shapeOf(document.path);
  const existing = context.routeOfShape.get(shape) ?? context.newRoutes.get(shape);

  // An existing route's placeholders name the values (its `{emoji}` for the document's `{emoji_name}`).
  let path = document.path;
  if (existing) {
    const names = [...existing.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    let index = 0;
    path = document.path.replace(/\{[^}]+\}/g, () => `{${names[index++]}}`);
  } else {
    for (const parameter of document.pathParameters) {
      if (parameter.name in context.parameters) continue;
      if (!parameter.snowflake) {
        throw new SpecInputError(
          `${where}: the catalog cannot classify path parameter {${parameter.name}} (not an id): add it to catalog.parameters as code, emoji or secret`,
        );
      }
      context.parameters[parameter.name] = 'snowflake';
      context.newParameters[parameter.name] = 'snowflake';
    }
  }

  const natural = nameOf(document, context.methodsAtPath);
  let name = natural;
  let collision: string | undefined;
  const problem = nameProblem(natural, context.names);
  if (problem !== undefined) {
    const proposal = proposeName(natural, context.names);
    if (proposal === undefined) {
      throw new SpecInputError(`${where}: no free name near "${natural}" (${problem}); name it in the catalog by hand`);
    }
    collision = `${problem}; proposed "${proposal}"`;
    name = proposal;
  }
  context.names.add(name);

  const facts = factsOf(document);
  const secretInPath = [...path.matchAll(/\{([^}]+)\}/g)].some((match) => context.parameters[match[1]!] === 'secret');
  const unauthenticated = secretInPath && document.auth.none === true;
  if (document.auth.none && !unauthenticated) {
    notes.push('callable without a token: if the body carries its own credential, mark it unauthenticated');
  }
  const pagination = proposePagination(document);
  if (pagination.note) notes.push(pagination.note);
  const operation: CatalogOperation = {
    name,
    // The catalog's word for "answers 204": the reference service answers so, the method returns undefined.
    ...(document.emptyResult && { types: { result: 'undefined' as const } }),
    method: document.method,
    ...(existing && path !== existing.path && { path }),
    summary: document.summary,
    ...(facts.body && { body: facts.body }),
    ...(facts.encoding.encoding && { encoding: facts.encoding.encoding }),
    ...(facts.encoding.attachmentsIn && { attachmentsIn: facts.encoding.attachmentsIn }),
    ...(facts.binaryResult && { binaryResult: true }),
    ...(facts.query && { query: [...facts.query] as [string, ...string[]] }),
    ...(facts.queryRequired && { queryRequired: true }),
    ...(unauthenticated && { unauthenticated: true }),
    operationId: document.operationId,
    ...(facts.auth && { auth: facts.auth }),
    ...(pagination.facts && { paginate: pagination.facts }),
  };

  if (existing) {
    const drafted = context.newRoutes.get(shape);
    if (drafted === existing) drafted.operations.push(operation);
    else context.edits.push({ kind: 'add-operation', routeKey: existing.key, operation });
    return { ...summaryOf(document, name, existing.key, false, notes), ...(collision && { collision }) };
  }

  let key = routeKeyOf(document.path, context.parameters);
  for (let suffix = 2; context.routeKeys.has(key); suffix++)
    key = `${routeKeyOf(document.path, context.parameters)}${suffix}`;
  context.routeKeys.add(key);
  const route = {
    key,
    v10Only: true as const,
    major: majorOf(document.path),
    path: document.path,
    pathSource: 'openapi' as const,
    operations: [operation],
  };
  const afterKey = lastRouteOfFamily(context, document.path);
  context.newRoutes.set(shape, route);
  context.routeOfShape.set(shape, route);
  context.edits.push({ kind: 'add-route', route, afterKey });
  return { ...summaryOf(document, name, key, true, notes), ...(collision && { collision }) };
}

const summaryOf = (document: SpecOperation, name: string, routeKey: string, newRoute: boolean, notes: string[]) => ({
  operationId: document.operationId,
  method: document.method,
  path: document.path,
  name,
  routeKey,
  newRoute,
  notes,
});

/**
 * The last route of the catalog whose path starts with the same top-level word: new routes go
 * after it, in document order (at the end where the family is new).
 */
function lastRouteOfFamily(context: DraftContext, path: string): string | undefined {
  const top = path.split('/')[1];
  return context.catalog.routes.filter((route) => route.path.split('/')[1] === top).at(-1)?.key;
}
