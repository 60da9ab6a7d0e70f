/**
 * A typed method's call, from its arguments to its result: checked, planned once, sent through a
 * lane's Sender, its body read within the timeout; a non-2xx answer an HttpError. And the promise
 * every typed method returns (`ApiPromise`), which keeps the Response for `withResponse`.
 */
import { readBody } from '../body.ts';
import type { Clock } from '../clock.ts';
import type { OperationDefinition } from '../contracts/catalog.ts';
import type { CallTargets, Dialect } from '../contracts/dialect.ts';
import { HttpError, RequestTimeoutError, TollgateArgumentError } from '../errors.ts';
import { buildPath, pathTemplateOf } from '../paths/path.ts';
import type { ApiPromise, AuditLogOptions, OperationInput, QueryInput, RequestOptionsWithQuery } from '../sdk.ts';
import { encodeBody, withReason } from './encode.ts';
import { withDefaultMentions, type AllowedMentions } from './mentions.ts';
import { checkCallOptions, checkNoParams, optionKeysOf } from './options.ts';
import { planCall } from './plan.ts';
import type { Sender } from './sender.ts';

/** What a client's typed calls read of it, resolved when it was made. */
export interface TypedCallContext {
  readonly dialect: Dialect;
  /** How the dialect makes the client's calls into targets. */
  readonly targets: CallTargets;
  readonly clock: Clock;
  /** ms, or undefined for none. */
  readonly timeoutMs: number | undefined;
  readonly allowedMentions: AllowedMentions | undefined;
}

/**
 * One typed call of `operation` through the sender `senderOf` gives: its checks, its body (the
 * client's `allowedMentions`, the dialect's nonce), its plan, the send, the body read, and the
 * HttpError of a non-2xx answer. `answer` gets its Response, as a caller may see it, for
 * `withResponse`.
 */
export async function invokeOperation(
  client: TypedCallContext,
  senderOf: () => Sender,
  operation: OperationDefinition,
  args: readonly unknown[],
  input: OperationInput | undefined,
  options: RequestOptionsWithQuery<QueryInput> | undefined,
  answer?: Answer,
): Promise<unknown> {
  const sender = senderOf();
  const label = operation.name;
  checkCallOptions(label, options, optionKeysOf(operation));
  if (input?.params !== undefined) checkNoParams(label, input.params);
  const { path, values } = buildPath(operation.path, args);
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
  if (operation.queryRequired && input?.query === undefined) throw new TollgateArgumentError(`${label} needs a query`);
  const plan = planCall(
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
    client.timeoutMs,
  );
  const response = await sender.send(plan);
  const timeoutMs = plan.timeoutMs;
  const parsed = await readBody(
    response,
    operation.binaryResult && response.ok,
    timeoutMs,
    () => new RequestTimeoutError(plan.identity, timeoutMs!),
  ).catch((error: unknown) => {
    // A body that breaks off (the connection reset mid-read) fails the call as the network's fault.
    throw error instanceof RequestTimeoutError ? error : sender.networkFailure(error, plan.identity);
  });
  if (answer) {
    answer.operation = operation;
    answer.response = response;
  }
  if (!response.ok) {
    throw new HttpError(plan.identity, shownResponse(operation, response), parsed, {
      operation: label,
      pathTemplate: pathTemplateOf(operation.path),
    });
  }
  return parsed;
}

/** Where a typed call leaves its Response for `withResponse`. */
export interface Answer {
  operation?: OperationDefinition;
  response?: Response;
}

/**
 * The Response as a caller may see it. A path with a secret (a webhook or interaction token) must
 * not reach the caller: its Response is handed over without the URL (the body was read already).
 */
function shownResponse(operation: OperationDefinition, response: Response): Response {
  const secret = operation.path.some((segment) => typeof segment !== 'string' && segment.kind === 'secret');
  return secret
    ? new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
    : response;
}

/**
 * A typed call's promise, with `withResponse()`. The call starts at once; its Response is kept
 * for `withResponse` whether or not it is asked for, since it may be asked for after the call ended.
 */
export function withResponseOf(call: (answer: Answer) => Promise<unknown>): ApiPromise<unknown> {
  const answer: Answer = {};
  const data = call(answer);
  return Object.assign(data, {
    withResponse: () =>
      data.then((value) => ({ data: value, response: shownResponse(answer.operation!, answer.response!) })),
  });
}
