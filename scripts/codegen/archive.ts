/**
 * The archive of removed operations (`catalog/discord-openapi/removed.json`): an operation the
 * document no longer has stays callable (`removedIn`), and the types its method was generated
 * with must stay too. Its path item's parameters, the operation and the schemas they reach are
 * kept here, as the last build that had it wrote them; the generator reads an operation from
 * here when the document lacks it. The sync adds an operation when it marks it removed and drops
 * it when the document has it again.
 */
import { isObject, Resolver, type OpenApiDocument, type Schema } from '../sync/openapi.ts';
import { capitalized } from '../words.ts';

export interface ArchivedOperation {
  /** The build of the document it was taken from: the last that had it. */
  readonly build: string;
  readonly method: string;
  readonly path: string;
  /** The path item's own parameters (path and query parameters shared by its operations). */
  readonly pathParameters: readonly unknown[];
  readonly operation: Readonly<Record<string, unknown>>;
  /** Every component schema the operation reaches, by its name in that build. */
  readonly schemas: Readonly<Record<string, Schema>>;
}

/** By operationId. */
export type Archive = Readonly<Record<string, ArchivedOperation>>;

export const ARCHIVE_FILE = 'removed.json';

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/** The operations of `document` with these operationIds, as the archive keeps them. */
export function archiveOperations(
  document: OpenApiDocument,
  operationIds: ReadonlySet<string>,
  build: string,
): Record<string, ArchivedOperation> {
  const archived: Record<string, ArchivedOperation> = {};
  const resolver = new Resolver(document);
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      if (!operationIds.has(operation.operationId)) continue;
      const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
      // Only successes type a result; they are kept resolved, so no other component is needed.
      const responses = Object.fromEntries(
        Object.entries(isObject(operation.responses) ? operation.responses : {})
          .filter(([status]) => /^2/.test(status))
          .map(([status, response]) => [status, resolver.resolve(response)]),
      );
      const kept = { ...operation, responses };
      archived[operation.operationId] = {
        build,
        method: method.toUpperCase(),
        path,
        pathParameters,
        operation: kept,
        schemas: reachedSchemas(document, [pathParameters, kept]),
      };
    }
  }
  return archived;
}

/** The archive's text: keys sorted, so the same archive is the same bytes. */
export function archiveText(archive: Archive): string {
  const sorted = Object.fromEntries(Object.entries(archive).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/**
 * An archived operation as a document of its own, its schemas renamed with a prefix of its
 * operationId (`GetGuildWidget_GuildWidgetResponse`) so that they never meet the current
 * document's schemas of the same name.
 */
export function archivedDocument(operationId: string, archived: ArchivedOperation): OpenApiDocument {
  const prefix = `${operationId.split('_').filter(Boolean).map(capitalized).join('')}_`;
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => {
        const name = key === '$ref' && typeof member === 'string' ? SCHEMA_REF.exec(member)?.[1] : undefined;
        return [key, name === undefined ? rename(member) : `#/components/schemas/${prefix}${name}`];
      }),
    );
  };
  return {
    openapi: '3.1.0',
    info: { version: '10' },
    paths: {
      [archived.path]: {
        parameters: rename(archived.pathParameters),
        [archived.method.toLowerCase()]: rename(archived.operation),
      },
    },
    components: {
      schemas: Object.fromEntries(
        Object.entries(archived.schemas).map(([name, schema]) => [`${prefix}${name}`, rename(schema) as Schema]),
      ),
    },
  };
}

/** Every component schema the values refer to, directly or through others, sorted by name. */
export function reachedSchemas(document: OpenApiDocument, roots: unknown): Record<string, Schema> {
  const all = document.components?.schemas ?? {};
  const reached: Record<string, Schema> = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isObject(value)) return;
    if (typeof value.$ref === 'string') {
      const name = SCHEMA_REF.exec(value.$ref)?.[1];
      if (name !== undefined && !(name in reached) && all[name]) {
        reached[name] = all[name];
        visit(all[name]);
      }
      return;
    }
    Object.values(value).forEach(visit);
  };
  visit(roots);
  return Object.fromEntries(Object.entries(reached).sort(([a], [b]) => a.localeCompare(b)));
}
