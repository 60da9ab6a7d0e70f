/** One typed or raw call, carried on ky's `context` through every attempt. */
import { NO_BUCKET_KEY, type CallTarget } from '../contracts/dialect.ts';
import type { Reservation } from '../contracts/store.ts';

export interface CallState {
  readonly target: CallTarget;
  /** The target's route key, as events and errors name it. */
  readonly routeKey: string;
  /** The target's bucket key, or `None` for a call without a bucket. */
  readonly bucketKey: string;
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  readonly maxWaitMs: number;
  readonly idempotent: boolean;
  /** The reservation of the attempt in flight, until its response is processed. */
  reservation: Reservation | undefined;
  headerResends: number;
  transportRetries: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function newCallState(
  target: CallTarget,
  method: string,
  signal: AbortSignal | undefined,
  maxWaitMs: number,
): CallState {
  return {
    target,
    routeKey: target.routeKey,
    bucketKey: targetBucketKey(target),
    method,
    signal,
    maxWaitMs,
    idempotent: IDEMPOTENT.has(method),
    reservation: undefined,
    headerResends: 0,
    transportRetries: 0,
  };
}

/** How events and errors name where a target counts: its bucket key, or `None`. */
export const targetBucketKey = (target: CallTarget): string => target.bucket?.bucketKey ?? NO_BUCKET_KEY;
