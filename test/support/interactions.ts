/**
 * Interactions as Discord sends them, signed here with an Ed25519 key pair the test makes through
 * Web Crypto: the same signature over the timestamp header followed by the raw body. Runs in every
 * runtime the runtimes suite uses (Web Crypto only, no Node.js module).
 */

/** The interaction webhook's token in these tests: it must never appear in a log or an answer. */
export const INTERACTION_TOKEN = 'aW50ZXJhY3Rpb246MTMwMDAwMDAwMDAwMDAwMDAwMjpzZWNyZXQ';
export const APPLICATION_ID = '1300000000000000001';

export const PING = {
  type: 1,
  id: '1300000000000000009',
  application_id: APPLICATION_ID,
  token: INTERACTION_TOKEN,
  version: 1,
};

/** A chat-input command interaction (`/hello`), as Discord posts it. */
export const COMMAND = {
  type: 2,
  id: '1300000000000000002',
  application_id: APPLICATION_ID,
  token: INTERACTION_TOKEN,
  version: 1,
  data: { id: '1300000000000000003', name: 'hello', type: 1 },
  user: { id: '1300000000000000004', username: 'ada' },
} as const;

/** Waits, boundedly (200 looks, 25 ms apart), until `done()`: for work an example goes on with after its answer. */
export async function eventually(done: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
}

export const hex = (bytes: ArrayBuffer | Uint8Array): string =>
  [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** What a signed request carries: its two signature headers and its raw body. */
export interface Signed<Body extends string | Uint8Array<ArrayBuffer> = string> {
  readonly headers: { 'x-signature-ed25519': string; 'x-signature-timestamp': string };
  readonly body: Body;
}

export interface Signer {
  /** The public key, hex, as the developer portal shows it. */
  readonly publicKey: string;
  /** `body` (bytes and strings as they are, anything else as JSON) signed at `timestamp` (default a fixed one). */
  sign(body: Uint8Array<ArrayBuffer>, timestamp?: string): Promise<Signed<Uint8Array<ArrayBuffer>>>;
  sign(body: unknown, timestamp?: string): Promise<Signed>;
}

/** A fresh key pair, and a signer with its private half. */
export async function newSigner(): Promise<Signer> {
  const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKey = hex(await crypto.subtle.exportKey('raw', keys.publicKey));
  return {
    publicKey,
    // One body for both overloads: each caller gets the type its overload names.
    async sign(body: unknown, timestamp = '1767225600'): Promise<Signed<never>> {
      const raw = body instanceof Uint8Array ? body : typeof body === 'string' ? body : JSON.stringify(body);
      const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
      const stamp = new TextEncoder().encode(timestamp);
      const signed = new Uint8Array(stamp.length + bytes.length);
      signed.set(stamp);
      signed.set(bytes, stamp.length);
      const signature = await crypto.subtle.sign({ name: 'Ed25519' }, keys.privateKey, signed);
      return {
        headers: { 'x-signature-ed25519': hex(signature), 'x-signature-timestamp': timestamp },
        body: raw as never,
      };
    },
  };
}

/** The signed request as a fetch `Request`, POSTed to `url`. */
export const signedRequest = (
  signed: Signed<string | Uint8Array<ArrayBuffer>>,
  url = 'http://interactions.test/',
): Request =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signed.headers },
    body: signed.body,
  });
