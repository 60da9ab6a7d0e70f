/**
 * Whether a call may be sent again after an attempt that may have reached the service (a timeout,
 * a reset connection, a 5xx), and the ky retry settings that follow from it: one module, so the
 * rule and what ky is told of it cannot drift apart (docs/migrating.md, "Retries and duplicates").
 */
import type { RetryOptions } from 'ky';

/**
 * By its method (GET, HEAD, PUT, DELETE, OPTIONS), or as a nonce-safe create the service
 * deduplicates (after a timeout, a network error or a 502/503/504 only), or never (POST, PATCH).
 */
export type Resend = 'idempotent' | 'nonce' | 'never';

/** The methods that may be sent twice: the one list, upper case as calls name them. */
const IDEMPOTENT_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'] as const;
const IDEMPOTENT: ReadonlySet<string> = new Set(IDEMPOTENT_METHODS);

/** The statuses after which a nonce-safe create is sent again: the request may not have been processed. */
const NONCE_RESEND_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * A call's resend rule: by its method, else a create whose body the service deduplicates by its
 * nonce (the dialect's `resendSafeBody` said it enforces one), else never.
 */
export function resendOf(method: string, nonceEnforced: boolean): Resend {
  return IDEMPOTENT.has(method) ? 'idempotent' : nonceEnforced ? 'nonce' : 'never';
}

/** Whether a response with `status` (a 5xx) may be followed by another attempt, under `resend`. */
export function resendsAfterStatus(resend: Resend, status: number): boolean {
  return resend === 'idempotent' ? status >= 500 : resend === 'nonce' && NONCE_RESEND_STATUSES.has(status);
}

/**
 * ky's own retry settings for calls whose rule is `idempotent` or `never`: only the transport
 * retries of the idempotent methods (ky names methods in lower case); every wait happens in the
 * limiter's hooks.
 */
export const KY_RETRY = {
  limit: Number.MAX_SAFE_INTEGER, // bounded by the limiter: transportRetries and maxHeaderResends
  methods: IDEMPOTENT_METHODS.map((method) => method.toLowerCase()),
  // No statusCodes: ky retries on a status only for an HTTPError, which throwHttpErrors: false
  // never raises (the limiter's afterResponse decides); ky copies every array it is given, per call.
  delay: () => 0,
  // A timed-out attempt may have reached the service: only resendable calls get here (see `methods`).
  retryOnTimeout: true,
} satisfies RetryOptions;

/** ky's retry settings for a call whose rule is `nonce`: POST joins the methods resent after a network error or a timeout. */
const KY_RETRY_NONCE = { ...KY_RETRY, methods: [...KY_RETRY.methods, 'post'] } satisfies RetryOptions;

/** The retry settings a call gives ky in place of its instance's (`KY_RETRY`), or undefined to keep them. */
export const kyRetryOf = (resend: Resend): RetryOptions | undefined =>
  resend === 'nonce' ? KY_RETRY_NONCE : undefined;
