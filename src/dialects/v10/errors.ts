/**
 * The v10 rules' own errors: a CDN ban (V17), and the refusals of calls the rules keep from
 * being sent (V15's guard, V16's invalid token, V19's deleted webhook). Exported by `tollgate`.
 */
import { TollgateError } from '../../errors.ts';

/**
 * V17: a 429 without rate-limit headers or a JSON `retry_after`: the CDN has blocked this IP
 * (too many invalid requests). Never retried by tollgate; `retryAfterMs` is the `Retry-After`
 * the answer carried, if any.
 */
export class CdnBanError extends TollgateError {
  readonly code = 'CDN_BAN' as const;
  readonly retryAfterMs: number | undefined;
  constructor(retryAfterMs: number | undefined) {
    super(
      `The service's CDN is blocking this IP (a 429 without rate-limit headers)${
        retryAfterMs === undefined ? '' : `; Retry-After ${Math.ceil(retryAfterMs / 1000)} s`
      }. Not retried.`,
    );
    this.name = 'CdnBanError';
    this.retryAfterMs = retryAfterMs;
  }
}

/** V16: the service answered 401 for this token before; requests with it are refused unsent. */
export class TokenInvalidError extends TollgateError {
  readonly code = 'TOKEN_INVALID' as const;
  constructor() {
    super(
      'The token was rejected (401) earlier: requests with it are not sent again. Use a new client with a valid token.',
    );
    this.name = 'TokenInvalidError';
  }
}

/** V19: this webhook answered 404 before (it was deleted); requests to it are refused unsent. */
export class WebhookGoneError extends TollgateError {
  readonly code = 'WEBHOOK_GONE' as const;
  readonly resource: string;
  constructor(resource: string) {
    super(`The webhook ${resource.split('/')[1]} answered 404 earlier (deleted): requests to it are not sent again`);
    this.name = 'WebhookGoneError';
    this.resource = resource;
  }
}

/**
 * V15: the invalid requests (401, 403, non-shared 429) of the last 10 minutes reached the
 * guard's limit; nothing is sent until older ones age out, so the IP is not banned.
 */
export class InvalidRequestGuardError extends TollgateError {
  readonly code = 'INVALID_REQUEST_GUARD' as const;
  readonly count: number;
  readonly limit: number;
  /** ms until the count falls below the limit. */
  readonly retryAfterMs: number;
  constructor(count: number, limit: number, retryAfterMs: number) {
    super(
      `${count} invalid requests (401/403/429) in the last 10 minutes reached the guard's limit of ${limit}; ` +
        `nothing is sent for ${Math.ceil(retryAfterMs / 1000)} s so the IP is not banned`,
    );
    this.name = 'InvalidRequestGuardError';
    this.count = count;
    this.limit = limit;
    this.retryAfterMs = retryAfterMs;
  }
}
