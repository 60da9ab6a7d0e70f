/** One typed or raw call, carried on ky's `context` through every attempt. */
import { NO_BUCKET, type CallTarget } from '../contracts/dialect.ts';
import type { Reservation } from '../contracts/store.ts';

/**
 * Whether a call may be sent again after an attempt that may have reached the service (a
 * timeout, a reset connection, a 5xx): by its method (GET, HEAD, PUT, DELETE, OPTIONS), or as a
 * nonce-safe create the service deduplicates (after a timeout, a network error or a 502/503/504
 * only), or never (POST, PATCH).
 */
export type Resend = 'idempotent' | 'nonce' | 'never';

export interface CallState {
  readonly target: CallTarget;
  /** The target's route key, as events and errors name it. */
  readonly routeKey: string;
  /** The target's bucket key, or `None` for a call without a bucket. */
  readonly bucketKey: string;
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  readonly maxWaitMs: number;
  readonly resend: Resend;
  /** Transport retries this call may make (network errors, timeouts, 5xx), if `resend` allows any. */
  readonly transportRetryLimit: number;
  /** The reservation of the attempt in flight, until its response is processed. */
  reservation: Reservation | undefined;
  headerResends: number;
  transportRetries: number;
  /** Attempts let through so far. */
  attempts: number;
  /** When the current attempt was let through (on the limiter's clock), when someone listens for responses. */
  attemptStartedAt: number;
}

export interface CallOptions {
  readonly maxWaitMs?: number | undefined;
  readonly transportRetries?: number | undefined;
  /** A nonce-safe create whose body enforces its nonce (see `Resend`). */
  readonly nonceEnforced?: boolean | undefined;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The statuses after which a nonce-safe create is sent again: the request may not have been processed. */
const NONCE_RESEND_STATUSES = new Set([502, 503, 504]);

export function newCallState(
  target: CallTarget,
  method: string,
  signal: AbortSignal | undefined,
  options: Required<Pick<CallOptions, 'maxWaitMs' | 'transportRetries'>> & CallOptions,
): CallState {
  return {
    target,
    routeKey: target.routeKey,
    bucketKey: targetBucketKey(target),
    method,
    signal,
    maxWaitMs: options.maxWaitMs,
    resend: IDEMPOTENT.has(method) ? 'idempotent' : target.nonceSafe && options.nonceEnforced ? 'nonce' : 'never',
    transportRetryLimit: options.transportRetries,
    reservation: undefined,
    headerResends: 0,
    transportRetries: 0,
    attempts: 0,
    attemptStartedAt: 0,
  };
}

/** Whether a response with `status` (a 5xx) may be followed by another attempt of the call. */
export function resendsAfter(call: CallState, status: number): boolean {
  if (call.transportRetries >= call.transportRetryLimit) return false;
  return call.resend === 'idempotent' ? status >= 500 : call.resend === 'nonce' && NONCE_RESEND_STATUSES.has(status);
}

/** How events and errors name where a target counts: its bucket key, or `None`. */
export const targetBucketKey = (target: CallTarget): string => target.bucket?.bucketKey ?? NO_BUCKET;
