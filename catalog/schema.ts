/**
 * The catalog's schema: what a route-key entry may say, checked by zod when the generator runs.
 *
 * Shape rules live in the zod objects; rules that span entries (unique keys and operation
 * names, placeholders known and well formed, the major parameter present in every path) live in
 * `checkCatalog`. Every message names the entry it is about, so a bad catalog edit points at
 * its own line.
 */
import { z } from 'zod';
import { cdnCatalogSchema, checkCdnCatalog, describeCdnPath } from './cdn-schema.ts';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The spec's two major parameters; a key has one of them or none. */
export const MAJOR_PARAMETERS = ['channel_id', 'guild_id'] as const;

/**
 * The agreed verb vocabulary: `list`/`get`/`create`/`edit`/`delete`, plus specific verbs where those
 * do not fit. The last segment of every operation name must be one of these.
 */
export const VERBS = [
  'list',
  'get',
  'create',
  'edit',
  'delete',
  'add',
  'remove',
  'bulkDelete',
  'deleteAll',
  'deleteOwn',
  'deleteUser',
  'deleteEmoji',
  'editPositions',
  'replace',
  'sync',
  'trigger',
  'search',
  'ack',
  'leave',
  'join',
  'count',
  'begin',
  'execute',
  'crosspost',
  'expire',
  'send',
  'consume',
  'listJoinedPrivate',
  'getWithToken',
  'editWithToken',
  'deleteWithToken',
  'revoke',
  'url',
] as const;

/**
 * How a path parameter is checked and encoded before any request:
 * - `snowflake`: an unsigned 64-bit id, decimal string or bigint;
 * - `code`: an opaque string (invite code), percent-encoded;
 * - `emoji`: a reaction, `name:id` or unicode, percent-encoded;
 * - `secret`: an opaque string that is a credential (webhook token): percent-encoded, and never
 *   part of a bucket key, an event or an error message.
 */
export const PARAMETER_KINDS = ['snowflake', 'code', 'emoji', 'secret'] as const;
export type ParameterKind = (typeof PARAMETER_KINDS)[number];

const placeholder = /^\{([a-z][a-z0-9_]*)\}$/;
const literalSegment = /^[A-Za-z0-9@._-]+$/;

/**
 * Who may call an operation, from the `security` of Discord's OpenAPI document. Absent: a bot
 * token alone (most operations).
 */
export const authSchema = z.strictObject({
  /** A bot token (`Bot …`) is accepted. */
  bot: z.boolean(),
  /** An OAuth2 Bearer token is accepted, with one of these scopes (`[]`: any scope). */
  oauth2: z.array(z.string().min(1)).optional(),
  /** Callable without a token: the service serves it without Authorization. */
  none: z.literal(true).optional(),
});
export type CatalogAuth = z.infer<typeof authSchema>;

/**
 * The facts `npm run catalog:sync` keeps in step with Discord's OpenAPI document. A person may
 * keep one against the document with `keep: { fact: 'why' }`; the sync then reports it and
 * leaves it.
 */
export const SYNCED_FACTS = [
  'query',
  'queryRequired',
  'body',
  'encoding',
  'allowedMentionsIn',
  'binaryResult',
  'auth',
] as const;
export type SyncedFact = (typeof SYNCED_FACTS)[number];

/**
 * How a list is paged, for its iterators (`listAll`, `listPages`) and the reference service.
 * - `id`: `before`/`after` take an item's id (channel history, members, bans…);
 * - `timestamp`: `before` takes an item's ISO timestamp, and the result says `has_more` (pins,
 *   archived threads);
 * - `offset`: `offset` counts the items to skip (search).
 */
export const paginateSchema = z.strictObject({
  cursor: z.enum(['id', 'timestamp', 'offset']),
  /** The cursor parameters the endpoint takes (none for `offset`). */
  parameters: z.array(z.enum(['before', 'after'])),
  /** The walk without a cursor: a history is newest-first, a roster oldest-first. */
  order: z.enum(['newest-first', 'oldest-first']),
  /** How the service sorts a page, by the cursor's field. */
  pageOrder: z.enum(['ascending', 'descending']),
  /** The largest page the endpoint gives (its `limit`'s maximum). */
  limit: z.int().positive(),
  /** `offset`: the largest offset the endpoint takes. */
  maxOffset: z.int().nonnegative().optional(),
  /** The result's member that holds the items (`audit_log_entries`); absent: the result is the list. */
  items: z
    .string()
    .regex(/^[a-z_]+$/)
    .optional(),
  /** The item's field the next cursor comes from, dotted (`id`, `user.id`, `pinned_at`); `offset`: the sort key. */
  cursorFrom: z.string().regex(/^[a-z_]+(\.[a-z_]+)*$/),
  /** The result's member that says whether more pages follow. */
  hasMore: z
    .string()
    .regex(/^[a-z_]+$/)
    .optional(),
  /** The result's member with the number of items in all (`total_results`). */
  total: z
    .string()
    .regex(/^[a-z_]+$/)
    .optional(),
  /** Each item comes as a list whose first member is the item (a message search's hits). */
  nested: z.literal(true).optional(),
  /** The service may answer 202 with `retry_after` while it builds the list: try again then. */
  tryLater: z.literal(true).optional(),
});
export type CatalogPagination = z.infer<typeof paginateSchema>;

const typeName = z
  .string()
  .regex(
    /^REST[A-Za-z0-9]+( \| REST[A-Za-z0-9]+)*$/,
    'a type name exported by discord-api-types, such as "RESTGetAPIChannelResult", or a union of them ("A | B")',
  );

const operationSchema = z.strictObject({
  name: z
    .string()
    .regex(
      /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/,
      'operation names are dotted camelCase identifiers such as "channels.messages.delete"',
    ),
  method: z.enum(HTTP_METHODS),
  /** Defaults to the route's path. */
  path: z.string().optional(),
  /** The name the service's documentation gives the endpoint. */
  summary: z.string().min(1),
  /** A request body, `required` or `optional`: JSON unless `encoding` says otherwise. */
  body: z.enum(['required', 'optional']).optional(),
  /**
   * How a body other than JSON is sent (a FormData body is always sent as it is):
   * - `json+files`: JSON, or with `files: [{ name, data }]` multipart with the JSON as `payload_json`;
   * - `form-data`: multipart, one part per field, a `{ name, data }` field as a file (stickers);
   * - `urlencoded`: `application/x-www-form-urlencoded` (OAuth2's token endpoints).
   */
  encoding: z.enum(['json+files', 'form-data', 'urlencoded']).optional(),
  /**
   * `json+files`: the body's member that holds the message, where `attachments` goes (an
   * interaction response's `data`, a forum post's `message`); default: the body itself.
   */
  attachmentsIn: z.enum(['data', 'message']).optional(),
  /**
   * Where the JSON body takes `allowed_mentions`: the body itself, an interaction response's
   * `data`, a forum post's `message`. The client's `allowedMentions` default is filled in there.
   */
  allowedMentionsIn: z.enum(['body', 'data', 'message']).optional(),
  /** The result is bytes (an image, a CSV file): the method returns an ArrayBuffer. */
  binaryResult: z.literal(true).optional(),
  /**
   * A page the user's browser opens (OAuth2 authorization), not an API call: the method returns
   * its URL with the query and sends nothing.
   */
  link: z.literal(true).optional(),
  /** Documented query parameters, in documentation order. */
  query: z
    .array(z.string().regex(/^[a-z][a-z0-9_-]*$/))
    .nonempty()
    .optional(),
  /**
   * `options`: the method's parameters are its query and the body goes in `options.body`. The
   * sync sets it when an operation that had a query and no body gains a body, so that calls
   * written before keep their meaning (docs/design.md, "Signatures that additions cannot break").
   */
  bodyIn: z.literal('options').optional(),
  /** The query has required parameters, so a read without a body must be given one. */
  queryRequired: z.literal(true).optional(),
  /** Only user accounts may call it; kept because its route key is in the spec. */
  userOnly: z.literal(true).optional(),
  /** Sent without the Authorization header (the path carries its own credential). */
  unauthenticated: z.literal(true).optional(),
  /** Takes the audit-log reason (`reason` option → `X-Audit-Log-Reason`). */
  auditLogReason: z.literal(true).optional(),
  /** Why the operation is deprecated and what to use instead. */
  deprecated: z.string().min(1).optional(),
  /**
   * The operation of Discord's OpenAPI document this entry follows (`npm run catalog:sync`).
   * Absent: kept by hand (the seed's v6 routes, user-only and documented-only operations).
   */
  operationId: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'an operationId of the OpenAPI document, such as "list_messages"')
    .optional(),
  /** Who may call it (absent: a bot token alone). */
  auth: authSchema.optional(),
  /**
   * The catalog operation this one is, sent on another path (an interaction's follow-up is the
   * webhook's execute, with the application's id and the interaction's token). It takes what is
   * sent from its twin (WIRE_FACTS), so the sync, which follows the twin, keeps both; it has its
   * own name, path, summary and types, and follows no operationId itself.
   */
  sameAs: z.string().optional(),
  /**
   * The build of Discord's OpenAPI document that no longer has this operation: it stays
   * callable, and its method is `@deprecated` (`catalog:sync --prune` removes it).
   */
  removedIn: z.string().min(1).optional(),
  /**
   * The operation that replaces this one, removed from the document: Discord moved its
   * operationId to another path, drafted under this name. This method stays, `@deprecated`.
   */
  renamedTo: z.string().min(1).optional(),
  /** Facts kept against the document, each with why (see SYNCED_FACTS). */
  keep: z.partialRecord(z.enum(SYNCED_FACTS), z.string().min(1)).optional(),
  /** A paged list: how to walk it (its iterators are generated from this). */
  paginate: paginateSchema.optional(),
  /**
   * The operation's types in `discord-api-types` (`from`: its v10 module by default, v6 for
   * v6-only operations): the JSON body, the query and the result. Untyped parts stay `JsonBody`,
   * the documented query names, and `unknown`.
   */
  types: z
    .strictObject({
      from: z.enum(['v10', 'v6']).optional(),
      body: typeName.optional(),
      query: typeName.optional(),
      /** `undefined`: the service answers 204 No Content and discord-api-types names no type. */
      result: z.union([typeName, z.literal('undefined')]).optional(),
    })
    .optional(),
});

const routeSchema = z.strictObject({
  key: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'route keys are PascalCase words'),
  major: z.enum(MAJOR_PARAMETERS).nullable(),
  /** A route of the v10 API beyond the seed spec's keys (its key is tollgate's own). */
  v10Only: z.literal(true).optional(),
  /** The message-by-id key: its bucket key also holds the request method. */
  bucketHoldsMethod: z.literal(true).optional(),
  /** The path shape the spec gives for this key. */
  path: z.string(),
  /**
   * Where the path comes from: `spec`, the seed's rate-limit spec shows it; `documented`, the
   * service's documentation; `openapi`, Discord's OpenAPI document (drafted by `catalog:sync`).
   */
  pathSource: z.enum(['spec', 'documented', 'openapi']),
  /** Further path shapes the service classifies under this key, without operations of their own. */
  aliases: z.array(z.string()).optional(),
  /** What a caller of the route's methods should know: it goes into their JSDoc. */
  note: z.string().optional(),
  /** A fact of v6's route key alone (its major parameter, what its bucket holds): for readers of the catalog, in no JSDoc. */
  v6Note: z.string().optional(),
  operations: z.array(operationSchema),
});

export const catalogSchema = z.strictObject({
  /** Every placeholder that may appear in a path, with how it is checked and encoded. */
  parameters: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.enum(PARAMETER_KINDS)),
  routes: z.array(routeSchema).nonempty(),
  /** The CDN's image endpoints, from which the URL helpers are generated (`cdn-schema.ts`). */
  cdn: cdnCatalogSchema,
});

export type Catalog = z.infer<typeof catalogSchema>;
export type CatalogRoute = Catalog['routes'][number];
export type CatalogOperation = CatalogRoute['operations'][number];

/** A catalog that failed validation; `problems` lists every finding, each naming its entry. */
export class CatalogError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`The route catalog is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'CatalogError';
    this.problems = problems;
  }
}

/**
 * Parses and checks a catalog; throws a CatalogError that names every bad entry. An operation
 * with `sameAs` comes back with its twin's wire facts.
 */
export function parseCatalog(input: unknown): Catalog {
  const parsed = catalogSchema.safeParse(input);
  if (!parsed.success) {
    throw new CatalogError(parsed.error.issues.map((issue) => `${describePath(input, issue.path)}: ${issue.message}`));
  }
  const { catalog, problems: twinProblems } = withTwinFacts(parsed.data);
  const problems = [...twinProblems, ...checkCatalog(catalog)];
  if (problems.length > 0) throw new CatalogError(problems);
  return catalog;
}

/** What an operation with `sameAs` takes from its twin: everything about what is sent, and who may send it. */
export const WIRE_FACTS = [
  'body',
  'encoding',
  'attachmentsIn',
  'allowedMentionsIn',
  'bodyIn',
  'binaryResult',
  'query',
  'queryRequired',
  'unauthenticated',
  'auth',
] as const satisfies readonly (keyof CatalogOperation)[];

/** The same about the document, which the twin follows and this one may not follow itself. */
const TWIN_OWNS = ['operationId', 'keep', 'removedIn', 'renamedTo', 'paginate', 'auditLogReason', 'link'] as const;

/** The catalog with each `sameAs` operation's wire facts copied from its twin, and what is wrong with any. */
function withTwinFacts(catalog: Catalog): { catalog: Catalog; problems: string[] } {
  const byName = new Map(catalog.routes.flatMap((route) => route.operations.map((op) => [op.name, op] as const)));
  const problems: string[] = [];
  const resolve = (operation: CatalogOperation): CatalogOperation => {
    if (operation.sameAs === undefined) return operation;
    const where = `operation "${operation.name}"`;
    const twin = byName.get(operation.sameAs);
    // Facts equal to the twin's are allowed, so that a catalog parsed once parses again the same.
    const differs = (fact: (typeof WIRE_FACTS)[number]) =>
      operation[fact] !== undefined && JSON.stringify(operation[fact]) !== JSON.stringify(twin?.[fact]);
    const set = [...WIRE_FACTS.filter(differs), ...TWIN_OWNS.filter((fact) => operation[fact] !== undefined)];
    if (set.length > 0) problems.push(`${where}: ${set.join(', ')} come from its twin (sameAs), not from itself`);
    if (twin === undefined) problems.push(`${where}: sameAs names no operation ("${operation.sameAs}")`);
    else if (twin.sameAs !== undefined)
      problems.push(`${where}: its twin "${twin.name}" is itself the twin of another`);
    else if (twin.method !== operation.method) problems.push(`${where}: its twin "${twin.name}" is a ${twin.method}`);
    if (twin === undefined) return operation;
    const facts = Object.fromEntries(
      WIRE_FACTS.flatMap((fact) => (twin[fact] === undefined ? [] : [[fact, twin[fact]]])),
    );
    return { ...operation, ...facts };
  };
  const routes = catalog.routes.map((route) => ({ ...route, operations: route.operations.map(resolve) }));
  return { catalog: { ...catalog, routes: routes as Catalog['routes'] }, problems };
}

/** Names the entry an issue path points into: `route "ChannelsId" (routes[0]).operations[1].name`. */
function describePath(input: unknown, path: readonly PropertyKey[]): string {
  if (path[0] === 'cdn') return describeCdnPath((input as { cdn?: unknown }).cdn, path.slice(1));
  if (path[0] === 'routes' && typeof path[1] === 'number') {
    const routes = (input as { routes?: unknown[] }).routes;
    const key = (routes?.[path[1]] as { key?: unknown } | undefined)?.key;
    const label = typeof key === 'string' ? `route "${key}" (routes[${path[1]}])` : `routes[${path[1]}]`;
    return [label, ...path.slice(2).map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))].join(
      '',
    );
  }
  return path.length === 0 ? 'catalog' : path.map(String).join('.');
}

/** A path with every placeholder as `{}`: what two paths of one shape share (`/channels/{}`). */
export const shapeOf = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** Splits a path shape into segments; returns problems instead of throwing. */
export function pathPlaceholders(path: string): { placeholders: string[]; problems: string[] } {
  const problems: string[] = [];
  const placeholders: string[] = [];
  if (!path.startsWith('/')) problems.push(`path "${path}" must start with "/"`);
  for (const segment of path.split('/').slice(1)) {
    const match = placeholder.exec(segment);
    if (match) {
      const name = match[1]!;
      if (placeholders.includes(name)) problems.push(`path "${path}" uses {${name}} twice`);
      placeholders.push(name);
    } else if (!literalSegment.test(segment)) {
      problems.push(`path "${path}" has a malformed segment "${segment}"`);
    }
  }
  return { placeholders, problems };
}

/** The rules that span entries. Returns every problem found, each naming its entry. */
export function checkCatalog(catalog: Catalog): string[] {
  const seen: Seen = { keys: new Map(), operationNames: new Map(), routeShapes: new Map(), operationIds: new Map() };
  return [
    ...catalog.routes.flatMap((route, index) => routeProblems(catalog, route, index, seen)),
    ...iteratorNameProblems(catalog, seen.operationNames),
    ...namespaceProblems(seen.operationNames),
    ...checkCdnCatalog(catalog.cdn),
    ...majorParameterProblems(catalog.parameters),
  ];
}

/** What must be unique across routes, as `checkCatalog` has met it so far, with where it was first. */
interface Seen {
  /** Route keys, to the index of their route. */
  readonly keys: Map<string, number>;
  /** Operation names, to their route's key. */
  readonly operationNames: Map<string, string>;
  /** Path shapes (`shapeOf`), to the key of the route they are classified under. */
  readonly routeShapes: Map<string, string>;
  /** operationIds, to their operation's name. */
  readonly operationIds: Map<string, string>;
}

/** A route's problems, then its operations', each prefixed with the entry it is about. */
function routeProblems(catalog: Catalog, route: CatalogRoute, index: number, seen: Seen): string[] {
  const where = `route "${route.key}" (routes[${index}])`;
  const ownProblems = [...routeKeyProblems(route, index, seen.keys), ...routeShapeProblems(catalog, route, seen)];
  const methodsSeen = new Map<string, string>();
  return [
    ...ownProblems.map((problem) => `${where}: ${problem}`),
    ...route.operations.flatMap((operation, opIndex) => {
      const opWhere = `${where}.operations[${opIndex}] "${operation.name}"`;
      return operationProblems(route, operation, methodsSeen, seen).map((problem) => `${opWhere}: ${problem}`);
    }),
  ];
}

/** A route's key: listed once, not "None"; and a bucket holding the method needs a major parameter. */
function routeKeyProblems(route: CatalogRoute, index: number, keys: Seen['keys']): string[] {
  const problems: string[] = [];
  if (route.key === 'None') problems.push('"None" is implicit (any unlisted path) and must not be listed');
  const earlier = keys.get(route.key);
  if (earlier !== undefined) problems.push(`duplicate route key, first listed at routes[${earlier}]`);
  else keys.set(route.key, index);

  if (route.bucketHoldsMethod && route.major === null) {
    problems.push('bucketHoldsMethod needs a major parameter');
  }
  return problems;
}

/**
 * Every path shape of a route (its path, its aliases, its operations' own paths): well formed, its
 * parameters known, the major one in it, and classified under no other route.
 */
function routeShapeProblems(catalog: Catalog, route: CatalogRoute, seen: Seen): string[] {
  const problems: string[] = [];
  const shapes = [route.path, ...(route.aliases ?? []), ...route.operations.map((op) => op.path ?? route.path)];
  for (const shape of new Set(shapes)) {
    const { placeholders, problems: shapeProblems } = pathPlaceholders(shape);
    problems.push(...shapeProblems);
    for (const name of placeholders) {
      if (!(name in catalog.parameters)) problems.push(`path "${shape}" uses unknown parameter {${name}}`);
    }
    if (route.major !== null && !placeholders.includes(route.major)) {
      problems.push(`path "${shape}" lacks the major parameter {${route.major}}`);
    }
    const normalized = shapeOf(shape);
    const owner = seen.routeShapes.get(normalized);
    if (owner !== undefined && owner !== route.key) {
      problems.push(`path "${shape}" is already classified under route "${owner}"`);
    } else seen.routeShapes.set(normalized, route.key);
  }
  return problems;
}

/** An operation's problems, in the order its facts are checked. */
function operationProblems(
  route: CatalogRoute,
  operation: CatalogOperation,
  methodsSeen: Map<string, string>,
  seen: Seen,
): string[] {
  const problems = [
    ...operationNameProblems(route, operation, methodsSeen, seen.operationNames),
    ...operationFactProblems(operation),
    ...operationIdProblems(operation, seen.operationIds),
    ...(operation.paginate ? paginationProblems(operation) : []),
  ];
  if (operation.unauthenticated && operation.auth && !operation.auth.none) {
    problems.push('unauthenticated (sent without Authorization) needs auth.none (callable without a token)');
  }
  return problems;
}

/**
 * An operation's name (used once, ending in a verb of the vocabulary) and its endpoint (one
 * operation a method and path within its route).
 */
function operationNameProblems(
  route: CatalogRoute,
  operation: CatalogOperation,
  methodsSeen: Map<string, string>,
  operationNames: Seen['operationNames'],
): string[] {
  const problems: string[] = [];
  const firstOwner = operationNames.get(operation.name);
  if (firstOwner !== undefined) problems.push(`duplicate operation name, first used by route "${firstOwner}"`);
  else operationNames.set(operation.name, route.key);

  const verb = operation.name.split('.').at(-1)!;
  if (!(VERBS as readonly string[]).includes(verb)) {
    problems.push(`verb "${verb}" is not in the vocabulary (${VERBS.join(', ')})`);
  }
  const endpoint = `${operation.method} ${operation.path ?? route.path}`;
  if (methodsSeen.has(endpoint)) problems.push(`${endpoint} is already operation "${methodsSeen.get(endpoint)}"`);
  methodsSeen.set(endpoint, operation.name);
  return problems;
}

/** The facts of an operation that go together: a body, its encoding, its query, a link, a rename. */
function operationFactProblems(operation: CatalogOperation): string[] {
  const problems: string[] = [];
  if (operation.encoding && !operation.body) problems.push('encoding needs a body');
  if (operation.allowedMentionsIn && !operation.body) problems.push('allowedMentionsIn needs a body');
  if (operation.attachmentsIn && operation.encoding !== 'json+files') {
    problems.push("attachmentsIn needs encoding 'json+files'");
  }
  if (operation.link && (operation.method !== 'GET' || operation.body || operation.binaryResult || !operation.query)) {
    problems.push('a link is a GET with documented query parameters, no body and no binary result');
  }
  if (operation.body && operation.method === 'GET') problems.push('a GET request has no body');
  if (operation.types?.body && !operation.body) problems.push('types.body needs a body');
  if (operation.queryRequired && (!operation.query || operation.body || operation.link)) {
    problems.push("queryRequired needs documented query parameters and no body (a link's query is always required)");
  }
  if (operation.renamedTo !== undefined && operation.removedIn === undefined)
    problems.push('renamedTo goes with removedIn (the document no longer has this operation)');
  if (operation.paginate && operation.query?.includes('max'))
    problems.push('a paged list\'s query parameter "max" would meet its iterators\' own `max`');
  if (operation.bodyIn && (!operation.body || !operation.query))
    problems.push("bodyIn 'options' needs a body and documented query parameters");
  if (operation.types?.query && !operation.query) problems.push('types.query needs documented query parameters');
  return problems;
}

/** An operation's operationId: one operation's alone, and there for removedIn and keep. */
function operationIdProblems(operation: CatalogOperation, operationIds: Seen['operationIds']): string[] {
  const problems: string[] = [];
  // An operation renamed to another (renamedTo) keeps the operationId its successor follows now.
  if (operation.operationId !== undefined && operation.renamedTo === undefined) {
    const sibling = operationIds.get(operation.operationId);
    if (sibling !== undefined) problems.push(`operationId "${operation.operationId}" already belongs to "${sibling}"`);
    operationIds.set(operation.operationId, operation.name);
  }
  if ((operation.removedIn || operation.keep) && operation.operationId === undefined) {
    problems.push('removedIn and keep are about the OpenAPI document, so they need an operationId');
  }
  return problems;
}

/** A paged list's iterators (`listAll`, `listPages`) stand beside it: no operation may take their names. */
function iteratorNameProblems(catalog: Catalog, operationNames: Seen['operationNames']): string[] {
  const listNames = catalog.routes.flatMap((route) =>
    route.operations.filter((op) => op.paginate).map((op) => op.name),
  );
  return listNames
    .flatMap((list) => [`${list}All`, `${list}Pages`])
    .filter((name) => operationNames.has(name))
    .map((name) => `operation "${name}" has the name of a list's iterator`);
}

/** A namespace cannot also be a method: `channels.messages` may not be both. */
function namespaceProblems(operationNames: Seen['operationNames']): string[] {
  const names = [...operationNames.keys()];
  return names.flatMap((name) => {
    const clash = names.find((other) => other.startsWith(`${name}.`));
    return clash ? [`operation "${name}" is also the namespace of "${clash}"`] : [];
  });
}

/** The major parameters are snowflakes. */
function majorParameterProblems(parameters: Catalog['parameters']): string[] {
  return Object.entries(parameters).flatMap(([name, kind]) =>
    MAJOR_PARAMETERS.some((major) => major === name) && kind !== 'snowflake'
      ? [`parameter {${name}} is a major parameter and must be a snowflake`]
      : [],
  );
}

/** What a list's pagination facts must agree with: a read whose query takes `limit` and its cursors. */
function paginationProblems(operation: CatalogOperation): string[] {
  const facts = operation.paginate!;
  const problems: string[] = [];
  const query = operation.query ?? [];
  if (operation.method !== 'GET' || operation.link) problems.push('paginate needs a GET that is not a link');
  const needs = ['limit', ...facts.parameters, ...(facts.cursor === 'offset' ? ['offset'] : [])];
  for (const name of needs) if (!query.includes(name)) problems.push(`paginate needs the query parameter "${name}"`);
  if (facts.cursor === 'offset' ? facts.parameters.length > 0 : facts.parameters.length === 0) {
    problems.push('paginate: id and timestamp cursors take before or after; offset takes neither');
  }
  if (facts.cursor === 'timestamp' && (facts.parameters.join() !== 'before' || !facts.hasMore)) {
    problems.push('paginate: a timestamp cursor is `before` alone, with hasMore');
  }
  if ((facts.cursor === 'offset') !== (facts.maxOffset !== undefined))
    problems.push('paginate: maxOffset goes with an offset cursor');
  // A walk without a cursor goes on with the cursor of its own order.
  const walksWith = facts.order === 'newest-first' ? 'before' : 'after';
  if (facts.cursor !== 'offset' && !facts.parameters.includes(walksWith)) {
    problems.push(`paginate: a ${facts.order} list goes on with \`${walksWith}\`, which it must take`);
  }
  if ((facts.nested || facts.hasMore || facts.total) && !facts.items)
    problems.push('paginate: nested, hasMore and total need items');
  return problems;
}
