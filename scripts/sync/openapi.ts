/**
 * Reads an OpenAPI 3.x document of the service into the facts the catalog keeps per operation:
 * method and path, path and query parameters, the body and how it is sent, a binary result, and
 * who may call it. Pure: the document is already parsed. A document the catalog cannot follow
 * throws a `SpecInputError` with one line that says why.
 */
import { HTTP_METHODS, type CatalogAuth, type HttpMethod } from '../../catalog/schema.ts';
import { capitalized } from '../words.ts';

/** The API version the catalog speaks; a document of another version is refused. */
export const API_VERSION = '10';

/** A document the catalog cannot follow; the message is one line. */
export class SpecInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecInputError';
  }
}

export interface SpecParameter {
  readonly name: string;
  readonly required: boolean;
  /** The schema's `maximum`, where it has one (a page's largest `limit`). */
  readonly maximum?: number;
  /** The value is an ISO timestamp (`format: date-time`), not an id. */
  readonly timestamp?: true;
}

/** What a success's JSON is, as far as paging cares: a list, or an object with lists and `has_more`. */
export interface ResultShape {
  readonly list: boolean;
  /** Members that are lists. */
  readonly lists: readonly string[];
  /** Other members (`has_more`, `total_results`). */
  readonly members: readonly string[];
}

export interface SpecPathParameter {
  readonly name: string;
  /** Typed as the service's id (`SnowflakeType`), so the catalog checks it as one. */
  readonly snowflake: boolean;
}

/** One operation of the document, as the catalog sees it. */
export interface SpecOperation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path as the document writes it, placeholders included (`/lobbies/{lobby_id}`). */
  readonly path: string;
  /** The document's summary or description, else the operationId in words ("Get Lobby"). */
  readonly summary: string;
  /** Path parameters in path order. */
  readonly pathParameters: readonly SpecPathParameter[];
  /** Query parameters in the document's order. */
  readonly query: readonly SpecParameter[];
  readonly body: 'none' | 'required' | 'optional';
  readonly encoding: 'json' | 'json+files' | 'form-data' | 'urlencoded';
  /** `json+files`: the body member that holds the message (`data`, `message`), or null: the body. */
  readonly attachmentsIn: 'data' | 'message' | null;
  /** Where a JSON body takes `allowed_mentions`: the body itself, its `data` or its `message`; null: nowhere. */
  readonly allowedMentionsIn: 'body' | 'data' | 'message' | null;
  /** A success answers bytes (`image/png`, `text/csv`), not JSON. */
  readonly binaryResult: boolean;
  /** A success answers a JSON array (a list). */
  readonly arrayResult: boolean;
  /** Every success is empty (204 No Content). */
  readonly emptyResult: boolean;
  /** The first JSON success's shape. */
  readonly resultShape: ResultShape;
  /** Who may call it, from `security`. */
  readonly auth: CatalogAuth;
  /** OpenAPI's own `deprecated` flag (Discord renames the operationId `deprecated_…` instead). */
  readonly deprecated: boolean;
}

export interface SpecDocument {
  readonly operations: readonly SpecOperation[];
  /** The document as given, for the types generated from its schemas. */
  readonly document: OpenApiDocument;
}

/** The parts of an OpenAPI document read here. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly version: string; readonly title?: string };
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components?: {
    readonly schemas?: Readonly<Record<string, Schema>>;
    readonly securitySchemes?: Readonly<Record<string, unknown>>;
  };
}

/** A JSON Schema object, as far as it is walked here. */
export type Schema = { readonly [key: string]: unknown };

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks that `input` is an OpenAPI 3.x document of API v10; throws SpecInputError otherwise. */
export function asOpenApiDocument(input: unknown): OpenApiDocument {
  if (!isObject(input) || typeof input.openapi !== 'string') {
    throw new SpecInputError('not an OpenAPI document: it has no "openapi" version field');
  }
  if (!/^3\.\d+(\.\d+)?$/.test(input.openapi)) {
    throw new SpecInputError(`OpenAPI ${input.openapi} is not supported: the catalog reads OpenAPI 3.x`);
  }
  if (!isObject(input.info) || typeof input.info.version !== 'string') {
    throw new SpecInputError('not an OpenAPI document: it has no info.version');
  }
  if (input.info.version !== API_VERSION) {
    throw new SpecInputError(
      `the document describes API version ${input.info.version}; the catalog follows version ${API_VERSION}`,
    );
  }
  if (!isObject(input.paths)) throw new SpecInputError('not an OpenAPI document: it has no "paths" object');
  return input as unknown as OpenApiDocument;
}

/** Reads every operation of the document, in document order (paths, then methods as HTTP_METHODS lists them). */
export function readSpec(input: unknown): SpecDocument {
  const document = asOpenApiDocument(input);
  const resolver = new Resolver(document);
  const allScopes = oauth2Scopes(document);
  const operations: SpecOperation[] = [];
  const seenIds = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) throw new SpecInputError(`path ${path}: its item is not an object`);
    // The naming rules make a word of each segment: an empty one would make an empty word.
    if (!/^(\/[^/]+)+$/.test(path)) {
      throw new SpecInputError(
        `path "${path}": not a path the catalog can name (it starts with / and no segment is empty)`,
      );
    }
    const shared = parameterList(item.parameters, resolver, `path ${path}`);
    for (const method of HTTP_METHODS) {
      const raw = item[method.toLowerCase()];
      if (raw === undefined) continue;
      const where = `${method} ${path}`;
      if (!isObject(raw)) throw new SpecInputError(`${where}: the operation is not an object`);
      if (typeof raw.operationId !== 'string' || raw.operationId === '') {
        throw new SpecInputError(`${where}: the operation has no operationId`);
      }
      const earlier = seenIds.get(raw.operationId);
      if (earlier) throw new SpecInputError(`${where}: operationId "${raw.operationId}" is also ${earlier}`);
      seenIds.set(raw.operationId, where);
      operations.push(readOperation(method, path, raw, shared, resolver, allScopes));
    }
  }
  return { operations, document };
}

interface RawParameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: unknown;
}

function parameterList(input: unknown, resolver: Resolver, where: string): RawParameter[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) throw new SpecInputError(`${where}: "parameters" is not a list`);
  return input.map((entry) => {
    const parameter = resolver.resolve(entry);
    if (!isObject(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') {
      throw new SpecInputError(`${where}: a parameter has no name or no "in"`);
    }
    return { name: parameter.name, in: parameter.in, required: parameter.required === true, schema: parameter.schema };
  });
}

function readOperation(
  method: HttpMethod,
  path: string,
  raw: Record<string, unknown>,
  shared: readonly RawParameter[],
  resolver: Resolver,
  allScopes: readonly string[],
): SpecOperation {
  const where = `${method} ${path}`;
  const own = parameterList(raw.parameters, resolver, where);
  // An operation's own parameter overrides the path item's of the same name and place.
  const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
  const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const pathParameters = placeholders.map((name) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return { name, snowflake: parameter !== undefined && resolver.isSnowflake(parameter.schema) };
  });
  const query = parameters
    .filter((p) => p.in === 'query')
    .map(({ name, required, schema }) => {
      const resolved = resolver.resolve(schema);
      const maximum = isObject(resolved) && typeof resolved.maximum === 'number' ? resolved.maximum : undefined;
      const timestamp = isObject(resolved) && resolved.format === 'date-time';
      return {
        name,
        required,
        ...(maximum !== undefined && { maximum }),
        ...(timestamp && { timestamp: true as const }),
      };
    });
  const operationId = raw.operationId as string;
  const text = [raw.summary, raw.description].find((value) => typeof value === 'string' && value.trim() !== '');
  const summary = typeof text === 'string' ? firstSentence(text) : words(operationId);
  const { body, encoding, attachmentsIn, allowedMentionsIn } = readBody(raw.requestBody, resolver, where);
  const { binaryResult, arrayResult, emptyResult } = readResult(raw.responses, resolver);
  return {
    operationId,
    method,
    path,
    summary,
    pathParameters,
    query,
    body,
    encoding,
    attachmentsIn,
    allowedMentionsIn,
    binaryResult,
    arrayResult,
    emptyResult,
    resultShape: resolver.shapeOf(raw.responses),
    auth: readAuth(raw.security, allScopes, where),
    deprecated: raw.deprecated === true,
  };
}

/** "get_openid_connect_userinfo" → "Get Openid Connect Userinfo". */
const words = (operationId: string) => operationId.split('_').filter(Boolean).map(capitalized).join(' ');

const firstSentence = (text: string) =>
  text
    .trim()
    .split(/(?<=\.)\s/)[0]!
    .replace(/\.$/, '');

const CONTENT = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  urlencoded: 'application/x-www-form-urlencoded',
} as const;

/**
 * The body and how it is sent, from its content types:
 * - JSON whose message takes `attachments` (at the top, in `data` or in `message`), or JSON
 *   beside a multipart form of `files[n]`: `json+files`;
 * - other JSON: `json`; a multipart form alone: `form-data`; a urlencoded form alone: `urlencoded`.
 */
function readBody(
  input: unknown,
  resolver: Resolver,
  where: string,
): Pick<SpecOperation, 'body' | 'encoding' | 'attachmentsIn' | 'allowedMentionsIn'> {
  const requestBody = resolver.resolve(input);
  const none = { attachmentsIn: null, allowedMentionsIn: null };
  if (requestBody === undefined) return { body: 'none', encoding: 'json', ...none };
  if (!isObject(requestBody) || !isObject(requestBody.content)) {
    throw new SpecInputError(`${where}: the request body has no content types`);
  }
  const content = requestBody.content;
  const body = requestBody.required === true ? 'required' : 'optional';
  const schemaOf = (type: string) => (isObject(content[type]) ? (content[type] as Schema).schema : undefined);
  if (CONTENT.json in content) {
    const json = schemaOf(CONTENT.json);
    const memberHolding = (property: string, test?: (value: unknown) => boolean) =>
      MESSAGE_HOLDERS.find((member) =>
        resolver.hasProperty(json, member === 'body' ? [property] : [member, property], test),
      ) ?? null;
    // Uploaded files' metadata (`{ id, filename }`), not another kind of attachment (Slack's).
    const isFileList = (attachments: unknown) => resolver.hasProperty(resolver.itemsOf(attachments), ['filename']);
    const holder = memberHolding('attachments', isFileList);
    const allowedMentionsIn = memberHolding('allowed_mentions');
    const files = CONTENT.multipart in content && resolver.binaryFields(schemaOf(CONTENT.multipart)).some(isFilesField);
    if (holder !== null || files) {
      return { body, encoding: 'json+files', attachmentsIn: holder === 'body' ? null : holder, allowedMentionsIn };
    }
    return { body, encoding: 'json', attachmentsIn: null, allowedMentionsIn };
  }
  if (CONTENT.multipart in content) return { body, encoding: 'form-data', ...none };
  if (CONTENT.urlencoded in content) return { body, encoding: 'urlencoded', ...none };
  throw new SpecInputError(
    `${where}: the request body's content types (${Object.keys(content).join(', ')}) are not JSON or a form`,
  );
}

/** Where a body may hold a message: itself, an interaction response's `data`, a forum post's `message`. */
const MESSAGE_HOLDERS = ['body', 'data', 'message'] as const;

const isFilesField = (name: string) => /^files\[\d+\]$/.test(name);

function readResult(
  input: unknown,
  resolver: Resolver,
): Pick<SpecOperation, 'binaryResult' | 'arrayResult' | 'emptyResult'> {
  let binaryResult = false;
  let arrayResult = false;
  let successes = 0;
  let empty = 0;
  if (!isObject(input)) return { binaryResult, arrayResult, emptyResult: false };
  for (const [status, raw] of Object.entries(input)) {
    if (!/^2/.test(status)) continue;
    successes++;
    const response = resolver.resolve(raw);
    if (!isObject(response) || !isObject(response.content) || Object.keys(response.content).length === 0) {
      empty++;
      continue;
    }
    for (const [type, media] of Object.entries(response.content)) {
      if (type !== CONTENT.json) binaryResult = true;
      else if (isObject(media) && resolver.isArray(media.schema)) arrayResult = true;
    }
  }
  return { binaryResult, arrayResult, emptyResult: successes > 0 && empty === successes };
}

/** Every scope the document's OAuth2 scheme names: a requirement listing them all is "any scope". */
function oauth2Scopes(document: OpenApiDocument): string[] {
  const scheme = document.components?.securitySchemes?.OAuth2;
  const scopes = new Set<string>();
  if (isObject(scheme) && isObject(scheme.flows)) {
    for (const flow of Object.values(scheme.flows)) {
      if (isObject(flow) && isObject(flow.scopes)) for (const scope of Object.keys(flow.scopes)) scopes.add(scope);
    }
  }
  return [...scopes];
}

/** Who may call it: a bot token, an OAuth2 Bearer token (with one of its scopes), or no token at all. */
function readAuth(input: unknown, allScopes: readonly string[], where: string): CatalogAuth {
  // No `security`: the document's default, which Discord's is not; read as "a bot token".
  if (input === undefined) return { bot: true };
  if (!Array.isArray(input)) throw new SpecInputError(`${where}: "security" is not a list`);
  let bot = false;
  let none = false;
  let oauth2: string[] | undefined;
  for (const requirement of input) {
    if (!isObject(requirement)) throw new SpecInputError(`${where}: a security requirement is not an object`);
    const schemes = Object.keys(requirement);
    if (schemes.length === 0) none = true;
    for (const scheme of schemes) {
      if (scheme === 'BotToken') bot = true;
      else if (scheme === 'OAuth2') {
        const scopes = requirement[scheme];
        if (!Array.isArray(scopes))
          throw new SpecInputError(`${where}: the OAuth2 requirement's scopes are not a list`);
        const all = allScopes.length > 0 && allScopes.every((scope) => scopes.includes(scope));
        oauth2 = all ? [] : scopes.map(String);
      } else throw new SpecInputError(`${where}: unknown security scheme "${scheme}"`);
    }
  }
  return { bot, ...(oauth2 && { oauth2 }), ...(none && { none: true as const }) };
}

/** Follows `$ref`s inside the document and answers the few questions asked of schemas here. */
export class Resolver {
  readonly #document: OpenApiDocument;
  constructor(document: OpenApiDocument) {
    this.#document = document;
  }

  /** The value a local `$ref` points at (`#/components/...`); other values as they are. */
  resolve(value: unknown, depth = 0): unknown {
    if (!isObject(value) || typeof value.$ref !== 'string') return value;
    if (depth > 32) throw new SpecInputError(`a $ref chain through ${value.$ref} does not end`);
    const ref = value.$ref;
    if (!ref.startsWith('#/')) throw new SpecInputError(`external $ref "${ref}" is not supported`);
    let target: unknown = this.#document;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (target === undefined) throw new SpecInputError(`$ref "${ref}" points at nothing`);
    return this.resolve(target, depth + 1);
  }

  /** The schemas a schema stands for: itself, and the members of its allOf, anyOf and oneOf. */
  #variants(input: unknown, depth = 0): Schema[] {
    const schema = this.resolve(input);
    if (!isObject(schema) || depth > 8) return [];
    const nested = ['allOf', 'anyOf', 'oneOf'].flatMap((key) =>
      Array.isArray(schema[key])
        ? (schema[key] as unknown[]).flatMap((member) => this.#variants(member, depth + 1))
        : [],
    );
    return [schema, ...nested];
  }

  /** Whether some variant of the schema has the property path (`['data', 'attachments']`), the last one as `test` wants. */
  hasProperty(input: unknown, path: readonly string[], test: (property: unknown) => boolean = () => true): boolean {
    const [head, ...rest] = path;
    return this.#variants(input).some((schema) => {
      const property = isObject(schema.properties) ? schema.properties[head!] : undefined;
      if (property === undefined) return false;
      return rest.length === 0 ? test(property) : this.hasProperty(property, rest, test);
    });
  }

  /** The first JSON success's shape: a list, or an object's list members and other members. */
  shapeOf(responses: unknown): ResultShape {
    const success = isObject(responses)
      ? Object.entries(responses).find(([status, response]) => {
          const resolved = this.resolve(response);
          return (
            /^2/.test(status) && isObject(resolved) && isObject(resolved.content) && CONTENT.json in resolved.content
          );
        })
      : undefined;
    const content = success && ((this.resolve(success[1]) as Schema).content as Record<string, Schema>);
    const schema = content?.[CONTENT.json]?.schema;
    if (this.isArray(schema)) return { list: true, lists: [], members: [] };
    const properties = this.#variants(schema).flatMap((variant) =>
      Object.entries(isObject(variant.properties) ? variant.properties : {}),
    );
    return {
      list: false,
      lists: [...new Set(properties.filter(([, property]) => this.isArray(property)).map(([name]) => name))],
      members: [...new Set(properties.filter(([, property]) => !this.isArray(property)).map(([name]) => name))],
    };
  }

  /** The item schema of an array schema (undefined for anything else). */
  itemsOf(input: unknown): unknown {
    const schema = this.resolve(input);
    return isObject(schema) ? schema.items : undefined;
  }

  /** The names of a form's fields that are bytes. */
  binaryFields(input: unknown): string[] {
    return this.#variants(input).flatMap((schema) =>
      Object.entries(isObject(schema.properties) ? schema.properties : {})
        .filter(([, property]) => {
          const resolved = this.resolve(property);
          return isObject(resolved) && (resolved.contentEncoding === 'binary' || resolved.format === 'binary');
        })
        .map(([name]) => name),
    );
  }

  isSnowflake(input: unknown): boolean {
    return isObject(input) && input.$ref === '#/components/schemas/SnowflakeType';
  }

  isArray(input: unknown): boolean {
    const schema = this.resolve(input);
    if (!isObject(schema)) return false;
    return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
  }
}
