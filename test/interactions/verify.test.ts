/**
 * verifyInteraction: true only for the body, timestamp and signature Discord signed with the key
 * given; false, never a rejection, for anything else. Keys are imported once each, boundedly.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyInteraction } from '../../src/interactions/index.ts';
import { MAX_CACHED_KEYS } from '../../src/interactions/public-keys.ts';
import { runs } from '../support/property-runs.ts';
import { COMMAND, hex, newSigner, PING, signedRequest, type Signed } from '../support/interactions.ts';

const signer = await newSigner();
const other = await newSigner();
const signed = await signer.sign(PING);

/** `signed` with one part changed. */
const changed = (overrides: Partial<Signed['headers']> & { body?: string }): Signed => ({
  headers: { ...signed.headers, ...overrides },
  body: overrides.body ?? signed.body,
});
const flipLastDigit = (text: string) => text.slice(0, -1) + (text.endsWith('0') ? '1' : '0');

afterEach(() => vi.restoreAllMocks());

describe('a request Discord signed', () => {
  it('verifies as a fetch Request, and its body is still there to read', async () => {
    const request = signedRequest(signed);
    expect(await verifyInteraction(request, signer.publicKey)).toBe(true);
    expect(await request.json()).toEqual(PING);
  });

  it("verifies as Node's headers with the body as a string, a Buffer, a Uint8Array or an ArrayBuffer", async () => {
    const bytes = new TextEncoder().encode(signed.body);
    for (const body of [signed.body, Buffer.from(signed.body), bytes, bytes.buffer]) {
      expect(await verifyInteraction({ headers: signed.headers, body }, signer.publicKey)).toBe(true);
    }
  });

  it('verifies with headers in any case, and with a fetch Headers', async () => {
    const shouting = {
      'X-Signature-Ed25519': signed.headers['x-signature-ed25519'],
      'X-Signature-Timestamp': signed.headers['x-signature-timestamp'],
    };
    expect(await verifyInteraction({ headers: shouting, body: signed.body }, signer.publicKey)).toBe(true);
    expect(await verifyInteraction({ headers: new Headers(shouting), body: signed.body }, signer.publicKey)).toBe(true);
  });

  it('verifies with the key in upper case hex', async () => {
    expect(await verifyInteraction(signedRequest(signed), signer.publicKey.toUpperCase())).toBe(true);
  });
});

describe('anything else is false', () => {
  it.each([
    ['a tampered body', changed({ body: signed.body.replace('"type":1', '"type":2') })],
    ['a body with one more byte', changed({ body: `${signed.body} ` })],
    ['a tampered timestamp', changed({ 'x-signature-timestamp': '1767225601' })],
    ['a tampered signature', changed({ 'x-signature-ed25519': flipLastDigit(signed.headers['x-signature-ed25519']) })],
    ['a signature that is not hex', changed({ 'x-signature-ed25519': 'z'.repeat(128) })],
    ['a signature one byte short', changed({ 'x-signature-ed25519': signed.headers['x-signature-ed25519'].slice(2) })],
    ['an empty timestamp', changed({ 'x-signature-timestamp': '' })],
  ])('%s', async (_, request) => {
    expect(await verifyInteraction({ headers: request.headers, body: request.body }, signer.publicKey)).toBe(false);
    expect(await verifyInteraction(signedRequest(request), signer.publicKey)).toBe(false);
  });

  it('a missing signature header, or a missing timestamp header', async () => {
    const { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp } = signed.headers;
    for (const headers of [{ 'x-signature-timestamp': timestamp }, { 'x-signature-ed25519': signature }, {}]) {
      expect(await verifyInteraction({ headers, body: signed.body }, signer.publicKey)).toBe(false);
    }
  });

  it('a signature header sent twice', async () => {
    const headers = { ...signed.headers, 'x-signature-ed25519': [signed.headers['x-signature-ed25519'], '00'] };
    expect(await verifyInteraction({ headers, body: signed.body }, signer.publicKey)).toBe(false);
  });

  it("another application's key, and keys that are no key", async () => {
    for (const key of [other.publicKey, '', signer.publicKey.slice(2), `${signer.publicKey}00`, 'g'.repeat(64)]) {
      expect(await verifyInteraction(signedRequest(signed), key)).toBe(false);
    }
  });

  it('a Request whose body was already read (nothing left to check)', async () => {
    const request = signedRequest(signed);
    await request.text();
    expect(await verifyInteraction(request, signer.publicKey)).toBe(false);
  });

  it('arbitrary signatures, timestamps, bodies and keys: false, never a rejection', async () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[0-9a-f]{0,130}$/));
    // Hex of the right lengths too, so that the runtime's verify runs, not only the checks before it.
    const signature = fc.oneof(text, fc.uint8Array({ minLength: 64, maxLength: 64 }).map(hex));
    const key = fc.oneof(text, fc.constant(signer.publicKey), fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex));
    const body = fc.oneof(text, fc.uint8Array({ maxLength: 256 }));
    await fc.assert(
      fc.asyncProperty(signature, text, body, key, async (signature, timestamp, raw, key) => {
        const headers = { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp };
        const result = await verifyInteraction({ headers, body: raw }, key).catch((error: unknown) => error);
        expect(result).toBe(false);
      }),
      runs(150),
    );
  });

  it('inputs of the wrong shape altogether: false, never a rejection', async () => {
    const inputs: unknown[] = [undefined, null, 'body', 42, {}, { headers: signed.headers }, { body: signed.body }];
    for (const input of inputs) {
      expect(await verifyInteraction(input as never, signer.publicKey)).toBe(false);
    }
    expect(await verifyInteraction(signedRequest(signed), undefined as never)).toBe(false);
  });
});

describe('public keys', () => {
  it('are imported once each, however many interactions they check', async () => {
    const { publicKey, sign } = await newSigner();
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const command = await sign(COMMAND);
    for (let i = 0; i < 5; i++) expect(await verifyInteraction(command, publicKey)).toBe(true);
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it(`stay imported up to ${MAX_CACHED_KEYS} keys, the oldest going first past that`, async () => {
    const keys = Array.from({ length: MAX_CACHED_KEYS + 1 }, (_, i) => hex(new Uint8Array(32).fill(i + 1)));
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    for (const key of keys) await verifyInteraction(signed, key);
    expect(importKey).toHaveBeenCalledTimes(keys.length);
    await verifyInteraction(signed, keys.at(-1)!);
    expect(importKey).toHaveBeenCalledTimes(keys.length);
    await verifyInteraction(signed, keys[0]!);
    expect(importKey).toHaveBeenCalledTimes(keys.length + 1);
  });
});
