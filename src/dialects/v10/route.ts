/**
 * What the v10 dialect keys state by (docs/spec/v10-rate-limits.md §4, V4, V13, V19, V20): the
 * method + route template a bucket hash is learned for, and the top-level resource the service
 * counts that hash per. Pure: the time (for message ages) is an argument.
 *
 *   DELETE /channels/81384788765712384/messages/1  →  route  "DELETE /channels/:id/messages/:id#old"
 *                                                     resource "channels/81384788765712384"
 *
 * Ids become `:id`; reaction emoji, invite and template codes, and webhook and interaction
 * tokens become placeholders, so the set of routes stays bounded. A token never appears: a
 * webhook or interaction addressed with one is the resource `webhooks/<id>/token` (one webhook id
 * has one token).
 */
import type { BucketRef } from '../../contracts/store.ts';
import { parseSnowflake, routePath } from '../../paths/path.ts';
import type { PathSegment } from '../../contracts/catalog.ts';

export interface V10Bucket extends BucketRef {
  /** Method and route template: the unit a bucket hash is learned for. */
  readonly route: string;
  /** The top-level resource (`channels/<id>`, `guilds/<id>`, `webhooks/<id>[/token]`, `interactions/<id>/token`), or '' for none. */
  readonly resource: string;
  /** Exempt from the global limit and sent without Authorization: interaction callbacks, webhooks with a token (V13). */
  readonly exempt: boolean;
  /** A webhook addressed by id + token: a 404 there retires it (V19). */
  readonly webhookWithToken: boolean;
  /** The local key: route and resource, one space apart (neither holds a space): see `joinKey`. */
  readonly bucketKey: string;
}

/** Separates a key's two parts (a route or hash, then the resource); no part holds one. */
export const KEY_SEPARATOR = ' ';
/** Stands for "no resource" in a key. */
export const NO_RESOURCE = '-';

/**
 * A key from its two parts: the local key (route, resource), and the bucket a learned hash names
 * (hash, resource). The one place the key format is written (the Lua reads `KEY_SEPARATOR` and
 * `resourcePart` from here).
 */
export const joinKey = (first: string, resource: string): string => `${first}${KEY_SEPARATOR}${resourcePart(resource)}`;

/** The resource as it stands in a key. */
export const resourcePart = (resource: string): string => resource || NO_RESOURCE;

/** The service's epoch of ids: ms since the Unix epoch at id 0 (V20). */
export const ID_EPOCH_MS = 1_420_070_400_000;
/** Message deletes are limited by the message's age (V20, §6): under 10 s, up to 14 days, older. */
export const YOUNG_MESSAGE_MS = 10_000;
export const OLD_MESSAGE_MS = 14 * 24 * 60 * 60 * 1000;

/** Segments after which a text segment is a parameter (a code, an emoji, an instance), not a route word. */
const TEXT_PARAMETER_AFTER: ReadonlyMap<string, string> = new Map([
  ['reactions', ':reaction'],
  ['invites', ':code'],
  ['templates', ':code'],
  ['activity-instances', ':instance'],
  ['identities', ':external'],
]);
/**
 * Below this segment every text segment but a closing `delete` is a parameter: an external
 * account's provider type and id (`/application-identities/steam/7656…`).
 */
const EXTERNAL_ACCOUNT_SEGMENT = 'application-identities';
/** Ends an external account's path as a route word, not as its id (`…/application-identities/steam/7656…/delete`). */
const CLOSING_DELETE = 'delete';

/** When an id was made, in ms since the Unix epoch. */
export function idCreatedAt(id: string): number {
  return Number(BigInt(id) >> 22n) + ID_EPOCH_MS;
}

/** The age class of a message deleted at `nowMs`: '#new', '' (10 s – 14 d) or '#old'. */
export function messageAgeClass(messageId: string, nowMs: number): string {
  const age = nowMs - idCreatedAt(messageId);
  if (age < YOUNG_MESSAGE_MS) return '#new';
  if (age > OLD_MESSAGE_MS) return '#old';
  return '';
}

/** Classifies a request path (relative to the API base; a leading `/api`, `/v<N>`, query and fragment are ignored). */
export function classifyV10(method: string, path: string, nowMs: number): V10Bucket {
  const verb = method.toUpperCase();
  const segments = splitPath(path);
  const { template, resource, webhookWithToken } = shapeOf(segments);
  const age = isAgeClassed(verb, template) ? messageAgeClass(parseSnowflake(segments[3]!)!, nowMs) : '';
  const route = `${verb} ${template}${age}`;
  return { route, resource, exempt: isExemptRoute(route), webhookWithToken, bucketKey: joinKey(route, resource) };
}

/** A route's template, resource and kind of webhook address, from its path's segments. */
function shapeOf(segments: readonly string[]): { template: string; resource: string; webhookWithToken: boolean } {
  const [top, first, second] = segments;
  let resource = '';
  let webhookWithToken = false;
  let from = 0;
  let template = '';
  const firstId = first === undefined ? undefined : parseSnowflake(first);

  if ((top === 'channels' || top === 'guilds') && firstId !== undefined) {
    resource = `${top}/${firstId}`;
    template = `/${top}/:id`;
    from = 2;
  } else if (top === 'webhooks' && firstId !== undefined) {
    webhookWithToken = second !== undefined;
    resource = webhookWithToken ? `webhooks/${firstId}/token` : `webhooks/${firstId}`;
    template = webhookWithToken ? '/webhooks/:id/:token' : '/webhooks/:id';
    from = webhookWithToken ? 3 : 2;
  } else if (top === 'interactions' && firstId !== undefined && second !== undefined) {
    resource = `interactions/${firstId}/token`;
    template = '/interactions/:id/:token';
    from = 3;
  }

  let previous = '';
  let external = false;
  for (let index = from; index < segments.length; index++) {
    const segment = segments[index]!;
    const textParameter = TEXT_PARAMETER_AFTER.get(previous);
    if (parseSnowflake(segment) !== undefined) {
      template += '/:id';
    } else if (textParameter !== undefined) {
      template += `/${textParameter}`;
    } else if (external && !(segment === CLOSING_DELETE && index === segments.length - 1)) {
      template += '/:external';
    } else {
      template += `/${segment}`;
    }
    if (segment === EXTERNAL_ACCOUNT_SEGMENT) external = true;
    previous = segment;
  }
  return { template: template || '/', resource, webhookWithToken };
}

/** V20: a message delete's route holds the message's age class (the message id is the path's fourth segment). */
const isAgeClassed = (verb: string, template: string): boolean =>
  verb === 'DELETE' && template === '/channels/:id/messages/:id';

/**
 * A typed operation's route, worked out once from its path pattern: the catalog fixes the
 * template, so a call only puts its first id into the resource and, for a message delete, adds
 * the message's age class. The same bucket `classifyV10` gives the call's path, without reading
 * the path again.
 */
export interface V10BucketFinder {
  /** The call's bucket, or undefined when a text value could change the template (classify the path then). */
  bucketOf(values: readonly string[], nowMs: number): V10Bucket | undefined;
}

/**
 * Values of code, emoji and secret parameters that change a template where they stand: ids
 * (`:id`), and the words after which a segment is a parameter or that close an external account.
 */
const TEMPLATE_WORDS: ReadonlySet<string> = new Set([
  ...TEXT_PARAMETER_AFTER.keys(),
  EXTERNAL_ACCOUNT_SEGMENT,
  CLOSING_DELETE,
]);
/** Stands for a code, emoji or secret value while a finder is made: no id, no template word. */
const SAMPLE_TEXT = '~text';

/** The bucket finder of a method and path pattern, or undefined when its template depends on its values. */
export function v10BucketFinder(method: string, pattern: readonly PathSegment[]): V10BucketFinder | undefined {
  if (typeof pattern[0] !== 'string') return undefined;
  const verb = method.toUpperCase();
  const textValues: number[] = [];
  let parameters = 0;
  // Ids 1, 2, 3…: one per parameter, so the first one can be found in the resource.
  const segments = pattern.map((segment) => {
    if (typeof segment === 'string') return segment;
    const index = parameters++;
    if (segment.kind === 'snowflake') return String(index + 1);
    textValues.push(index);
    return SAMPLE_TEXT;
  });
  const { template, resource: sampleResource, webhookWithToken } = shapeOf(segments);
  // A value written into the template itself: each call has its own route.
  if (template.includes(SAMPLE_TEXT)) return undefined;
  // The resource names the path's first id (the sample 1): `channels/1`, `webhooks/1/token`.
  const [before, after, ...more] = sampleResource.split('/1');
  if (sampleResource !== '' && (after === undefined || more.length > 0)) return undefined;
  const fixedRoute = `${verb} ${template}`;
  const exempt = isExemptRoute(fixedRoute);
  // The message id's place among the values: the path's fourth segment.
  const ageValue = isAgeClassed(verb, template)
    ? pattern.slice(0, 3).filter((segment) => typeof segment !== 'string').length
    : -1;
  return {
    bucketOf: (values, nowMs) => {
      for (const index of textValues) {
        const value = values[index]!;
        if (TEMPLATE_WORDS.has(value) || parseSnowflake(value) !== undefined) return undefined;
      }
      const resource = after === undefined ? '' : `${before}/${values[0]}${after}`;
      const route = ageValue === -1 ? fixedRoute : fixedRoute + messageAgeClass(values[ageValue]!, nowMs);
      return { route, resource, exempt, webhookWithToken, bucketKey: joinKey(route, resource) };
    },
  };
}

function splitPath(path: string): string[] {
  // Spaces separate route and resource in a key; a raw space never belongs in a path. `%40me` is
  // `@me` (@discordjs/core encodes it): one route, one bucket.
  return routePath(path)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll(' ', '%20').replace(/%40/gi, '@'));
}

/** Splits a local key as users write it (`buckets.get`) back into its route and resource. */
export function splitBucketKey(bucketKey: string): { route: string; resource: string } {
  const at = bucketKey.lastIndexOf(KEY_SEPARATOR);
  const resource = bucketKey.slice(at + 1);
  return { route: bucketKey.slice(0, at), resource: resource === NO_RESOURCE ? '' : resource };
}

/** A local key as users write it, read back into the route it names: the one place a key is parsed. */
export function parseBucketKey(bucketKey: string): V10Bucket {
  const { route, resource } = splitBucketKey(bucketKey);
  return {
    route,
    resource,
    exempt: isExemptRoute(route),
    webhookWithToken: resource.startsWith('webhooks/') && resource.endsWith('/token'),
    bucketKey,
  };
}

/** What an admit without a bucket counts in (v10 has no Route None; the store contract allows one): the global pace alone. */
export const NO_BUCKET_REF: V10Bucket = parseBucketKey(joinKey(NO_RESOURCE, ''));

/** V13: routes exempt from the global limit, by their route (method + template). */
export function isExemptRoute(route: string): boolean {
  return route === 'POST /interactions/:id/:token/callback' || route.includes(' /webhooks/:id/:token');
}
