/**
 * The service signs every interaction it posts: Ed25519 over the timestamp header followed by
 * the raw body, checked against the application's public key. Web Crypto does it in workerd,
 * with no library and no compatibility flag.
 */
const hexBytes = (hex: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined;
  return new Uint8Array(hex.match(/../g)!.map((pair) => Number.parseInt(pair, 16)));
};

const keys = new Map<string, Promise<CryptoKey>>();

/** Whether `body` was signed by the holder of `publicKey` (hex), as the headers say. */
export async function isSignedInteraction(headers: Headers, body: string, publicKey: string): Promise<boolean> {
  const signature = hexBytes(headers.get('x-signature-ed25519') ?? '');
  const timestamp = headers.get('x-signature-timestamp');
  const keyBytes = hexBytes(publicKey);
  if (!signature || !timestamp || !keyBytes) return false;
  let key = keys.get(publicKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', keyBytes, { name: 'Ed25519' }, false, ['verify']);
    keys.set(publicKey, key);
  }
  return crypto.subtle.verify({ name: 'Ed25519' }, await key, signature, new TextEncoder().encode(timestamp + body));
}
