/**
 * What the reference service serves at all, before any limit is counted: the API version of its
 * base path, the catalog's operations, and which of them need an Authorization header. Where the
 * service would refuse a request, so does the reference service, with the service's error body,
 * so a test that passes offline does not fail against the service.
 *
 * - A v6 service serves `/api/v6` and `/api` alone; a v10 service `/api/v10` (and v8, v9, which
 *   the service answers under the same rules, docs/spec/v10-rate-limits.md §1, V1). Another
 *   version, or a path outside the API, is a 404. A configured `basePath` is served as well.
 * - A path no catalog operation has is a 404; a method the path does not take, a 405. (v10's own
 *   routes are catalog operations: under v6 they are Route `None`, served without limits.)
 * - v10: a call without Authorization is a 401, except on the routes the service serves without
 *   one (`openRoute`); so is a token of a kind the operation does not take (`acceptsToken`):
 *   a bot token where only OAuth2 will do, a Bearer token where only a bot token will.
 */
import { catalogOperation, methodsAt, type MatchedOperation } from './catalog-match.ts';

/** The service's JSON error bodies (docs/spec/v10-rate-limits.md §7 for 401). */
export const NOT_FOUND = { message: '404: Not Found', code: 0 } as const;
export const METHOD_NOT_ALLOWED = { message: '405: Method Not Allowed', code: 0 } as const;
export const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 } as const;

/** A refusal: the status and the service's body. */
export interface Refusal {
  readonly status: 404 | 405;
  readonly body: typeof NOT_FOUND | typeof METHOD_NOT_ALLOWED;
}

const API_PREFIX = /^\/api(?:\/v(\d+))?(?=\/|$)/;
/** A version prefix left below the base (`/api/v6/v10/…`): not a path of the API. */
const NESTED_PREFIX = /^\/(?:api|v\d+)(?=\/|$)/;

/** Whether a service speaking `api` answers under `/api/v<version>` (`undefined`: `/api` alone). */
function speaks(api: 'v6' | 'v10', version: string | undefined): boolean {
  if (api === 'v6') return version === undefined || Number(version) === 6;
  return version !== undefined && Number(version) >= 8 && Number(version) <= 10;
}

/**
 * The request path below the API's base path, or undefined when this service does not serve it
 * (another API version, or outside the API). `basePath` has no trailing slash.
 */
export function pathBelowBase(pathname: string, api: 'v6' | 'v10', basePath: string): string | undefined {
  let rest: string;
  if (basePath !== '' && (pathname === basePath || pathname.startsWith(`${basePath}/`))) {
    rest = pathname.slice(basePath.length);
  } else {
    const prefix = API_PREFIX.exec(pathname);
    if (prefix) {
      if (!speaks(api, prefix[1])) return undefined;
      rest = pathname.slice(prefix[0].length);
    } else if (basePath === '') {
      rest = pathname;
    } else {
      return undefined;
    }
  }
  if (NESTED_PREFIX.test(rest)) return undefined;
  return rest === '' ? '/' : rest;
}

/** 404 for a path no catalog operation has, 405 for a method the path does not take; else undefined. */
export function refusalOf(path: string, operation: MatchedOperation | undefined): Refusal | undefined {
  if (operation) return undefined;
  return methodsAt(path).length === 0 ? { status: 404, body: NOT_FOUND } : { status: 405, body: METHOD_NOT_ALLOWED };
}

/**
 * v10: the operation is served without Authorization: those the catalog marks `unauthenticated`
 * (which the SDK sends without one: OAuth2 token endpoints, the partner SDK's token endpoints,
 * webhooks and interactions addressed with their token) and those the document says are callable
 * without a token (`auth.none`: the gateway URL, invite previews, the guild widget). Exempt
 * routes (§5) are served so whatever the catalog says.
 */
export function openRoute(operation: MatchedOperation | undefined, exempt: boolean): boolean {
  return (
    exempt ||
    (operation !== undefined &&
      (operation.definition.unauthenticated || catalogOperation(operation.name)?.auth?.none === true))
  );
}

/**
 * v10: the operation takes this kind of token. A bot token (`Bot …`) is refused where only an
 * OAuth2 Bearer token will do, a Bearer token where the operation takes no OAuth2 token (absent
 * `auth`: a bot token alone). An operation callable without a token takes any (the gateway URL,
 * invite previews). Another scheme is left to the configured valid tokens.
 */
export function acceptsToken(operation: MatchedOperation | undefined, authorization: string): boolean {
  if (operation === undefined) return true;
  const auth = catalogOperation(operation.name)?.auth;
  if (auth?.none) return true;
  if (/^Bot /i.test(authorization)) return auth?.bot !== false;
  if (/^Bearer /i.test(authorization)) return auth?.oauth2 !== undefined;
  return true;
}
