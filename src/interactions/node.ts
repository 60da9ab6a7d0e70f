/**
 * The handler on Node's `http` (and Bun's and Deno's `node:http`): it reads the request's raw body
 * itself, within the bound, so it must get the request before anything else reads the body (no
 * body-parsing middleware in front of it). Nothing a client does reaches the process as an
 * error: an aborted body ends the request unanswered, a response already gone is not written.
 */
import { FAILED, TOO_LARGE, answerBody, refusalBeforeBody, type Answer } from './answer.ts';
import { declaredOver, MAX_INTERACTION_BODY_BYTES, readNodeBody, type NodeInteractionRequest } from './body.ts';
import { headerValue } from './headers.ts';
import type { CheckedHandlerOptions } from './options.ts';

/**
 * The parts of Node's `http.ServerResponse` the handler writes. Declared here rather than
 * imported, so that the package's types need no `@types/node`.
 */
export interface NodeInteractionResponse {
  /** True once someone wrote the head: the handler then writes nothing. */
  readonly headersSent: boolean;
  /** True once the connection is gone: nobody is there to answer. */
  readonly destroyed: boolean;
  /** Writes the status and headers. */
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Writes the body, whole, and ends the answer. */
  end(body: Uint8Array): unknown;
}

const encoder = new TextEncoder();

/** Why the body cannot be checked: something read it before the handler, and its bytes are gone. */
const BODY_ALREADY_READ =
  'the request body was read before the interaction handler got it (a body parser in front of it?): the signature covers the raw bytes, so give the handler the request unread';

function write(response: NodeInteractionResponse, answer: Answer, closeAfter: boolean): void {
  if (response.headersSent || response.destroyed) return;
  try {
    const body = encoder.encode(answer.body);
    response.writeHead(answer.status, {
      ...answer.headers,
      'content-length': String(body.byteLength),
      // A body left unread past the bound: this connection serves no further request.
      ...(closeAfter && { connection: 'close' }),
    });
    response.end(body);
  } catch {
    // The response failed under us (its socket closed between the check and the write): nobody is there to answer.
  }
}

/** Answers `request` on `response`. Never rejects. */
export async function answerNode<Context>(
  request: NodeInteractionRequest,
  response: NodeInteractionResponse,
  options: CheckedHandlerOptions<Context>,
  context: Context,
): Promise<void> {
  try {
    const lengthOver = declaredOver(headerValue(request.headers, 'content-length'), MAX_INTERACTION_BODY_BYTES);
    const refusal = refusalBeforeBody(request.method, lengthOver);
    if (refusal) return write(response, refusal, refusal === TOO_LARGE);
    if (request.readableEnded) {
      options.onError(new TypeError(BODY_ALREADY_READ), undefined);
      return write(response, FAILED, false);
    }
    const read = await readNodeBody(request, MAX_INTERACTION_BODY_BYTES);
    if (read.kind === 'broken') return; // The client went away: there is no one to answer.
    if (read.kind === 'too-large') return write(response, TOO_LARGE, true);
    write(response, await answerBody(request.headers, read.bytes, options, context), false);
  } catch {
    write(response, FAILED, false);
  }
}
