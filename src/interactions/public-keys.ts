/**
 * Applications' public keys as Web Crypto keys, each imported once: a bot checks every
 * interaction with the same key, so importing it for each would be work done again and again. The cache is bounded
 * because the key is the caller's string (a server hosting many applications, or one fed keys it
 * did not choose, must not grow without end); past the bound the oldest key goes.
 */

import { hexBytes } from './hex.ts';

/** An Ed25519 public key's length: 32 bytes, 64 hex digits. */
export const PUBLIC_KEY_BYTES = 32;
/** How many keys stay imported: far more than one process serves, small enough to be no cost. */
export const MAX_CACHED_KEYS = 64;

/** Hex key text → its import, settled; undefined where the runtime refused the key. */
const imported = new Map<string, Promise<CryptoKey | undefined>>();

/**
 * The verification key that `publicKey` (hex) spells, or undefined when it is not 64 hex digits
 * or the runtime refuses it. Never rejects.
 */
export function publicKeyOf(publicKey: string): Promise<CryptoKey | undefined> {
  const cached = imported.get(publicKey);
  if (cached) return cached;
  const bytes = hexBytes(publicKey);
  // Text that is no key at all is answered without a place in the cache: it costs nothing to check again.
  if (bytes?.length !== PUBLIC_KEY_BYTES) return Promise.resolve(undefined);
  const key = crypto.subtle.importKey('raw', bytes, { name: 'Ed25519' }, false, ['verify']).then(
    (cryptoKey) => cryptoKey,
    () => undefined,
  );
  if (imported.size >= MAX_CACHED_KEYS) imported.delete(imported.keys().next().value!);
  imported.set(publicKey, key);
  return key;
}
