/**
 * `bucketKeyOf`: the bucket key a request counts under, as its dialect names it: what
 * `client.buckets.get` takes and what events and errors carry as `bucketKey`.
 */
import { NO_BUCKET } from '../contracts/dialect.ts';
import { DIALECTS, type ApiVersion } from '../dialects/index.ts';
import { TollgateArgumentError } from '../errors.ts';
import { isMethodName } from './options.ts';
import type { GeneratedSdk } from './types.ts';

/** How `bucketKeyOf` reads a request: under which dialect, and when it is sent. */
export interface BucketKeyOptions {
  /** The dialect (default: v10, as a client's). */
  readonly api?: ApiVersion | undefined;
  /**
   * When the request is sent, in ms since the epoch (default: now): v10 counts a message delete by
   * the message's age.
   */
  readonly nowMs?: number | undefined;
}

/** `bucketKeyOf`'s signature: the request's method and path (below the API base), and its options. */
export type BucketKeyOf = (method: string, path: string, options?: BucketKeyOptions) => string;

/** `bucketKeyOf` over the catalog data of `sdk`. */
export function bucketKeyFinder(dialectData: GeneratedSdk<object, unknown>['dialectData']): BucketKeyOf {
  return (method, path, options = {}) => {
    if (typeof method !== 'string' || !isMethodName(method.toUpperCase()))
      throw new TollgateArgumentError(`bucketKeyOf: method must be a method name such as "GET", got ${String(method)}`);
    if (typeof path !== 'string')
      throw new TollgateArgumentError(`bucketKeyOf: path must be a string such as "/channels/1", got ${typeof path}`);
    const api = options.api ?? 'v10';
    if (!Object.hasOwn(DIALECTS, api))
      throw new TollgateArgumentError(`bucketKeyOf: api must be 'v10' or 'v6', got ${JSON.stringify(api)}`);
    if (options.nowMs !== undefined && !Number.isFinite(options.nowMs))
      throw new TollgateArgumentError(`bucketKeyOf: nowMs must be a time in ms since the epoch, got ${options.nowMs}`);
    const dialect = DIALECTS[api];
    const nowMs = options.nowMs ?? dialect.defaultClock.now();
    const target = dialect.targets(dialectData[api] as never).targetOfRequest(method.toUpperCase(), path, nowMs);
    return target.bucket?.bucketKey ?? NO_BUCKET;
  };
}
