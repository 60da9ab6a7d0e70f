/**
 * What the reference service counts a request under: v6's bucket key (docs/spec/rate-limit-spec.md,
 * "Route classification"; docs/spec/routes-v6.md) and v10's route and top-level resource
 * (docs/spec/v10-rate-limits.md §4, §5, V4, V13, V20).
 *
 * The service is the oracle the client is tested against, so this is written from the specs
 * and shares no code with the client's classification (src/dialects/v6/classify.ts, src/dialects/v10/route.ts):
 * a mistake in how the client picks a route's template, resource or key must not be made here
 * the same way, or the run meant to catch it would agree with it. It shares the catalog's data
 * only: the route table of the spec's keys and the operations' path shapes.
 */
import { routeTable } from '../index.ts';
import type { PathSegment } from '../contracts/catalog.ts';
import { matchOperation } from './catalog-match.ts';
import { idCreatedAtMs, idOf, segmentsOf } from './paths.ts';

/** A v10 request as the service counts it. */
export interface ServiceRoute {
  /** Method and route template, e.g. `DELETE /channels/:id/messages/:id#old`: what a bucket hash names. */
  readonly route: string;
  /** `channels/<id>`, `guilds/<id>`, `webhooks/<id>`, `webhooks/<id>/token`, `interactions/<id>/token`, or '' (§4.2). */
  readonly resource: string;
  /** Exempt from the global limit, served without Authorization (§5, V13). */
  readonly exempt: boolean;
  /** Route and resource, one space apart (`-` for no resource): how requests are recorded and faults matched. */
  readonly bucketKey: string;
}

/** v6's Route None: a path the spec's keys do not cover, served without limits. */
export const NO_ROUTE_KEY = 'None';

const INTERACTION_CALLBACK = 'POST /interactions/:id/:token/callback';
/** V20, §6: message deletes are counted apart by the message's age: under 10 s, up to 14 days, older. */
const YOUNG_MS = 10_000;
const OLD_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * The placeholder a catalog parameter stands as in a route template: ids `:id`, reaction emoji
 * `:reaction`, webhook and interaction tokens `:token`, codes by what they name. The names are
 * the ones route limits are configured by (`routes: { 'PUT …/reactions/:reaction/@me': … }`).
 */
function placeholderOf(parameter: Exclude<PathSegment, string>): string {
  if (parameter.kind === 'snowflake') return ':id';
  if (parameter.kind === 'emoji') return ':reaction';
  if (parameter.kind === 'secret') return ':token';
  if (parameter.name === 'instance_id') return ':instance';
  if (parameter.name === 'provider_type' || parameter.name === 'provider_user_id') return ':external';
  return ':code';
}

/** §4.2: the top-level resource a path's counts are kept per, from its first segments. */
function resourceOf([top, first, second]: readonly (string | undefined)[]): string {
  const id = first === undefined ? undefined : idOf(first);
  if (id === undefined) return '';
  const withToken = second !== undefined && second !== '';
  if (top === 'channels' || top === 'guilds') return `${top}/${id}`;
  if (top === 'webhooks') return withToken ? `webhooks/${id}/token` : `webhooks/${id}`;
  if (top === 'interactions' && withToken) return `interactions/${id}/token`;
  return '';
}

/**
 * The route template: the catalog operation's path shape, each parameter a placeholder. A path
 * no operation has (answered 404 or 405) keeps its words, ids becoming `:id`.
 */
function templateOf(method: string, path: string, segments: readonly string[]): string {
  const shape = matchOperation(method, path)?.definition.path;
  const parts = shape
    ? shape.map((part) => (typeof part === 'string' ? part : placeholderOf(part)))
    : segments.map((segment) => (idOf(segment) === undefined ? segment : ':id'));
  return `/${parts.join('/')}`;
}

/** V20: the age class of a message deleted at `nowMs`: '#new', '' (10 s to 14 days) or '#old'. */
function ageClassOf(messageId: string, nowMs: number): string {
  const age = nowMs - idCreatedAtMs(messageId);
  if (age < YOUNG_MS) return '#new';
  return age > OLD_MS ? '#old' : '';
}

/** A v10 request's route, resource and exemption, as the service counts it at `nowMs`. */
export function classifyV10Request(method: string, path: string, nowMs: number): ServiceRoute {
  const verb = method.toUpperCase();
  const segments = segmentsOf(path);
  let template = templateOf(verb, path, segments);
  if (verb === 'DELETE' && template === '/channels/:id/messages/:id') {
    template += ageClassOf(idOf(segments[3]!)!, nowMs);
  }
  const route = `${verb} ${template}`;
  const resource = resourceOf(segments);
  const exempt = route === INTERACTION_CALLBACK || /^webhooks\/\d+\/token$/.test(resource);
  return { route, resource, exempt, bucketKey: `${route} ${resource || '-'}` };
}

/** How closely a pattern segment names a path segment: a word before an id before free text. */
function closeness(part: PathSegment): number {
  if (typeof part === 'string') return 2;
  return part.kind === 'snowflake' ? 1 : 0;
}

/** The pattern's ids by position if it matches the segments, else undefined. */
function matchPattern(
  pattern: readonly PathSegment[],
  segments: readonly string[],
): (string | undefined)[] | undefined {
  if (pattern.length !== segments.length) return undefined;
  const ids: (string | undefined)[] = [];
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index]!;
    if (typeof part === 'string') {
      if (part !== segment) return undefined;
    } else if (part.kind === 'snowflake') {
      const id = idOf(segment);
      if (id === undefined) return undefined;
      ids[index] = id;
    } else if (segment === '' || segment === '.' || segment === '..') {
      return undefined;
    }
  }
  return ids;
}

/** `a` names the path more closely than `b`: at the first segment where they differ, a word beats an id, an id free text. */
const closer = (a: readonly PathSegment[], b: readonly PathSegment[]) => {
  const differing = a.findIndex((part, index) => closeness(part) !== closeness(b[index]!));
  return differing !== -1 && closeness(a[differing]!) > closeness(b[differing]!);
};

/**
 * v6's bucket key: the route key of the spec's table whose path shape the path has (the closest
 * one), then its major parameter, the channel or guild id a `/channels/<id>` or `/guilds/<id>`
 * path starts with (every key of the spec's two major tables starts so, and no other key does),
 * and for the message-by-id key the method as well (rule 4); `None` for any other path.
 */
export function v6BucketKeyOf(method: string, path: string): string {
  const segments = segmentsOf(path);
  let best: { key: string; pattern: readonly PathSegment[]; ids: (string | undefined)[] } | undefined;
  for (const { key, patterns } of routeTable) {
    for (const pattern of patterns) {
      const ids = matchPattern(pattern, segments);
      if (ids && (!best || closer(pattern, best.pattern))) best = { key, pattern, ids };
    }
  }
  if (!best) return NO_ROUTE_KEY;
  const major = segments[0] === 'channels' || segments[0] === 'guilds' ? best.ids[1] : undefined;
  if (major === undefined) return best.key;
  return best.key === 'ChannelsIdMessagesId' ? `${best.key}:${method.toUpperCase()}:${major}` : `${best.key}:${major}`;
}
