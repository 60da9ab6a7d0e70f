/** The handler on fetch-style servers (Workers, Bun.serve, Deno.serve): a `Request` in, a `Response` out. */
import { FAILED, TOO_LARGE, UNREADABLE, answerBody, refusalBeforeBody, type Answer } from './answer.ts';
import { declaredOver, MAX_INTERACTION_BODY_BYTES, readStreamBody } from './body.ts';
import type { CheckedHandlerOptions } from './options.ts';

async function answerOf<Context>(
  request: Request,
  options: CheckedHandlerOptions<Context>,
  context: Context,
): Promise<Answer> {
  const lengthOver = declaredOver(request.headers.get('content-length') ?? undefined, MAX_INTERACTION_BODY_BYTES);
  const refusal = refusalBeforeBody(request.method, lengthOver);
  if (refusal) {
    // Not read: cancelled, so a runtime that would buffer it need not.
    await request.body?.cancel().catch(() => {});
    return refusal;
  }
  const read = await readStreamBody(request.body, MAX_INTERACTION_BODY_BYTES);
  if (read.kind === 'too-large') return TOO_LARGE;
  if (read.kind === 'broken') return UNREADABLE;
  return answerBody(request.headers, read.bytes, options, context);
}

/** The answer to `request`, as a `Response`. Never rejects. */
export async function answerFetch<Context>(
  request: Request,
  options: CheckedHandlerOptions<Context>,
  context: Context,
): Promise<Response> {
  let answer: Answer;
  try {
    answer = await answerOf(request, options, context);
  } catch {
    answer = FAILED;
  }
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
