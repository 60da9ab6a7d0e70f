/**
 * A call's plan, made once before it is sent, as ky makes its options once: every check a call
 * gets, and the one description of it that the limiter (`CallDescription`) and the Sender read as
 * it is. Defaults come resolved from the client (`CallDefaults`); nothing below the plan fills one
 * in or reshapes a call's options.
 */
import type { Clock } from '../clock.ts';
import type { OperationDefinition } from '../contracts/catalog.ts';
import type { CallTarget, CallTargets, Dialect } from '../contracts/dialect.ts';
import { TollgateArgumentError } from '../errors.ts';
import { describeCall, type CallDescription } from '../limiter/call.ts';
import { buildPath } from '../paths/path.ts';
import type { AuditLogOptions, OperationInput, QueryInput, RequestOptionsWithQuery } from '../sdk.ts';
import { encodeBody, toSearchParams, withReason } from './encode.ts';
import { withDefaultMentions, type AllowedMentions } from './mentions.ts';
import { checkCallOptions, checkNoParams, optionKeysOf } from './options.ts';

/** A call's transport retries when the client names none. */
export const DEFAULT_TRANSPORT_RETRIES = 2;

/** What a call's plan takes from the client (or relay) it goes through, resolved once when that was made. */
export interface CallDefaults {
  /** The client's timeout: ms, or undefined for none. */
  readonly timeoutMs: number | undefined;
  /** The client's `maxWait`, ms (Infinity: no bound). */
  readonly maxWaitMs: number;
  readonly transportRetries: number;
  /** Whether the sender has a token, which is then the one way to authenticate. */
  readonly hasToken: boolean;
  /** A relay's calls: one attempt each, every answer returned as it came (`createRelay`). */
  readonly relayed: boolean;
}

/** What a call gives its plan: the client's checked options and what the call itself decided. */
export interface PlanInput {
  readonly method: string;
  readonly path: string;
  readonly target: CallTarget;
  /** Sent with the client's token; false: without Authorization (V13: in the IP's lane, unless exempt). */
  readonly authenticated: boolean;
  /** The service deduplicates this body by its nonce (v10's message create, `enforce_nonce`). */
  readonly nonceEnforced: boolean;
  /** The call's own headers; a relayed call's are the relay's own copy, taken as they are. */
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
}

/** A call's plan: the limiter's description of it, and what goes on the wire. */
export interface CallPlan extends CallDescription {
  readonly method: string;
  readonly path: string;
  readonly authenticated: boolean;
  /** Checked, and without what is never sent (V22's precision header); undefined: none of its own. */
  readonly headers: Headers | undefined;
  readonly json: unknown;
  readonly body: BodyInit | undefined;
  readonly searchParams: URLSearchParams | undefined;
  /** The call's own timeout, when it names one (ky's instance holds the client's). */
  readonly timeout: number | false | undefined;
  /** Per attempt, and again for a typed method's body: ms, or undefined for none (the call's `timeout`, else the client's). */
  readonly timeoutMs: number | undefined;
}

/**
 * A `timeout` option (ms, or `false` for none) as every layer below the options reads it: ms, or
 * undefined for none. The one place `false` is read.
 */
export const timeoutOf = (timeout: number | false): number | undefined => (timeout === false ? undefined : timeout);

/** The plan of a call under `defaults`, its headers checked. */
export function planCall(input: PlanInput, defaults: CallDefaults): CallPlan {
  const { relayed } = defaults;
  return {
    ...describeCall(input.target, input.method, {
      signal: input.signal,
      maxWaitMs: input.maxWait ?? defaults.maxWaitMs,
      transportRetries: input.transportRetries ?? defaults.transportRetries,
      nonceEnforced: input.nonceEnforced,
      relayed,
    }),
    method: input.method,
    path: input.path,
    authenticated: input.authenticated,
    headers: headersOf(input, relayed, input.authenticated && defaults.hasToken),
    json: input.json,
    body: input.body,
    searchParams: input.query === undefined ? undefined : toSearchParams(input.query),
    timeout: input.timeout,
    timeoutMs: input.timeout === undefined ? defaults.timeoutMs : timeoutOf(input.timeout),
  };
}

/**
 * The call's own headers, if it has any (Authorization comes from the lane). The token option is
 * the one way to authenticate: a call that would carry the token may not set Authorization itself
 * (its 401 would mark the token invalid).
 */
function headersOf(input: PlanInput, relayed: boolean, withToken: boolean): Headers | undefined {
  if (input.headers === undefined) return undefined;
  const headers = relayed && input.headers instanceof Headers ? input.headers : new Headers(input.headers);
  // V22: never sent, whoever set it (a relayed request's headers included).
  headers.delete('x-ratelimit-precision');
  if (withToken && headers.has('authorization')) {
    throw new TollgateArgumentError(
      `${input.method}: headers must not set Authorization on a call sent with the client's token (the token option is the one way to authenticate)`,
    );
  }
  return headers;
}

/** What a client's typed calls read of it, resolved when it was made. */
export interface TypedCallContext {
  readonly dialect: Dialect;
  /** How the dialect makes the client's calls into targets. */
  readonly targets: CallTargets;
  readonly clock: Clock;
  readonly allowedMentions: AllowedMentions | undefined;
}

/**
 * The plan of a typed call of `operation`: its options and input checked, its path built, its
 * query required where the catalog says so, its body (the client's `allowedMentions`, the
 * dialect's nonce) checked and encoded; nothing is sent for bad input.
 */
export function planOperation(
  client: TypedCallContext,
  defaults: CallDefaults,
  operation: OperationDefinition,
  args: readonly unknown[],
  input: OperationInput | undefined,
  options: RequestOptionsWithQuery<QueryInput> | undefined,
): CallPlan {
  const label = operation.name;
  checkCallOptions(label, options, optionKeysOf(operation));
  if (input?.params !== undefined) checkNoParams(label, input.params);
  const { path, values } = buildPath(operation.path, args);
  if (operation.queryRequired && input?.query === undefined) throw new TollgateArgumentError(`${label} needs a query`);
  const target = client.targets.targetOfOperation(operation, path, values, client.clock.now());
  const given = options as (RequestOptionsWithQuery<QueryInput> & AuditLogOptions & { body?: unknown }) | undefined;
  // A body that came after the query is given in the options (catalog `bodyIn: 'options'`).
  const bodyGiven = withDefaultMentions(
    operation,
    operation.bodyInOptions ? given?.body : input?.body,
    client.allowedMentions,
  );
  const nonce = client.dialect.resendSafeBody?.(target, bodyGiven);
  const body = encodeBody(label, operation, nonce ? nonce.body : bodyGiven);
  return planCall(
    {
      method: operation.method,
      path,
      target,
      authenticated: !operation.unauthenticated && !target.exempt,
      nonceEnforced: nonce?.enforced ?? false,
      headers: withReason(given?.headers, given?.reason),
      json: body.json,
      body: body.body,
      query: input?.query ?? given?.query,
      signal: given?.signal,
      timeout: given?.timeout,
      maxWait: given?.maxWait,
      transportRetries: given?.transportRetries,
    },
    defaults,
  );
}
