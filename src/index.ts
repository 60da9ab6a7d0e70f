/**
 * tollgate: a typed SDK for the service's REST API that never hits an avoidable rate limit.
 *
 * The composition root: the one module of `src/` that imports `generated/`. The generated SDK
 * (typed methods, the catalog's data for the dialects, the CDN helpers, the package's identity)
 * plugs into the core here; the core never imports it.
 */
import './runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import { createCdnHelpers, type Cdn } from '../generated/cdn.ts';
import { createResources, operations, routeTable, type Resources } from '../generated/index.ts';
import { PACKAGE_URL, PACKAGE_VERSION } from '../generated/package.ts';
import { cdnBasesOf, type CdnOptions } from './cdn/index.ts';
import { DIALECTS } from './dialects/index.ts';
import { routeKeyFinder } from './dialects/v6/route-key.ts';
import { createClientWith, type ClientOptions, type ClientSurface, type GeneratedSdk } from './http/client.ts';
import { createRelayWith, type Relay, type RelayOptions } from './http/relay.ts';
import { bucketKeyFinder, type BucketKeyOf } from './http/bucket-key.ts';

/** The CDN URL helpers on `options.baseUrl` (default: the service's CDN): `cdn.userAvatar(userId, hash, { size: 256 })` → `https://cdn.discordapp.com/avatars/…/….webp?size=256`. Throws TollgateArgumentError for a malformed base URL or an unknown option. */
export function createCdn(options?: CdnOptions): Cdn {
  return Object.freeze(createCdnHelpers(cdnBasesOf(options)));
}

/** The CDN URL helpers on the service's CDN, `https://cdn.discordapp.com`. */
export const cdn: Cdn = createCdn();

const SDK: GeneratedSdk<Resources, Cdn> = {
  createResources,
  dialectData: { v6: routeTable, v10: operations },
  createCdn,
  package: { version: PACKAGE_VERSION, url: PACKAGE_URL },
};

/** A client: the typed methods of every resource (`client.channels.messages.create(…)`) and the surface every client has. */
export type TollgateClient = Resources & ClientSurface<Cdn>;

/** A client on `options` (every one optional: the default is v10 on the service's public URL, no token, an in-memory store). */
export function createClient(options?: ClientOptions): TollgateClient {
  return createClientWith(SDK, options);
}

/**
 * A relay: `fetch`, limited. Each request (an absolute URL under `apiRoot`, with its own
 * Authorization) waits for its place in the lane of its token, is sent once, and its answer comes
 * back as it came. What `tollgate/discordjs` and the proxy stand on; see docs/discordjs.md.
 */
export function createRelay(options?: RelayOptions): Relay {
  return createRelayWith({ dialect: DIALECTS.v10, catalogData: SDK.dialectData.v10 }, SDK.package.version, options);
}

const findRouteKey = routeKeyFinder(routeTable);

/**
 * The v6 bucket key of a request: `RouteKey` (no major parameter), `RouteKey:<id>` (channel or
 * guild id), `ChannelsIdMessagesId:<METHOD>:<channel id>`, or `None` for a path the spec's route
 * table does not list. `path` is relative to the API base (a leading `/api`, `/api/v6` is ignored).
 * @deprecated v6's key under a name of no dialect: `bucketKeyOf(method, path, { api: 'v6' })` gives
 * the same, and `bucketKeyOf(method, path)` v10's. Kept until the next major version.
 */
export function routeKeyOf(method: string, path: string): string {
  return findRouteKey(method, path);
}

/**
 * The bucket key a request counts under, as its dialect names it (what `client.buckets.get` takes,
 * and events and errors carry): v10's (the default) `GET /channels/:id channels/81384788765712384`,
 * v6's `ChannelsId:81384788765712384`, or `None` where the request counts in no bucket. `path` is
 * relative to the API base (a leading `/api` or `/api/v10` is ignored). Throws
 * TollgateArgumentError for a method or path that is not a string, or an unknown `api`.
 */
export const bucketKeyOf: BucketKeyOf = bucketKeyFinder(SDK.dialectData);

export { apiOfBaseUrl } from './dialects/index.ts';
export type { Relay, RelayInit, RelayOptions } from './http/relay.ts';
export type { AllowedMentions } from './http/mentions.ts';
export type { BucketKeyOf, BucketKeyOptions } from './http/bucket-key.ts';
export { DEFAULT_API_ROOT, DEFAULT_RELAY_MAX_WAIT_MS } from './http/relay.ts';
export { GENERATED_HEADER, SENT_HEADER } from './dialects/v10/answers.ts';
export { DEFAULT_BASE_URL } from './dialects/v10/index.ts';
export { V6_BASE_URL } from './dialects/v6/index.ts';
export type {
  ApiVersion,
  BucketView,
  ClientEvents,
  ClientOptions,
  ClientSurface,
  RawRequestOptions,
} from './http/client.ts';
export {
  ClientClosedError,
  HttpError,
  type FieldError,
  type HttpErrorOptions,
  type OAuth2ErrorBody,
  NetworkError,
  PaginationError,
  RateLimitI64Error,
  RateLimitUtf8Error,
  RateLimitWaitError,
  RequestTimeoutError,
  StoreUnavailableError,
  TollgateArgumentError,
  TollgateError,
  type TollgateErrorCode,
  type WaitReason,
} from './errors.ts';
export { CdnBanError, InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from './dialects/v10/errors.ts';
export type {
  CallIdentity,
  LimiterEvents,
  RateLimitedEvent,
  RateLimitScope,
  ResponseEvent,
  WaitEvent,
} from './limiter/events.ts';
export type { InvalidRequestsEvent } from './contracts/dialect.ts';
export type { V10Settings } from './dialects/v10/settings.ts';
export type { V10Events, V10Options } from './dialects/v10/options.ts';
export type { DialectEvents, DialectOptions } from './dialects/options.ts';
export type { V10Update } from './dialects/v10/rules.ts';
export type { V10BucketRecord } from './dialects/v10/memory-view.ts';
export type { V10Bucket } from './dialects/v10/route.ts';
export type { V6Bucket } from './dialects/v6/target.ts';
export type { BucketUpdate, V6Update } from './dialects/v6/rules.ts';
export type { BucketRecord } from './contracts/store.ts';
export { MemoryStore } from './stores/memory-store.ts';
export type {
  Admission,
  BucketRef,
  BucketSnapshot,
  MaybePromise,
  Reservation,
  SettleResult,
  Store,
  StoreEvent,
  StoreSlots,
  StoreView,
  ViewRequest,
} from './contracts/store.ts';
export { monotonicClock, systemClock, type Clock } from './clock.ts';
export { NO_BUCKET } from './contracts/dialect.ts';
export type {
  ApiPromise,
  AuditLogOptions,
  FileUpload,
  FormFields,
  JsonBody,
  QueryInput,
  QueryOf,
  QueryValue,
  RequestOptions,
  RequestOptionsWithQuery,
  Snowflake,
  WithFiles,
  WithResponse,
} from './sdk.ts';
export type * from '../generated/index.ts';
export { cdnEndpoints, operations, routeTable } from '../generated/index.ts';
export {
  CDN_BASE_URL,
  CDN_SIZES,
  defaultAvatarIndex,
  MEDIA_BASE_URL,
  type CdnAnimatedImageOptions,
  type CdnEndpoint,
  type CdnFormatOptions,
  type CdnImageOptions,
  type CdnImageSize,
  type CdnOptions,
  type DefaultAvatarIndex,
} from './cdn/index.ts';
