/**
 * tollgate: a typed SDK for the service's REST API that never hits an avoidable rate limit.
 */
export { apiOfBaseUrl, createClient, DEFAULT_BASE_URL, V6_BASE_URL } from './http/client.ts';
export type { ApiVersion, BucketView, ClientOptions, RawRequestOptions, TollgateClient } from './http/client.ts';
export {
  CdnBanError,
  ClientClosedError,
  InvalidRequestGuardError,
  TokenInvalidError,
  WebhookGoneError,
  HttpError,
  NetworkError,
  RateLimitI64Error,
  RateLimitUtf8Error,
  RateLimitWaitError,
  RequestTimeoutError,
  TollgateArgumentError,
  type WaitReason,
} from './errors.ts';
export type { InvalidRequestsEvent, WaitEvent } from './limiter/limiter.ts';
export type { V10Update } from './limiter/v10/rules.ts';
export type { V10BucketRecord } from './limiter/v10/memory-view.ts';
export type { BucketRecord, BucketUpdate } from './limiter/rules.ts';
export { MemoryStore } from './limiter/store.ts';
export type {
  Admission,
  BucketStore,
  MaybePromise,
  RateLimitStore,
  SettleResult,
  StoreEvent,
  V10Settings,
} from './limiter/store.ts';
export type { Reservation } from './limiter/reservations.ts';
export { monotonicClock, systemClock, type Clock } from './clock.ts';
export { NONE } from './routing/classify.ts';
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
export { operations, routeTable } from '../generated/index.ts';
