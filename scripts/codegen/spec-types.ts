/**
 * Types for what discord-api-types does not type, from the schemas of Discord's OpenAPI document
 * (`generated/spec-types.ts`). An operation that follows the document (`operationId`) and whose
 * body, query or result the catalog names no discord-api-types type for gets one here, named
 * after its operationId (`GetLobbyResult`, `GetLobbyMessagesQuery`), so a type names the
 * operation of the document it comes from.
 *
 * Only what those operations reach is kept: their schemas are written as components of a small
 * document with every schema they refer to, and openapi-typescript (a well-kept library) turns
 * that into TypeScript.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { CatalogError, HTTP_METHODS } from '../../catalog/schema.ts';
import { isObject, Resolver, type OpenApiDocument, type Schema } from '../sync/openapi.ts';
import { archivedDocument, reachedSchemas, type Archive } from './archive.ts';
import type { OperationModel } from './model.ts';
import { capitalized } from '../words.ts';

export type TypedPart = 'body' | 'query' | 'result';

/** The generated type names of one operation's parts (`undefined` result: the service answers 204). */
export type SpecTypeNames = Partial<Record<TypedPart, string>>;

/** `get_lobby_messages` → `GetLobbyMessages`. */
const pascalName = (operationId: string) => operationId.split('_').filter(Boolean).map(capitalized).join('');

interface FoundOperation {
  readonly operation: Record<string, unknown>;
  readonly pathItem: Record<string, unknown>;
}

function findOperations(document: OpenApiDocument): Map<string, FoundOperation> {
  const found = new Map<string, FoundOperation>();
  for (const pathItem of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method.toLowerCase()];
      if (isObject(operation) && typeof operation.operationId === 'string') {
        found.set(operation.operationId, { operation, pathItem: pathItem as Record<string, unknown> });
      }
    }
  }
  return found;
}

/** The parts of an operation the catalog leaves to the document. */
export function partsFromDocument(op: OperationModel): TypedPart[] {
  const { source, definition } = op;
  if (source.operationId === undefined || source.link) return [];
  const parts: TypedPart[] = [];
  if (definition.body !== 'none' && !source.types?.body) parts.push('body');
  if (source.query && !source.types?.query) parts.push('query');
  if (!definition.binaryResult && !source.types?.result) parts.push('result');
  return parts;
}

export interface SpecTypes {
  /** `generated/spec-types.ts` without its header, or undefined when no operation needs it. */
  readonly text: string | undefined;
  /** By operation name. */
  readonly names: ReadonlyMap<string, SpecTypeNames>;
}

export async function emitSpecTypes(
  document: OpenApiDocument,
  operations: readonly OperationModel[],
  archive: Archive = {},
): Promise<SpecTypes> {
  const byId = findOperations(document);
  const schemas: Record<string, Schema> = {};
  const archivedSchemas: Record<string, Schema> = {};
  const names = new Map<string, SpecTypeNames>();
  const aliases: string[] = [];
  const resolver = new Resolver(document);

  for (const op of operations) {
    const parts = partsFromDocument(op);
    if (parts.length === 0) continue;
    const operationId = op.source.operationId!;
    let found = byId.get(operationId);
    let resolve = (value: unknown): unknown => resolver.resolve(value);
    const archived = found === undefined ? archive[operationId] : undefined;
    if (archived !== undefined) {
      // Removed from the document: typed as the last build that had it (archive.ts).
      const own = archivedDocument(operationId, archived);
      const ownResolver = new Resolver(own);
      found = findOperations(own).get(operationId);
      resolve = (value) => ownResolver.resolve(value);
      Object.assign(archivedSchemas, own.components?.schemas);
    }
    if (!found)
      throw new CatalogError([
        `${op.source.name}: operationId "${operationId}" is neither in Discord's OpenAPI document nor in the archive of removed operations (catalog/discord-openapi/removed.json)`,
      ]);
    const base = pascalName(op.source.operationId!);
    const entry: SpecTypeNames = {};
    for (const part of parts) {
      const schema =
        part === 'body'
          ? bodySchema(found, resolve)
          : part === 'query'
            ? querySchema(found, resolve)
            : resultSchema(found, resolve);
      if (schema === 'empty') {
        entry.result = 'undefined';
        continue;
      }
      if (schema === undefined) continue;
      const name = `${base}${part === 'body' ? 'Body' : part === 'query' ? 'Query' : 'Result'}`;
      if (document.components?.schemas?.[name])
        throw new CatalogError([
          `${op.source.name}: the type ${name} it needs is already a schema of Discord's document`,
        ]);
      schemas[name] = schema;
      entry[part] = name;
      aliases.push(
        part === 'query'
          ? `/** Query of \`${op.source.name}\` (${op.source.operationId}). */\nexport type ${name} = WithoutNull<components['schemas']['${name}']>;`
          : `/** ${part === 'body' ? 'Body' : 'Result'} of \`${op.source.name}\` (${op.source.operationId}). */\nexport type ${name} = components['schemas']['${name}'];`,
      );
    }
    names.set(op.source.name, entry);
  }
  if (aliases.length === 0) return { text: undefined, names };

  const reached = reachedSchemas(document, schemas);
  const small = {
    openapi: document.openapi,
    info: { title: document.info.title ?? 'Discord', version: document.info.version },
    paths: {},
    components: { schemas: { ...reached, ...archivedSchemas, ...schemas } },
  };
  // openapi-typescript's parameter type is its own OpenAPI3 shape; the document was checked on reading.
  const ast = await openapiTS(small as unknown as Parameters<typeof openapiTS>[0], { silent: true, alphabetize: true });
  const body = astToString(ast);
  const text = [
    "/** The document's schemas an operation below refers to, as openapi-typescript writes them. */",
    body,
    '/** A query value is never null (nor is an item of a list): what the document allows as null is left out instead. */',
    'type NonNullQueryValue<Value> = Value extends readonly (infer Item)[] ? Exclude<Item, null>[] : Exclude<Value, null>;',
    'type WithoutNull<Query> = { [Key in keyof Query]: NonNullQueryValue<Query[Key]> };',
    '',
    ...aliases,
    '',
  ].join('\n');
  return { text, names };
}

/** The request body's schema: JSON, else the form's (its byte fields left untyped, so the SDK's `FormFields` makes them files). */
function bodySchema({ operation }: FoundOperation, resolve: (value: unknown) => unknown): Schema | undefined {
  const requestBody = resolve(operation.requestBody);
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const content = requestBody.content as Record<string, { schema?: Schema }>;
  const json = content['application/json']?.schema;
  if (json) return json;
  const form = (content['multipart/form-data'] ?? content['application/x-www-form-urlencoded'])?.schema;
  return form && withoutBytes(resolve(form) as Schema, resolve);
}

function withoutBytes(schema: Schema, resolve: (value: unknown) => unknown): Schema {
  if (!isObject(schema.properties)) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const resolved = resolve(property);
      const bytes = isObject(resolved) && (resolved.contentEncoding === 'binary' || resolved.format === 'binary');
      return [name, bytes ? {} : property];
    }),
  );
  return { ...schema, properties };
}

function querySchema(
  { operation, pathItem }: FoundOperation,
  resolve: (value: unknown) => unknown,
): Schema | undefined {
  const parameters = [...asList(pathItem.parameters), ...asList(operation.parameters)]
    .map(resolve)
    .filter((parameter): parameter is Record<string, unknown> => isObject(parameter) && parameter.in === 'query');
  if (parameters.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name as string, parameter.schema ?? {}])),
    required: parameters
      .filter((parameter) => parameter.required === true)
      .map((parameter) => parameter.name as string),
  };
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The success answer's JSON schema; 'empty' when every success is 204 No Content. */
function resultSchema(
  { operation }: FoundOperation,
  resolve: (value: unknown) => unknown,
): Schema | 'empty' | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const successes = Object.entries(responses).filter(([status]) => /^2/.test(status));
  const schemas = successes
    .map(([, response]) => resolve(response))
    .map((response) =>
      isObject(response) && isObject(response.content)
        ? (response.content as Record<string, { schema?: Schema }>)
        : undefined,
    )
    .map((content) => content?.['application/json']?.schema)
    .filter((schema): schema is Schema => schema !== undefined);
  if (schemas.length === 0) return successes.length > 0 ? 'empty' : undefined;
  return schemas.length === 1 ? schemas[0] : { anyOf: schemas };
}
