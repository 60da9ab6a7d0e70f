/**
 * Hex text to bytes, strictly: an even number of hex digits (either case) and nothing else, as
 * Discord writes signatures and the developer portal shows public keys. Written out because
 * workerd has no Buffer and `Uint8Array.fromHex` is not in every runtime tollgate supports.
 */

/** The value of one hex digit's character code, or -1. */
function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/** The bytes `hex` spells, or undefined when it is not whole hex (an odd length, another character). */
export function hexBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    const high = digitValue(hex.charCodeAt(2 * index));
    const low = digitValue(hex.charCodeAt(2 * index + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[index] = high * 16 + low;
  }
  return bytes;
}
