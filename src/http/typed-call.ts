/**
 * A typed method's call, from its arguments to its result: planned once (`plan.ts`), sent and its
 * body read by a lane's Sender; a non-2xx answer an HttpError. And the promise
 * every typed method returns (`ApiPromise`), which keeps the Response for `withResponse`.
 */
import type { OperationDefinition } from '../contracts/catalog.ts';
import { HttpError } from '../errors.ts';
import { pathTemplateOf } from '../paths/path.ts';
import type { ApiPromise, OperationInput, QueryInput, RequestOptionsWithQuery } from '../sdk.ts';
import { planOperation, type TypedCallContext } from './plan.ts';
import type { Sender } from './sender.ts';

/**
 * One typed call of `operation` through the sender `senderOf` gives: its plan (every check), the
 * send and the body read (the sender's outcome), and the HttpError of a non-2xx answer. `answer`
 * gets its Response, as a caller may see it, for `withResponse`.
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
  const plan = planOperation(client, sender.defaults, operation, args, input, options);
  const { response, body } = await sender.sendAndRead(plan, operation.binaryResult);
  if (answer) {
    answer.operation = operation;
    answer.response = response;
  }
  if (!response.ok) {
    throw new HttpError(plan.identity, shownResponse(operation, response), body, {
      operation: operation.name,
      pathTemplate: pathTemplateOf(operation.path),
    });
  }
  return body;
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
