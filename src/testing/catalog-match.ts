/**
 * Which catalog operation a request calls: the reference service serves the catalog's operations
 * and nothing else, so a path no operation has is a 404 and a method the path does not take a
 * 405 (routing.ts), and a served call answers its operation's result (fixtures.ts).
 */
import { catalog } from '../../catalog/routes.ts';
import type { CatalogOperation } from '../../catalog/schema.ts';
import { operations } from '../index.ts';
import type { OperationDefinition } from '../contracts/catalog.ts';
import { idOf, segmentsOf } from './paths.ts';

/** The path's ids by placeholder name (`channel_id` …). */
export type PathIds = Readonly<Record<string, string>>;

/** A request's operation in the catalog, and its path's values by placeholder name. */
export interface MatchedOperation {
  readonly name: string;
  readonly ids: PathIds;
  readonly definition: OperationDefinition;
}

const BY_NAME: ReadonlyMap<string, CatalogOperation> = new Map(
  catalog.routes.flatMap((route) => route.operations.map((operation) => [operation.name, operation] as const)),
);

/** The catalog's entry of an operation (its result type, auth, pagination), by its dotted name. */
export const catalogOperation = (name: string): CatalogOperation | undefined => BY_NAME.get(name);

/** Operations by path length: a request is matched against those alone. */
const BY_LENGTH = Map.groupBy(Object.values(operations) as OperationDefinition[], (operation) => operation.path.length);

/** The path's values if `operation`'s path shape matches `segments`, else undefined. */
function match(operation: OperationDefinition, segments: readonly string[]): PathIds | undefined {
  const ids: Record<string, string> = {};
  for (const [index, part] of operation.path.entries()) {
    const segment = segments[index]!;
    if (typeof part === 'string') {
      if (part !== segment) return undefined;
      continue;
    }
    let value: string | undefined;
    try {
      value = part.kind === 'snowflake' ? idOf(segment) : decodeURIComponent(segment);
    } catch {
      return undefined; // a malformed percent-escape names no value
    }
    if (value === undefined || value === '') return undefined;
    ids[part.name] = value;
  }
  return ids;
}

/** How many of a path shape's segments are words, not placeholders: the more, the closer a match. */
const literals = (definition: OperationDefinition) => definition.path.filter((part) => typeof part === 'string').length;

/**
 * The catalog operation a request calls; undefined for a request outside the catalog. Where two
 * shapes match, the one with more words wins, as in the service's own router:
 * `/threads/archived/public` is its own operation, not `/threads/archived/{archive}`.
 */
export function matchOperation(method: string, path: string): MatchedOperation | undefined {
  const segments = segmentsOf(path);
  let best: MatchedOperation | undefined;
  for (const definition of BY_LENGTH.get(segments.length) ?? []) {
    if (definition.method !== method || (best && literals(best.definition) >= literals(definition))) continue;
    const ids = match(definition, segments);
    if (ids) best = { name: definition.name, ids, definition };
  }
  return best;
}

/** The catalog operation a request calls, and its path's ids; undefined for a request outside the catalog. */
export function operationOf(method: string, path: string): { name: string; ids: PathIds } | undefined {
  const matched = matchOperation(method, path);
  return matched && { name: matched.name, ids: matched.ids };
}

/** The methods the catalog has at this path (empty: no operation has it). */
export function methodsAt(path: string): string[] {
  const segments = segmentsOf(path);
  const methods = new Set<string>();
  for (const definition of BY_LENGTH.get(segments.length) ?? []) {
    if (match(definition, segments)) methods.add(definition.method);
  }
  return [...methods];
}
