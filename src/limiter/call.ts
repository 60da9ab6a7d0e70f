/**
 * One typed or raw call, carried on ky's `context` through every attempt: made from the call's
 * description, which the client's plan is (`http/plan.ts`), field for field.
 */
import { NO_BUCKET, type CallTarget } from '../contracts/dialect.ts';
import type { Reservation } from '../contracts/store.ts';
import type { CallIdentity } from '../errors.ts';
import { resendOf, resendsAfterStatus, type Resend } from './resend.ts';

/** What the limiter reads of a call, every default already resolved: a call's plan is one. */
export interface CallDescription {
  readonly target: CallTarget;
  /** How events and errors name the call (`identityOf`). */
  readonly identity: CallIdentity;
  readonly signal: AbortSignal | undefined;
  /** Longest single wait the call accepts, ms (Infinity: no bound). */
  readonly maxWaitMs: number;
  /** Whether it may be sent again after an attempt that may have reached the service. */
  readonly resend: Resend;
  /**
   * A relayed call (`createRelay`): one attempt, whose answer goes back as it came, whatever it is,
   * once the limiter has learnt from it. Whoever relays it (@discordjs/rest, a bot behind the
   * proxy) decides whether to send it again.
   */
  readonly relayed: boolean;
  /** Transport retries this call may make (network errors, timeouts, 5xx), if `resend` allows any. */
  readonly transportRetryLimit: number;
}

/** What a call is given that its description's rules read. */
export interface CallGiven {
  readonly signal?: AbortSignal | undefined;
  readonly maxWaitMs: number;
  readonly transportRetries: number;
  /** The service deduplicates the body by its nonce (v10's message create, `enforce_nonce`). */
  readonly nonceEnforced?: boolean | undefined;
  readonly relayed?: boolean | undefined;
}

/**
 * The description of a call of `method` to `target`: the one place its identity, its resend and
 * its retry limit are worked out (a relayed call is never resent, and retries nothing).
 */
export function describeCall(target: CallTarget, method: string, given: CallGiven): CallDescription {
  const relayed = given.relayed ?? false;
  return {
    target,
    identity: identityOf(target, method),
    signal: given.signal,
    maxWaitMs: given.maxWaitMs,
    resend: relayed ? 'never' : resendOf(method, given.nonceEnforced ?? false),
    relayed,
    transportRetryLimit: relayed ? 0 : given.transportRetries,
  };
}

export interface CallState extends CallDescription {
  /** ky's `context` for every attempt (the limiter's hooks find the call in it), made once. */
  readonly context: Record<string, unknown>;
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

/** The state of a call as `description` describes it; `contextOf` makes ky's context for it (default: an empty one). */
export function newCallState(
  description: CallDescription,
  contextOf: (call: CallState) => Record<string, unknown> = () => ({}),
): CallState {
  const call: Omit<CallState, 'context'> & { context: Record<string, unknown> } = {
    target: description.target,
    identity: description.identity,
    context: {},
    signal: description.signal,
    maxWaitMs: description.maxWaitMs,
    resend: description.resend,
    relayed: description.relayed,
    transportRetryLimit: description.transportRetryLimit,
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
