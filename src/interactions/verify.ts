/**
 * Discord signs every interaction it posts: Ed25519 over the `X-Signature-Timestamp` header's
 * value followed by the raw body, checked with the application's public key (hex, from the
 * developer portal). Web Crypto does it on every runtime tollgate supports, with no library and,
 * in workerd, no compatibility flag. An answer of false says nothing of why, on purpose: a
 * missing header, a forged signature and a wrong key are all "not from Discord".
 */
import { MAX_INTERACTION_BODY_BYTES, readStreamBody } from './body.ts';
import { headerValue, type HeaderSource } from './headers.ts';
import { hexBytes } from './hex.ts';
import { publicKeyOf } from './public-keys.ts';

/** An Ed25519 signature's length: 64 bytes, 128 hex digits. */
const SIGNATURE_BYTES = 64;
export const SIGNATURE_HEADER = 'x-signature-ed25519';
export const TIMESTAMP_HEADER = 'x-signature-timestamp';

/**
 * A received interaction as `verifyInteraction` takes it: a fetch `Request`, or its headers and raw
 * body (Node's `http`: `request.headers` and the body's bytes as they came, a Buffer or a string).
 */
export type InteractionInput =
  | Request
  | {
      readonly headers: HeaderSource;
      readonly body: string | Uint8Array | ArrayBuffer;
    };

const encoder = new TextEncoder();

const isRequest = (input: InteractionInput): input is Request =>
  typeof (input as Request).clone === 'function' && typeof (input as Request).method === 'string';

function bodyBytes(body: string | Uint8Array | ArrayBuffer): Uint8Array | undefined {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/**
 * Whether `body` is what Discord signed, as `headers` say, with `publicKey`. The handler's own
 * check: it has read the body once, and keeps the bytes for parsing. Never rejects.
 */
export async function isSignedBody(headers: HeaderSource, body: Uint8Array, publicKey: string): Promise<boolean> {
  try {
    const signature = hexBytes(headerValue(headers, SIGNATURE_HEADER) ?? '');
    const timestamp = headerValue(headers, TIMESTAMP_HEADER);
    if (signature?.length !== SIGNATURE_BYTES || !timestamp) return false;
    const key = await publicKeyOf(publicKey);
    if (!key) return false;
    const stamp = encoder.encode(timestamp);
    const signed = new Uint8Array(stamp.byteLength + body.byteLength);
    signed.set(stamp);
    signed.set(body, stamp.byteLength);
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, signed);
  } catch {
    return false;
  }
}

/**
 * Whether `input` is an interaction Discord signed for the application whose public key is
 * `publicKey` (hex, as the developer portal shows it). Resolves false, and never rejects, for a
 * missing or malformed signature or timestamp, a body that is not the one signed, or a key that is
 * not 64 hex digits.
 *
 * A `Request` is checked through a clone, so its own body is still there to read afterwards
 * (`await request.json()`); a body over 1 MiB (`MAX_INTERACTION_BODY_BYTES`) is not read and
 * answers false. For Node's `http`, read the raw body first and pass the bytes: the signature
 * covers them exactly, so pass them as they came, not parsed and stringified again.
 *
 * @example
 * ```ts
 * if (!(await verifyInteraction(request, env.DISCORD_PUBLIC_KEY))) return new Response('invalid request signature', { status: 401 });
 * const interaction = (await request.json()) as APIInteraction;
 * ```
 */
export async function verifyInteraction(input: InteractionInput, publicKey: string): Promise<boolean> {
  try {
    if (typeof publicKey !== 'string' || typeof input !== 'object' || input === null) return false;
    if (isRequest(input)) {
      const read = await readStreamBody(input.clone().body, MAX_INTERACTION_BODY_BYTES);
      return read.kind === 'read' && (await isSignedBody(input.headers, read.bytes, publicKey));
    }
    const body = bodyBytes(input.body);
    const headers = input.headers as HeaderSource | undefined;
    if (body === undefined || typeof headers !== 'object' || headers === null) return false;
    return await isSignedBody(headers, body, publicKey);
  } catch {
    return false;
  }
}
