/**
 * Creates that cannot be duplicated by a resend: a message create with a `nonce` and
 * `enforce_nonce: true` is answered, when the service already made a message with that nonce in
 * the last minutes, with that message. Such a call may be sent again after an attempt that may
 * have reached the service (a timeout, a reset connection, a 502/503/504); no other POST may.
 */
import { ID_EPOCH_MS } from './route.ts';

/** The routes whose creates the service deduplicates by nonce. */
export const NONCE_SAFE_ROUTES: ReadonlySet<string> = new Set(['POST /channels/:id/messages']);

/** The low 22 bits of an id (the service's increment, worker and process ids): where a nonce's randomness goes. */
const RANDOM_MASK = (1 << 22) - 1;

/** A fresh nonce: shaped like an id of now (the service takes up to 25 characters), random in its low 22 bits. */
export function newNonce(nowMs = Date.now()): string {
  // Web Crypto: every runtime tollgate runs on has it, with no import.
  const random = crypto.getRandomValues(new Uint32Array(1))[0]! & RANDOM_MASK;
  return ((BigInt(Math.max(0, Math.floor(nowMs) - ID_EPOCH_MS)) << 22n) | BigInt(random)).toString();
}

/**
 * The body of a nonce-safe create, made safe to resend: a `nonce` where the caller gave none, and
 * `enforce_nonce: true` unless the caller said otherwise. `enforced`: the service will drop a
 * repeat, so the call may be resent. Bodies that are not a plain object (FormData the caller
 * built) are sent as they are, and not resent.
 */
export function withEnforcedNonce(body: unknown): { readonly body: unknown; readonly enforced: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body instanceof FormData) {
    return { body, enforced: false };
  }
  const fields = body as Readonly<Record<string, unknown>>;
  if (fields.enforce_nonce === false) return { body, enforced: false };
  return {
    body: { ...fields, nonce: fields.nonce ?? newNonce(), enforce_nonce: true },
    enforced: true,
  };
}
