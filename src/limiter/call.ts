/** One typed or raw call, carried on ky's `context` through every attempt. */
import { NO_BUCKET, type CallTarget } from '../contracts/dialect.ts';
import type { Reservation } from '../contracts/store.ts';
import type { CallIdentity } from '../errors.ts';
import { resendOf, resendsAfterStatus, type Resend } from './resend.ts';

export interface CallState {
  readonly target: CallTarget;
  /** How events and errors name the call, made once. */
  readonly identity: CallIdentity;
  /** ky's `context` for every attempt (the limiter's hooks find the call in it), made once. */
  readonly context: Record<string, unknown>;
  readonly signal: AbortSignal | undefined;
  readonly maxWaitMs: number;
  readonly resend: Resend;
  /**
   * A relayed call (`createRelay`): one attempt, whose answer goes back as it came, whatever it is,
   * once the limiter has learnt from it. Whoever relays it (@discordjs/rest, a bot behind the
   * proxy) decides whether to send it again.
   */
  readonly relayed: boolean;
  /** Transport retries this call may make (network errors, timeouts, 5xx), if `resend` allows any. */
  readonly transportRetryLimit: number;
  /** The reservation of the attempt in flight, until its response is processed. */
  reservation: Reservation | undefined;
  /** Resends after unparseable headers so far (a count; the client's `maxHeaderResends` bounds it). */
  headerResendsMade: number;
  /** Transport retries so far (a count; `transportRetryLimit` bounds it). */
  transportRetriesMade: number;
  /** Attempts let through so far. */
  attempts: number;
  /** When the current attempt was let through (on the limiter's clock), when someone listens for responses. */
  attemptStartedAt: number;
}

export interface CallOptions {
  readonly maxWaitMs?: number | undefined;
  readonly transportRetries?: number | undefined;
  /** Default: by the method alone (`resendOf`). */
  readonly resend?: Resend | undefined;
  /** Default: made from the target and the method (`identityOf`). */
  readonly identity?: CallIdentity | undefined;
  /** One attempt, every answer returned (see `CallState.relayed`). Default false. */
  readonly relayed?: boolean | undefined;
}

export function newCallState(
  target: CallTarget,
  method: string,
  signal: AbortSignal | undefined,
  options: Required<Pick<CallOptions, 'maxWaitMs' | 'transportRetries'>> & CallOptions,
  /** ky's context for the call (the limiter's: `callContext`); default: an empty one. */
  contextOf: (call: CallState) => Record<string, unknown> = () => ({}),
): CallState {
  const call: Omit<CallState, 'context'> & { context: Record<string, unknown> } = {
    target,
    identity: options.identity ?? identityOf(target, method),
    context: {},
    signal,
    maxWaitMs: options.maxWaitMs,
    resend: options.relayed ? 'never' : (options.resend ?? resendOf(method, false)),
    relayed: options.relayed ?? false,
    transportRetryLimit: options.relayed ? 0 : options.transportRetries,
    reservation: undefined,
    headerResendsMade: 0,
    transportRetriesMade: 0,
    attempts: 0,
    attemptStartedAt: 0,
  };
  call.context = contextOf(call);
  return call;
}

/** Whether a response with `status` (a 5xx) may be followed by another attempt of the call. */
export function resendsAfter(call: CallState, status: number): boolean {
  return call.transportRetriesMade < call.transportRetryLimit && resendsAfterStatus(call.resend, status);
}

/** How events and errors name a call to `target`: each field of `CallIdentity` by its one rule. */
export function identityOf(target: CallTarget, method: string): CallIdentity {
  return {
    method,
    route: target.route ?? `${method} ${target.routeKey}`,
    routeKey: target.routeKey,
    bucketKey: target.bucket?.bucketKey ?? NO_BUCKET,
    resource: target.resource ?? '',
  };
}
