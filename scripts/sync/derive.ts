/**
 * The catalog's naming rules, written down so the sync drafts what a maintainer would: an
 * operation's name from its path and method, and a new route's key and major parameter. Pure.
 *
 *   GET    /channels/{channel_id}/messages                    → channels.messages.list
 *   PUT    /lobbies/{lobby_id}/members/{user_id}              → lobbies.members.add
 *   DELETE /lobbies/{lobby_id}/members/{user_id}   (PUT too)  → lobbies.members.remove
 *   DELETE /lobbies/{lobby_id}/members/@me                    → lobbies.members.me.leave
 *   POST   /channels/{channel_id}/messages/{message_id}/crosspost → channels.messages.crosspost
 */
import { MAJOR_PARAMETERS, VERBS, type ParameterKind } from '../../catalog/schema.ts';
import type { SpecOperation } from './openapi.ts';
import { capitalized } from '../words.ts';

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
    const joined = [
      ...parts.slice(0, at - 1),
      parts[at - 1]! + capitalized(parts[at]!),
      ...parts.slice(at + 1),
      verb,
    ].join('.');
    if (nameProblem(joined, taken) === undefined) return joined;
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
