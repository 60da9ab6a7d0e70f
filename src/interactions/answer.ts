/**
 * What the handler answers a request, runtime aside: each refusal before user code runs, then
 * the verified interaction handed to `handle`. The fetch and Node adapters only read a body and
 * write an answer; every decision is here, once.
 *
 * Order: the method (405), the declared length (413, nothing read), the body read within its
 * bound (413), the signature (401), the JSON (400), PING (PONG, 200), `handle` (200, or 500 when
 * it throws). Only a request Discord signed reaches `handle`, and only after the cheap refusals.
 */
import { scrubbed } from '../secrets.ts';
import { MAX_INTERACTION_BODY_BYTES } from './body.ts';
import type { HeaderSource } from './headers.ts';
import type { CheckedHandlerOptions, InteractionSummary, ReceivedInteraction } from './options.ts';
import { respond } from './respond.ts';
import { isSignedBody } from './verify.ts';

/** An answer as either adapter writes it. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text. */
  readonly body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const answer = (status: number, value: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { ...JSON_TYPE, ...headers },
  body: JSON.stringify(value),
});

export const NOT_POST = answer(405, { message: 'Interactions are POSTed' }, { allow: 'POST' });
export const TOO_LARGE = answer(413, { message: `The body is over ${MAX_INTERACTION_BODY_BYTES} bytes` });
export const UNREADABLE = answer(400, { message: 'The body could not be read' });
const UNSIGNED = answer(401, { message: 'Invalid request signature' });
const NOT_AN_INTERACTION = answer(400, { message: 'The body is not an interaction (JSON with a numeric type)' });
const PONG = answer(200, respond.pong());
/** What a failure of `handle` is answered: nothing of the error, which may hold anything. */
export const FAILED = answer(500, { message: 'The interaction handler failed' });

const PING_TYPE = 1;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The refusal a request gets before its body is read: not a POST, or a declared length over the bound. */
export function refusalBeforeBody(method: string | undefined, lengthOver: boolean): Answer | undefined {
  if (method !== 'POST') return NOT_POST;
  return lengthOver ? TOO_LARGE : undefined;
}

/** The body as an interaction: a JSON object with a numeric `type`, or undefined. */
function interactionOf(body: Uint8Array): { type: number; id?: unknown; token?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(decoder.decode(body));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return typeof (value as { type?: unknown }).type === 'number' ? (value as { type: number }) : undefined;
  } catch {
    return undefined;
  }
}

/** The error with the interaction's token replaced, wherever it is written (a thrown string too). */
function withoutToken(error: unknown, token: unknown): unknown {
  if (typeof token !== 'string' || token === '') return error;
  if (typeof error === 'string') return error.replaceAll(token, '[token]');
  return scrubbed(error, [token]);
}

/** What `handle` answered is a callback body: an object with a numeric `type`. */
const isCallbackBody = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'number';

/**
 * The answer to a request whose whole body is `body`: verified, parsed, and handled. Rejects only
 * with what `onError` throws.
 */
export async function answerBody<Context>(
  headers: HeaderSource,
  body: Uint8Array,
  options: CheckedHandlerOptions<Context>,
  context: Context,
): Promise<Answer> {
  if (!(await isSignedBody(headers, body, options.publicKey))) return UNSIGNED;
  const interaction = interactionOf(body);
  if (!interaction) return NOT_AN_INTERACTION;
  if (interaction.type === PING_TYPE) return PONG;
  try {
    const callback: unknown = await options.handle(interaction as ReceivedInteraction, context);
    if (!isCallbackBody(callback)) {
      throw new TypeError('handle resolved to no interaction callback body (an object with a numeric type: respond.*)');
    }
    return answer(200, callback);
  } catch (error) {
    const summary: InteractionSummary = { id: String(interaction.id), type: interaction.type };
    // An onError that throws too rejects this; the adapters answer that with the same 500.
    options.onError(withoutToken(error, interaction.token), summary);
    return FAILED;
  }
}
