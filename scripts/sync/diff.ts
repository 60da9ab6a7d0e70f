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
  shapeOf,
  SYNCED_FACTS,
  type Catalog,
  type CatalogOperation,
  type CatalogRoute,
  type ParameterKind,
  type SyncedFact,
} from '../../catalog/schema.ts';
import { catalogFactsOf, describeFact, factsOf, sameFact, type SyncedFacts } from './facts.ts';
import { SpecInputError, type SpecDocument, type SpecOperation } from './openapi.ts';
import { draft } from './draft.ts';
import type {
  AddedOperation,
  CatalogEdit,
  ChangedOperation,
  FactChange,
  KeptFact,
  RemovedOperation,
  SyncOptions,
  CatalogDiff,
} from './types.ts';

export type * from './types.ts';

/** The catalog is behind the document: the sync would change it, or a person must settle something. */
export const isBehind = (diff: CatalogDiff) => diff.edits.length > 0 || diff.conflicts.length > 0;

/**
 * More removed operations than this share of the synced ones (and more than one) refuse the
 * document (`--allow-removals`).
 */
export const MAX_REMOVED_SHARE = 0.05;

/** Discord marks a deprecated operation by its operationId (`deprecated_list_pins`), or by OpenAPI's flag. */
const isDeprecatedInDocument = (document: SpecOperation) =>
  document.deprecated || document.operationId.startsWith('deprecated_');

/** The seed's v6-only operations: the document never decides anything about them. */
const isV6Only = (operation: CatalogOperation) => operation.types?.from === 'v6';

interface Located {
  readonly route: CatalogRoute;
  readonly operation: CatalogOperation;
  readonly path: string;
}

/** The catalog's operations where they are sent, found by operationId and by method and path shape. */
interface CatalogIndex {
  readonly located: readonly Located[];
  readonly byOperationId: ReadonlyMap<string, Located>;
  readonly byShape: ReadonlyMap<string, Located>;
}

/** What a diff gathers as it goes over the document. */
interface DiffParts {
  readonly edits: CatalogEdit[];
  readonly added: AddedOperation[];
  readonly changed: ChangedOperation[];
  readonly linked: { name: string; operationId: string }[];
  readonly restored: { name: string; operationId: string }[];
  readonly kept: KeptFact[];
  readonly conflicts: string[];
}

export function diffCatalog(catalog: Catalog, spec: SpecDocument, options: SyncOptions): CatalogDiff {
  const index = indexOf(catalog);
  const { matches, matched } = matchDocument(spec, index);
  const parts: DiffParts = { edits: [], added: [], changed: [], linked: [], restored: [], kept: [], conflicts: [] };
  const newParameters: Record<string, ParameterKind> = {};
  const draftOf = drafter(catalog, spec, index, parts.edits, newParameters);
  for (const document of spec.operations) {
    const found = matches.get(document);
    if (found) diffMatched(document, found.operation, parts);
    else parts.added.push(draftOf(document));
  }
  // Who follows each operationId of the document now: a method it matched, or a drafted one.
  const followerOf = new Map<string, string>();
  for (const [document, found] of matches) followerOf.set(document.operationId, found.operation.name);
  for (const drafted of parts.added) followerOf.set(drafted.operationId, drafted.name);
  deprecateMoved(parts, index, matched);
  const { removed, handKept } = diffRemovals(index, matched, followerOf, options, parts.edits);
  refuseMassRemoval(index, removed, options);
  return {
    build: options.build,
    documentOperations: spec.operations.length,
    added: parts.added,
    removed,
    changed: parts.changed,
    linked: parts.linked,
    restored: parts.restored,
    kept: parts.kept,
    conflicts: parts.conflicts,
    handKept,
    newParameters,
    edits: [
      ...Object.entries(newParameters).map(([name, parameterKind]) => ({
        kind: 'add-parameter' as const,
        name,
        parameterKind,
      })),
      ...parts.edits,
    ],
  };
}

function indexOf(catalog: Catalog): CatalogIndex {
  const located: Located[] = catalog.routes.flatMap((route) =>
    route.operations.map((operation) => ({ route, operation, path: operation.path ?? route.path })),
  );
  // An operation renamed to another (renamedTo) is history: its successor follows its operationId.
  const byOperationId = new Map(
    located
      .filter((l) => l.operation.operationId && l.operation.renamedTo === undefined)
      .map((l) => [l.operation.operationId!, l]),
  );
  const byShape = new Map(
    located
      // A twin (sameAs) is sent on the path shape of the operation it follows: only that one matches.
      .filter((l) => !isV6Only(l.operation) && l.operation.sameAs === undefined)
      .map((l) => [`${l.operation.method} ${shapeOf(l.path)}`, l]),
  );
  return { located, byOperationId, byShape };
}

/**
 * Which catalog operation each of the document's is, most certain first: the same operationId at
 * the same method and path; then the same method and path (Discord renamed the operationId: the
 * method keeps its name). An operationId found only at another path is a move, drafted anew.
 */
function matchDocument(spec: SpecDocument, { byOperationId, byShape }: CatalogIndex) {
  const matches = new Map<SpecOperation, Located>();
  const matched = new Set<CatalogOperation>();
  const claim = (document: SpecOperation, found: Located | undefined) => {
    if (found === undefined || matched.has(found.operation) || matches.has(document)) return;
    matched.add(found.operation);
    matches.set(document, found);
  };
  const shapeKey = (document: SpecOperation) => `${document.method} ${shapeOf(document.path)}`;
  for (const document of spec.operations) {
    const found = byOperationId.get(document.operationId);
    if (found && `${found.operation.method} ${shapeOf(found.path)}` === shapeKey(document)) claim(document, found);
  }
  for (const document of spec.operations) claim(document, byShape.get(shapeKey(document)));
  return { matches, matched };
}

/** A matched operation: its operationId linked, its removal undone, its deprecation and facts followed. */
function diffMatched(document: SpecOperation, operation: CatalogOperation, parts: DiffParts): void {
  const properties: Record<string, unknown> = {};
  if (operation.operationId !== document.operationId) {
    properties.operationId = document.operationId;
    parts.linked.push({ name: operation.name, operationId: document.operationId });
  }
  if (operation.removedIn !== undefined) {
    properties.removedIn = undefined;
    properties.renamedTo = undefined;
    parts.restored.push({ name: operation.name, operationId: document.operationId });
  }
  if (isDeprecatedInDocument(document) && operation.deprecated === undefined) {
    properties.deprecated = `Discord deprecated it (operationId ${document.operationId}).`;
  }
  const changes = compareFacts(operation, document, properties, parts.kept);
  if (operation.unauthenticated && !document.auth.none) {
    parts.conflicts.push(
      `${operation.name}: sent without Authorization (unauthenticated), but ${document.method} ${document.path} needs a token`,
    );
  }
  if (changes.length > 0) parts.changed.push({ name: operation.name, operationId: document.operationId, changes });
  if (Object.keys(properties).length > 0) parts.edits.push({ kind: 'set', operationName: operation.name, properties });
}

/** Drafts an operation the catalog does not have, with what every draft of the diff shares. */
function drafter(
  catalog: Catalog,
  spec: SpecDocument,
  { located }: CatalogIndex,
  edits: CatalogEdit[],
  newParameters: Record<string, ParameterKind>,
): (document: SpecOperation) => AddedOperation {
  const routeOfShape = new Map<string, CatalogRoute>();
  for (const route of catalog.routes) {
    for (const path of [route.path, ...(route.aliases ?? [])]) routeOfShape.set(shapeOf(path), route);
  }
  const methodsAtPath = Map.groupBy(spec.operations, (operation) => operation.path);
  const context = {
    parameters: { ...catalog.parameters } as Record<string, ParameterKind>,
    newParameters,
    names: new Set(located.map((l) => l.operation.name)),
    routeKeys: new Set(catalog.routes.map((route) => route.key)),
    routeOfShape,
    newRoutes: new Map<string, CatalogRoute & { operations: CatalogOperation[] }>(),
    edits,
    catalog,
  };
  return (document) =>
    draft(document, { ...context, methodsAtPath: (methodsAtPath.get(document.path) ?? []).map((op) => op.method) });
}

/**
 * A catalog operation whose operationId a draft took, though its own method and path are still in
 * the document (Discord's `deprecated_list_pins`): deprecated, naming its successor.
 */
function deprecateMoved(parts: DiffParts, { byOperationId }: CatalogIndex, matched: ReadonlySet<CatalogOperation>) {
  for (const drafted of parts.added) {
    const old = byOperationId.get(drafted.operationId);
    if (old === undefined || !matched.has(old.operation) || old.operation.deprecated !== undefined) continue;
    const set = parts.edits.find(
      (edit): edit is Extract<CatalogEdit, { kind: 'set' }> =>
        edit.kind === 'set' && edit.operationName === old.operation.name,
    );
    const deprecated = `Use \`${drafted.name}\`: Discord moved this operation to ${drafted.method} ${drafted.path}.`;
    if (set) (set.properties as Record<string, unknown>).deprecated = deprecated;
    else parts.edits.push({ kind: 'set', operationName: old.operation.name, properties: { deprecated } });
  }
}

/** The catalog's synced operations the document no longer has: pruned, or marked removed (naming a successor). */
function diffRemovals(
  { located }: CatalogIndex,
  matched: ReadonlySet<CatalogOperation>,
  followerOf: ReadonlyMap<string, string>,
  options: SyncOptions,
  edits: CatalogEdit[],
): { removed: RemovedOperation[]; handKept: number } {
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
      continue;
    }
    const renamedTo = followerOf.get(operation.operationId);
    if (operation.removedIn !== undefined) {
      removed.push({ ...base, action: 'still removed', ...(renamedTo && { renamedTo }) });
      if (renamedTo !== operation.renamedTo) {
        edits.push({ kind: 'set', operationName: operation.name, properties: { renamedTo } });
      }
    } else {
      removed.push({ ...base, action: 'deprecated', ...(renamedTo && { renamedTo }) });
      edits.push({
        kind: 'set',
        operationName: operation.name,
        properties: { removedIn: options.build, ...(renamedTo && { renamedTo }) },
      });
    }
  }
  return { removed, handKept };
}

/**
 * A document that takes away more than a few operations at once is more likely broken or
 * truncated than a real release: it is refused unless the maintainer says so.
 */
function refuseMassRemoval({ located }: CatalogIndex, removed: readonly RemovedOperation[], options: SyncOptions) {
  const synced = located.filter((l) => l.operation.operationId !== undefined && l.operation.removedIn === undefined);
  const lost = removed.filter((r) => r.action !== 'still removed' && r.renamedTo === undefined).length;
  if (!options.allowRemovals && lost > 1 && lost > synced.length * MAX_REMOVED_SHARE) {
    throw new SpecInputError(
      `the document would remove ${lost} of the catalog's ${synced.length} synced operations (${((100 * lost) / synced.length).toFixed(1)} %, more than ${100 * MAX_REMOVED_SHARE} %): refused; if Discord really removed them, pass --allow-removals`,
    );
  }
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
    // A body that comes to an operation whose parameters are its query goes in the options, so
    // the query keeps its place (docs/design.md, "Signatures that additions cannot break").
    if (fact === 'body' && ours.body === undefined && theirs.body !== undefined && operation.query) {
      properties.bodyIn = 'options';
    }
    // The catalog's cross-entry rules: typed parts need the part they type.
    if (fact === 'body' && theirs.body === undefined) {
      Object.assign(properties, {
        encoding: undefined,
        attachmentsIn: undefined,
        allowedMentionsIn: undefined,
        bodyIn: undefined,
      });
      if (operation.types?.body) properties.types = { ...operation.types, body: undefined };
    }
    if (fact === 'query' && theirs.query === undefined) {
      Object.assign(properties, { queryRequired: undefined, bodyIn: undefined });
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
