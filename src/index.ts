/**
 * tollgate: a typed SDK for the service's REST API that never hits an avoidable rate limit.
 */
export { createClient, DEFAULT_BASE_URL } from './http/client.ts';
export type { BucketView, ClientOptions, RawRequestOptions, TollgateClient } from './http/client.ts';
export {
  ClientClosedError,
  HttpError,
  NetworkError,
  RateLimitI64Error,
  RateLimitUtf8Error,
  RateLimitWaitError,
  RequestTimeoutError,
  TollgateArgumentError,
  type WaitReason,
} from './errors.ts';
export type { WaitEvent } from './limiter/limiter.ts';
export type { BucketRecord, BucketUpdate } from './limiter/rules.ts';
export { MemoryStore } from './limiter/store.ts';
export type { Admission, BucketStore, MaybePromise, RateLimitStore, StoreEvent } from './limiter/store.ts';
export type { Reservation } from './limiter/reservations.ts';
export type { Clock } from './clock.ts';
export { NONE } from './routing/classify.ts';
export { routeKeyOf } from './routing/route-key.ts';
export type { JsonBody, QueryInput, QueryValue, RequestOptions, RequestOptionsWithQuery, Snowflake } from './sdk.ts';
export type * from '../generated/index.ts';
export { operations, routeTable } from '../generated/index.ts';
