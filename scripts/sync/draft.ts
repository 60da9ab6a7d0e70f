/**
 * A drafted catalog entry for a document operation no catalog operation matches: its name by the
 * naming rules, its route (an existing one of the same path shape, or a new one after its
 * family), its placeholders, facts, auth and pagination. Pure; writes its edits into the context.
 */
import {
  shapeOf,
  type Catalog,
  type CatalogOperation,
  type CatalogRoute,
  type ParameterKind,
} from '../../catalog/schema.ts';
import { draftRouteKey, majorOf, nameOf, nameProblem, proposeName } from './derive.ts';
import { factsOf } from './facts.ts';
import { proposePagination } from './pagination.ts';
import { SpecInputError, type SpecOperation } from './openapi.ts';
import type { AddedOperation, CatalogEdit } from './types.ts';

export interface DraftContext {
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
export function draft(document: SpecOperation, context: DraftContext): AddedOperation {
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
    ...(facts.allowedMentionsIn && { allowedMentionsIn: facts.allowedMentionsIn }),
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

  let key = draftRouteKey(document.path, context.parameters);
  for (let suffix = 2; context.routeKeys.has(key); suffix++)
    key = `${draftRouteKey(document.path, context.parameters)}${suffix}`;
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
