/**
 * A call's plan, made once before it is sent, as ky makes its options once: what the call is, what
 * it carries, where it counts, and how long and how often it may try. The Sender sends it as it is;
 * nothing below the client reshapes a call's options.
 */
import type { CallTarget } from '../contracts/dialect.ts';
import type { CallIdentity } from '../errors.ts';
import { identityOf } from '../limiter/call.ts';
import { resendOf, type Resend } from '../limiter/resend.ts';
import type { QueryInput } from '../sdk.ts';
import { toSearchParams } from './encode.ts';

/** What a call gives its plan: the client's checked options and what the call itself decided. */
export interface PlanInput {
  readonly method: string;
  readonly path: string;
  readonly target: CallTarget;
  /** Sent with the client's token; false: without Authorization (V13: in the IP's lane, unless exempt). */
  readonly authenticated: boolean;
  /** The service deduplicates this body by its nonce (v10's message create, `enforce_nonce`). */
  readonly nonceEnforced: boolean;
  readonly headers?: HeadersInit | undefined;
  /** A JSON body (serialised by ky). */
  readonly json?: unknown;
  readonly body?: BodyInit | undefined;
  readonly query?: QueryInput | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The call's own timeout (ky's instance holds the client's). */
  readonly timeout?: number | false | undefined;
  /** Longest single wait, ms; undefined: the client's `maxWait`. */
  readonly maxWait?: number | undefined;
  /** Transport retries allowed; undefined: the client's `transportRetries`. */
  readonly transportRetries?: number | undefined;
  /** One attempt, every answer returned as it came (`createRelay`). */
  readonly relayed?: boolean | undefined;
}

/** A call's plan: what it was given, and what is derived from that once. */
export interface CallPlan extends PlanInput {
  readonly searchParams: URLSearchParams | undefined;
  /** Per attempt, and again for a typed method's body: ms, or undefined for none (the call's `timeout`, else the client's). */
  readonly timeoutMs: number | undefined;
  /** Whether it may be sent again after an attempt that may have reached the service. */
  readonly resend: Resend;
  /** How events and errors name it. */
  readonly identity: CallIdentity;
}

/**
 * A `timeout` option (ms, or `false` for none) as every layer below the options reads it: ms, or
 * undefined for none. The one place `false` is read.
 */
export const timeoutOf = (timeout: number | false): number | undefined => (timeout === false ? undefined : timeout);

/** The plan of a call, under the client's timeout (ms, undefined for none). */
export function planCall(input: PlanInput, clientTimeoutMs: number | undefined): CallPlan {
  return {
    ...input,
    searchParams: input.query === undefined ? undefined : toSearchParams(input.query),
    timeoutMs: input.timeout === undefined ? clientTimeoutMs : timeoutOf(input.timeout),
    resend: resendOf(input.method, input.nonceEnforced),
    identity: identityOf(input.target, input.method),
  };
}
