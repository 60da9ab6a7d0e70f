/**
 * tollgate: a typed SDK for the service's REST API that never hits an avoidable rate limit.
 */
import './runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
export { apiOfBaseUrl, createClient } from './http/client.ts';
export { DEFAULT_BASE_URL } from './dialects/v10/index.ts';
export { V6_BASE_URL } from './dialects/v6/index.ts';
export type {
  ApiVersion,
  BucketView,
  ClientEvents,
  ClientOptions,
  RawRequestOptions,
  TollgateClient,
} from './http/client.ts';
export {
  ClientClosedError,
  HttpError,
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
export type { LimiterEvents, RateLimitedEvent, RateLimitScope, ResponseEvent, WaitEvent } from './limiter/events.ts';
export type { InvalidRequestsEvent } from './contracts/dialect.ts';
export type { V10Settings } from './dialects/v10/settings.ts';
export type { V10Update } from './dialects/v10/rules.ts';
export type { V10BucketRecord } from './dialects/v10/memory-view.ts';
export type { V10Bucket } from './dialects/v10/route.ts';
export type { V6Bucket } from './dialects/v6/target.ts';
export type { BucketRecord, BucketUpdate } from './dialects/v6/rules.ts';
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
export { NO_BUCKET } from './routing/classify.ts';
export { routeKeyOf } from './routing/route-key.ts';
export type {
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
} from './sdk.ts';
export type * from '../generated/index.ts';
export { cdnEndpoints, operations, routeTable } from '../generated/index.ts';
export {
  cdn,
  CDN_BASE_URL,
  CDN_SIZES,
  createCdn,
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
