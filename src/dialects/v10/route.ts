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
import { routePath } from '../../routing/classify.ts';
import { parseSnowflake } from '../../routing/path.ts';

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
    } else if (external && !(segment === 'delete' && index === segments.length - 1)) {
      template += '/:external';
    } else {
      template += `/${segment}`;
    }
    if (segment === EXTERNAL_ACCOUNT_SEGMENT) external = true;
    previous = segment;
  }
  if (template === '') template = '/';

  if (verb === 'DELETE' && template === '/channels/:id/messages/:id') {
    template += messageAgeClass(parseSnowflake(segments[3]!)!, nowMs);
  }
  const route = `${verb} ${template}`;
  const exempt = isExemptRoute(route);
  return { route, resource, exempt, webhookWithToken, bucketKey: joinKey(route, resource) };
}

function splitPath(path: string): string[] {
  // Spaces separate route and resource in a key; a raw space never belongs in a path.
  return routePath(path)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll(' ', '%20'));
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
