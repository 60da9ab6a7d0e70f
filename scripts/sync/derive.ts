/**
 * The catalog's naming rules, written down so the sync drafts what a maintainer would: an
 * operation's name from its path and method, a new route's key and major parameter, and the
 * catalog facts of a document operation. Pure.
 *
 *   GET    /channels/{channel_id}/messages                    → channels.messages.list
 *   PUT    /lobbies/{lobby_id}/members/{user_id}              → lobbies.members.add
 *   DELETE /lobbies/{lobby_id}/members/{user_id}   (PUT too)  → lobbies.members.remove
 *   DELETE /lobbies/{lobby_id}/members/@me                    → lobbies.members.me.leave
 *   POST   /channels/{channel_id}/messages/{message_id}/crosspost → channels.messages.crosspost
 */
import {
  MAJOR_PARAMETERS,
  VERBS,
  type CatalogAuth,
  type CatalogOperation,
  type CatalogPagination,
  type ParameterKind,
} from '../../catalog/schema.ts';
import type { SpecOperation } from './openapi.ts';

const isPlaceholder = (segment: string) => /^\{[^}]+\}$/.test(segment);
const segmentsOf = (path: string) => path.split('/').slice(1);

/** `thread-members` → `threadMembers`, `widget.json` → `widgetJson`, `@me` → `me`. */
export function wordOf(segment: string): string {
  const parts = segment.replace(/^@/, '').split(/[-_.]/).filter(Boolean);
  return parts.map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1))).join('');
}

const pascal = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** A path with every placeholder as `{}`: what two paths of one shape share. */
export const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** Verbs a path may end in as its own word (`/crosspost`, `/bulk-delete`, `/search`). */
const ACTION_VERBS: ReadonlySet<string> = new Set(
  VERBS.filter((verb) => !['list', 'get', 'create', 'edit', 'delete', 'add', 'remove', 'replace'].includes(verb)),
);

/**
 * The name the catalog's rules give an operation: the path's words (ids left out, `@me` as
 * `me`), then a verb from the vocabulary. `methodsAtPath` are the methods the document has at
 * the same path: a DELETE beside a PUT of one item is `remove` (it undoes `add`).
 */
export function nameOf(
  operation: Pick<SpecOperation, 'method' | 'path' | 'arrayResult' | 'operationId'>,
  methodsAtPath: readonly string[],
): string {
  const segments = segmentsOf(operation.path);
  const words = segments.filter((segment) => !isPlaceholder(segment)).map(wordOf);
  const last = segments.at(-1) ?? '';
  const lastWord = isPlaceholder(last) ? undefined : wordOf(last);
  if (lastWord !== undefined && ACTION_VERBS.has(lastWord) && words.length > 1) {
    return [...words.slice(0, -1), lastWord].join('.');
  }
  // The document's own verb, where the vocabulary has it: `execute_…`, `trigger_…`, `sync_…`.
  const idVerb = wordOf(operation.operationId.split('_')[0]!);
  if (ACTION_VERBS.has(idVerb)) return [...words, idVerb].join('.');
  const endsInItem = isPlaceholder(last);
  let verb: string;
  switch (operation.method) {
    case 'GET':
      // A list may come as an array or in a wrapper (`{ threads, has_more }`), which the id says.
      verb = !endsInItem && (operation.arrayResult || operation.operationId.startsWith('list_')) ? 'list' : 'get';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = endsInItem || last === '@me' ? 'add' : 'replace';
      break;
    case 'PATCH':
      verb = 'edit';
      break;
    case 'DELETE':
      verb = last === '@me' ? 'leave' : endsInItem && methodsAtPath.includes('PUT') ? 'remove' : 'delete';
      break;
  }
  return [...words, verb].join('.');
}

/**
 * Why `name` cannot be added beside `taken` (the names already in the catalog or drafted), or
 * undefined: a name is unique, and no name is also the namespace of another.
 */
export function nameProblem(name: string, taken: ReadonlySet<string>): string | undefined {
  if (taken.has(name)) return `"${name}" is already an operation`;
  for (const other of taken) {
    if (other.startsWith(`${name}.`)) return `"${name}" is the namespace of "${other}"`;
    if (name.startsWith(`${other}.`)) return `its namespace "${other}" is already an operation`;
  }
  return undefined;
}

/**
 * A name for an operation whose natural name is taken: the last two words of the namespace
 * joined (`channels.threads.archived.public.list` → `channels.threads.archivedPublic.list`), then
 * the same one level up. Undefined when none is free.
 */
export function proposeName(name: string, taken: ReadonlySet<string>): string | undefined {
  const parts = name.split('.');
  const verb = parts.pop()!;
  for (let at = parts.length - 1; at >= 1; at--) {
    const joined = [...parts.slice(0, at - 1), parts[at - 1]! + pascal(parts[at]!), ...parts.slice(at + 1), verb].join(
      '.',
    );
    if (nameProblem(joined, taken) === undefined) return joined;
  }
  return undefined;
}

/** A new route's key: the path's words in PascalCase, an id as `Id` (`/lobbies/{lobby_id}/members` → `LobbiesIdMembers`). */
export function routeKeyOf(path: string, kinds: Readonly<Record<string, ParameterKind>>): string {
  return segmentsOf(path)
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name === undefined) return pascal(wordOf(segment));
      if (kinds[name] === 'snowflake') return 'Id';
      return kinds[name] === 'secret' ? 'Token' : pascal(wordOf(name));
    })
    .join('');
}

/**
 * A new route's major parameter: the top-level resource its path names (`/channels/{channel_id}/…`,
 * `/guilds/{guild_id}/…`), which v10 counts its limits per; null for every other path.
 */
export function majorOf(path: string): (typeof MAJOR_PARAMETERS)[number] | null {
  const [top, first] = segmentsOf(path);
  const major = MAJOR_PARAMETERS.find((name) => first === `{${name}}` && top === `${name.split('_')[0]}s`);
  return major ?? null;
}

/** The catalog's way of writing "a bot token alone": no `auth` at all. */
export const DEFAULT_AUTH: CatalogAuth = { bot: true };

/** Two auth facts say the same (scopes in any order). */
export function sameAuth(a: CatalogAuth, b: CatalogAuth): boolean {
  const scopes = (auth: CatalogAuth) => (auth.oauth2 === undefined ? undefined : [...auth.oauth2].sort().join(' '));
  return a.bot === b.bot && a.none === b.none && scopes(a) === scopes(b);
}

/** The facts of the catalog that the document decides, as the catalog writes them (defaults left out). */
export interface SyncedFacts {
  readonly query: readonly string[] | undefined;
  readonly queryRequired: true | undefined;
  readonly body: 'required' | 'optional' | undefined;
  readonly encoding: {
    readonly encoding: CatalogOperation['encoding'];
    readonly attachmentsIn: CatalogOperation['attachmentsIn'];
  };
  readonly binaryResult: true | undefined;
  readonly auth: CatalogAuth | undefined;
}

/** What the document says of each synced fact, in the catalog's terms. */
export function factsOf(operation: SpecOperation): SyncedFacts {
  const hasBody = operation.body !== 'none';
  const query = operation.query.map((parameter) => parameter.name);
  return {
    query: query.length > 0 ? query : undefined,
    // The catalog's flag is for reads: a call with a body may still leave its query out.
    queryRequired: !hasBody && operation.query.some((parameter) => parameter.required) ? true : undefined,
    body: hasBody ? (operation.body as 'required' | 'optional') : undefined,
    encoding: {
      encoding: hasBody && operation.encoding !== 'json' ? operation.encoding : undefined,
      attachmentsIn: hasBody && operation.attachmentsIn !== null ? operation.attachmentsIn : undefined,
    },
    binaryResult: operation.binaryResult ? true : undefined,
    auth: sameAuth(operation.auth, DEFAULT_AUTH) ? undefined : operation.auth,
  };
}

/** The same facts as a catalog operation has them. */
export function catalogFactsOf(operation: CatalogOperation): SyncedFacts {
  return {
    query: operation.query,
    queryRequired: operation.queryRequired,
    body: operation.body,
    encoding: { encoding: operation.encoding, attachmentsIn: operation.attachmentsIn },
    binaryResult: operation.binaryResult,
    auth: operation.auth,
  };
}

/** Whether the catalog's value of `fact` says what the document's does. */
export function sameFact(fact: keyof SyncedFacts, catalog: SyncedFacts, document: SyncedFacts): boolean {
  switch (fact) {
    case 'query': {
      // The catalog may order its parameters its own way; which ones it has is the document's.
      const names = (list: readonly string[] | undefined) => [...(list ?? [])].sort().join(' ');
      return names(catalog.query) === names(document.query);
    }
    case 'encoding':
      return (
        (catalog.encoding.encoding ?? 'json') === (document.encoding.encoding ?? 'json') &&
        (catalog.encoding.attachmentsIn ?? null) === (document.encoding.attachmentsIn ?? null)
      );
    case 'auth':
      return sameAuth(catalog.auth ?? DEFAULT_AUTH, document.auth ?? DEFAULT_AUTH);
    default:
      return catalog[fact] === document[fact];
  }
}

/** A fact's value for a report line: `["limit","after"]`, `json+files (in data)`, `bot, oauth2 [identify]`. */
export function describeFact(fact: keyof SyncedFacts, facts: SyncedFacts): string {
  switch (fact) {
    case 'query':
      return facts.query ? facts.query.join(', ') : '(none)';
    case 'queryRequired':
      return facts.queryRequired ? 'required' : 'optional';
    case 'body':
      return facts.body ?? 'none';
    case 'binaryResult':
      return facts.binaryResult ? 'bytes' : 'JSON';
    case 'encoding': {
      const { encoding, attachmentsIn } = facts.encoding;
      return `${encoding ?? 'json'}${attachmentsIn ? ` (attachments in ${attachmentsIn})` : ''}`;
    }
    case 'auth': {
      const auth = facts.auth ?? DEFAULT_AUTH;
      const parts = [
        ...(auth.bot ? ['bot token'] : []),
        ...(auth.oauth2 ? [`OAuth2 ${auth.oauth2.length === 0 ? '(any scope)' : `[${auth.oauth2.join(', ')}]`}`] : []),
        ...(auth.none ? ['no token'] : []),
      ];
      return parts.join(' or ');
    }
  }
}

/**
 * Pagination facts the document shows for a new list, or why a person must write them:
 * - `limit` with a maximum, `before`/`after` ids and a list (or a wrapper with one list): id
 *   cursors; `before` alone walks newest-first, otherwise oldest-first;
 * - `limit` and `offset` with maxima and a wrapper with one list: offsets;
 * - a `before` timestamp: the item's field it comes from is not in the document.
 */
export function proposePagination(operation: Pick<SpecOperation, 'method' | 'query' | 'resultShape'>): {
  readonly facts?: CatalogPagination;
  readonly note?: string;
} {
  const query = new Map(operation.query.map((parameter) => [parameter.name, parameter]));
  const limit = query.get('limit')?.maximum;
  const cursors = (['before', 'after'] as const).filter((name) => query.has(name));
  const offset = query.get('offset');
  if (operation.method !== 'GET' || limit === undefined || (cursors.length === 0 && !offset)) return {};
  const shape = operation.resultShape;
  const items = shape.list ? undefined : shape.lists.length === 1 ? shape.lists[0] : undefined;
  if (!shape.list && items === undefined) {
    return {
      note: `a paged list whose items the document does not single out (${shape.lists.join(', ') || 'no list'}): add paginate by hand`,
    };
  }
  const hasMore = shape.members.includes('has_more') ? { hasMore: 'has_more' } : {};
  const total = shape.members.includes('total_results') ? { total: 'total_results' } : {};
  if (offset) {
    if (offset.maximum === undefined || items === undefined)
      return { note: 'a list paged by offset without a maximum offset or a list member: add paginate by hand' };
    return {
      facts: {
        cursor: 'offset',
        parameters: [],
        order: 'newest-first',
        pageOrder: 'descending',
        limit,
        maxOffset: offset.maximum,
        items,
        cursorFrom: 'id',
        ...hasMore,
        ...total,
      },
      note: 'pagination proposed (offsets): check the sort order and the item',
    };
  }
  if (cursors.some((name) => query.get(name)!.timestamp)) {
    return { note: 'a list paged by timestamp: add paginate by hand, with the item field the cursor comes from' };
  }
  const newest = cursors.length === 1 && cursors[0] === 'before';
  return {
    facts: {
      cursor: 'id',
      parameters: [...cursors],
      order: newest ? 'newest-first' : 'oldest-first',
      pageOrder: newest ? 'descending' : 'ascending',
      limit,
      ...(items !== undefined && { items }),
      cursorFrom: 'id',
      ...hasMore,
    },
    note: `pagination proposed (id cursors ${cursors.join(', ')}, ${limit} a page): check the order and the item's id field`,
  };
}
