/**
 * The catalog's naming rules, written down so the sync drafts what a maintainer would: an
 * operation's name from its path and method, and a new route's key and major parameter. Pure.
 *
 *   GET    /channels/{channel_id}/messages                    → channels.messages.list
 *   PUT    /lobbies/{lobby_id}/members/{user_id}              → lobbies.members.add
 *   DELETE /lobbies/{lobby_id}/members/{user_id}   (PUT too)  → lobbies.members.remove
 *   DELETE /lobbies/{lobby_id}/members/@me                    → lobbies.members.me.leave
 *   POST   /channels/{channel_id}/messages/{message_id}/crosspost → channels.messages.crosspost
 *   GET    /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/users/counts
 *                                                             → guilds.scheduledEvents.users.count
 *   GET    /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/{guild_scheduled_event_exception_id}/users
 *                                                             → guilds.scheduledEvents.exceptions.users.list
 */
import { MAJOR_PARAMETERS, VERBS, type ParameterKind } from '../../catalog/schema.ts';
import type { SpecOperation } from './openapi.ts';
import { capitalized, pascalCase } from '../words.ts';

const isPlaceholder = (segment: string) => /^\{[^}]+\}$/.test(segment);
const segmentsOf = (path: string) => path.split('/').slice(1);

/** `thread-members` → `threadMembers`, `widget.json` → `widgetJson`, `@me` → `me`. */
export function wordOf(segment: string): string {
  const parts = segment.replace(/^@/, '').split(/[-_.]/).filter(Boolean);
  return parts.map((part, index) => (index === 0 ? part : capitalized(part))).join('');
}

/** Verbs a path may end in as its own word (`/crosspost`, `/bulk-delete`, `/search`). */
const ACTION_VERBS: ReadonlySet<string> = new Set(
  VERBS.filter((verb) => !['list', 'get', 'create', 'edit', 'delete', 'add', 'remove', 'replace'].includes(verb)),
);

/** What naming reads of an operation (its path parameters and query, where known). */
type NamedOperation = Pick<SpecOperation, 'method' | 'path' | 'arrayResult' | 'operationId'> &
  Partial<Pick<SpecOperation, 'pathParameters' | 'query'>>;

/**
 * The words of a path that name resources: its literal segments, and an id that follows another
 * id directly, which names a resource of its own (`…/{guild_scheduled_event_id}/{guild_scheduled_event_exception_id}`
 * → `exceptions`): its name without `_id` and the words it shares with the id before it, plural.
 */
function resourceWords(operation: NamedOperation): string[] {
  const snowflakes = new Set((operation.pathParameters ?? []).filter((p) => p.snowflake).map((p) => p.name));
  const segments = segmentsOf(operation.path);
  return segments.flatMap((segment, index) => {
    if (!isPlaceholder(segment)) return [wordOf(segment)];
    const previous = segments[index - 1];
    const name = segment.slice(1, -1);
    if (previous === undefined || !isPlaceholder(previous) || !snowflakes.has(name) || !name.endsWith('_id')) return [];
    const before = previous.slice(1, -1).split('_');
    const own = name.slice(0, -'_id'.length).split('_');
    let shared = 0;
    while (shared < own.length && own[shared] === before[shared]) shared++;
    const rest = own.slice(shared);
    return rest.length === 0 ? [] : [plural(wordOf(rest.join('_')))];
  });
}

/** `exception` → `exceptions`, `entry` → `entries`, `box` → `boxes`. */
const plural = (word: string) =>
  /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;

/** A read that pages: it takes a page size and a cursor, so it is a list whatever its result's shape. */
const pages = (operation: NamedOperation) => {
  const names = new Set((operation.query ?? []).map((parameter) => parameter.name));
  return names.has('limit') && (names.has('before') || names.has('after'));
};

/**
 * The name the catalog's rules give an operation: the path's resource words (ids left out, `@me`
 * as `me`), then a verb from the vocabulary. A path that ends in a verb of its own, singular or
 * plural (`/crosspost`, `/counts`), takes it. `methodsAtPath` are the methods the document has
 * at the same path: a DELETE beside a PUT of one item is `remove` (it undoes `add`).
 */
export function nameOf(operation: NamedOperation, methodsAtPath: readonly string[]): string {
  const segments = segmentsOf(operation.path);
  const words = resourceWords(operation);
  const last = segments.at(-1) ?? '';
  const lastWord = isPlaceholder(last) ? undefined : wordOf(last);
  const endVerb = [lastWord, lastWord?.replace(/s$/, '')].find((word) => word !== undefined && ACTION_VERBS.has(word));
  if (endVerb !== undefined && words.length > 1) return [...words.slice(0, -1), endVerb].join('.');
  // The document's own verb, where the vocabulary has it: `execute_…`, `trigger_…`, `sync_…`.
  const idVerb = wordOf(operation.operationId.split('_')[0]!);
  if (ACTION_VERBS.has(idVerb)) return [...words, idVerb].join('.');
  const endsInItem = isPlaceholder(last);
  let verb: string;
  switch (operation.method) {
    case 'GET':
      // A list may come as an array or in a wrapper (`{ threads, has_more }`), which the id or its paging says.
      verb =
        !endsInItem && (operation.arrayResult || operation.operationId.startsWith('list_') || pages(operation))
          ? 'list'
          : 'get';
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

/** `a.b.c.list` → `a`, `a.b`, `a.b.c`: the namespaces a name makes classes of. */
const namespacesOf = (name: string) => {
  const parts = name.split('.').slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join('.'));
};

/**
 * Why `name` cannot be added beside `taken` (the names already in the catalog or drafted), or
 * undefined: a name is unique, no name is also the namespace of another, and no two names or
 * namespaces write the same identifier (`guilds.scheduledEventsUsers` and
 * `guilds.scheduledEvents.users` would both write `GuildsScheduledEventsUsersApi`).
 */
export function nameProblem(name: string, taken: ReadonlySet<string>): string | undefined {
  if (taken.has(name)) return `"${name}" is already an operation`;
  const mine = namespacesOf(name);
  for (const other of taken) {
    if (other.startsWith(`${name}.`)) return `"${name}" is the namespace of "${other}"`;
    if (name.startsWith(`${other}.`)) return `its namespace "${other}" is already an operation`;
    if (pascalCase(other) === pascalCase(name)) {
      return `"${name}" and "${other}" would write the same types (${pascalCase(name)}Query)`;
    }
    for (const theirs of namespacesOf(other)) {
      const same = mine.find((namespace) => namespace !== theirs && pascalCase(namespace) === pascalCase(theirs));
      if (same !== undefined)
        return `namespaces "${same}" and "${theirs}" would write the same class ${pascalCase(same)}Api`;
    }
  }
  return undefined;
}

/**
 * A name for an operation whose natural name is taken: the last two words of the namespace
 * joined (`channels.threads.archived.public.list` → `channels.threads.archivedPublic.list`), then
 * the same one level up; where every join would write a taken identifier, the last namespace
 * word numbered (`guilds.messages2.search`), for a person to rename. A top-level resource is
 * never numbered. Undefined when none is free.
 */
export function proposeName(name: string, taken: ReadonlySet<string>): string | undefined {
  const parts = name.split('.');
  const verb = parts.pop()!;
  for (let at = parts.length - 1; at >= 1; at--) {
    const joined = [
      ...parts.slice(0, at - 1),
      parts[at - 1]! + capitalized(parts[at]!),
      ...parts.slice(at + 1),
      verb,
    ].join('.');
    if (nameProblem(joined, taken) === undefined) return joined;
  }
  if (parts.length < 2) return undefined;
  for (let number = 2; number <= 9; number++) {
    const numbered = [...parts.slice(0, -1), `${parts.at(-1)}${number}`, verb].join('.');
    if (nameProblem(numbered, taken) === undefined) return numbered;
  }
  return undefined;
}

/** A new route's key: the path's words in PascalCase, an id as `Id` (`/lobbies/{lobby_id}/members` → `LobbiesIdMembers`). */
export function draftRouteKey(path: string, kinds: Readonly<Record<string, ParameterKind>>): string {
  return segmentsOf(path)
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name === undefined) return capitalized(wordOf(segment));
      if (kinds[name] === 'snowflake') return 'Id';
      return kinds[name] === 'secret' ? 'Token' : capitalized(wordOf(name));
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
