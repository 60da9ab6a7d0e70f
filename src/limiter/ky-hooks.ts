/**
 * The limiter as ky hooks: a call's state rides on ky's `context` through every attempt.
 *
 *   beforeRequest / beforeRetry: the global gate, then the bucket's reservation (may wait)
 *   fetch: the send, with ky's transport retry for network errors (idempotent methods only)
 *   afterResponse: the dialect's judge → return, or wait and `ky.retry()` back through beforeRetry
 */
import ky, { ForceRetryError, type Hooks, type NormalizedOptions } from 'ky';
import type { CallState } from './call.ts';

const CALL = 'tollgate';
const RETRY_SERVER_ERROR: RetryCode = 'SERVER_ERROR';

/** Why a response is sent again: ky's `retry` code, also what users' own hooks see. */
export type RetryCode = 'SERVER_ERROR' | 'RATE_LIMITED' | 'GLOBAL_RATE_LIMIT' | 'RATE_LIMIT_HEADER_UNPARSEABLE';

/** Why an attempt is followed by another. */
export type AttemptEnd =
  /** The transport failed (no response): ky retries idempotent methods. */
  | { readonly kind: 'transport-error'; readonly error: unknown }
  /** A 5xx the limiter sends again (idempotent methods). */
  | { readonly kind: 'server-error' }
  /** A rate limit the limiter waited out, or unparseable headers. */
  | { readonly kind: 'limiter' };

/** What the limiter's call lifecycle does at each hook. */
export interface CallLifecycle {
  admit(call: CallState): Promise<void>;
  /** Prepares the next attempt of a call (backoff, the spent reservation), then admits it. */
  retry(call: CallState, end: AttemptEnd): Promise<void>;
  /** Judges a response: undefined to return it, or why it is sent again. */
  afterResponse(call: CallState, response: Response): Promise<RetryCode | undefined>;
}

/** ky's `context` for a call: the keys for users' own hooks, and the call state. */
export function callContext(call: CallState): Record<string, unknown> {
  return { routeKey: call.identity.routeKey, bucketKey: call.identity.bucketKey, [CALL]: call };
}

function callOf(options: Readonly<NormalizedOptions>): CallState | undefined {
  return options.context[CALL] as CallState | undefined;
}

export function kyHooks(lifecycle: CallLifecycle): Hooks {
  return {
    beforeRequest: [
      async ({ options }) => {
        const call = callOf(options);
        if (call) await lifecycle.admit(call);
      },
    ],
    beforeRetry: [
      async ({ options, error }) => {
        const call = callOf(options);
        if (!call) return;
        // A forced retry is the limiter's own (a rate limit, a 5xx); any other is the transport's.
        const end: AttemptEnd = !(error instanceof ForceRetryError)
          ? { kind: 'transport-error', error }
          : error.code === RETRY_SERVER_ERROR
            ? { kind: 'server-error' }
            : { kind: 'limiter' };
        await lifecycle.retry(call, end);
      },
    ],
    afterResponse: [
      async ({ options, response }) => {
        const call = callOf(options);
        if (!call) return undefined;
        const code = await lifecycle.afterResponse(call, response);
        return code === undefined ? undefined : ky.retry({ code });
      },
    ],
  };
}
