/**
 * The spec's tables, row for row, as pure functions: no I/O, no clock of their own, no state
 * beyond their arguments. Each row is named in a comment (and in the title of its test).
 * The concurrency policy (`policy.ts`) is built on these; the spec's sequential pre-check itself
 * is the tests' oracle (`test/support/v6-oracle.ts`).
 */
import type { HeaderReader } from '../../contracts/dialect.ts';
import type { BucketRecord } from '../../contracts/store.ts';
import { RateLimitI64Error, RateLimitUtf8Error } from '../../errors.ts';

export type { HeaderReader };

// ── Limits table ───────────────────────────────────────────────────────────────────────────────
export const HEADER_LIMIT = 'x-ratelimit-limit';
export const HEADER_REMAINING = 'x-ratelimit-remaining';
export const HEADER_RESET = 'x-ratelimit-reset';
export const HEADER_GLOBAL = 'x-ratelimit-global';
export const HEADER_RETRY_AFTER = 'retry-after';
/** "Extra delay added to the pre-emptive wait when remaining is 0". */
export const PRE_EMPTIVE_MARGIN_MS = 500;

// ── Bucket record ──────────────────────────────────────────────────────────────────────────────
/**
 * limit, remaining, reset: signed 64-bit integers, reset in whole Unix seconds. Header text is
 * checked against the full signed 64-bit range; values are held as JS numbers, exact to ±2^53.
 */
export type { BucketRecord };

/** "Initial value": 0, 0, 0. */
export const initialBucket = (): BucketRecord => ({ limit: 0, remaining: 0, reset: 0 });

// ── States and transitions: the pre-check ──────────────────────────────────────────────────────
export type PreCheckRow = 'limit-is-zero' | 'reset-passed' | 'remaining-is-zero' | 'remaining-not-zero';

/** "Unix time in whole seconds" from a millisecond clock. */
export const wholeSeconds = (nowMs: number): number => Math.floor(nowMs / 1000);

/** Which pre-check row applies to a bucket at `nowSeconds`. */
export function preCheckRow(bucket: Readonly<BucketRecord>, nowSeconds: number): PreCheckRow {
  // Row 1: a bucket for the key exists and its limit is 0 → none, request proceeds.
  if (bucket.limit === 0) return 'limit-is-zero';
  // Row 2: limit is not 0 and current time is greater than reset → remaining = limit, proceeds.
  if (nowSeconds > bucket.reset) return 'reset-passed';
  // Row 3: ... and remaining is 0 → remaining unchanged; sleep (reset − now) s in ms + 500 ms.
  if (bucket.remaining === 0) return 'remaining-is-zero';
  // Row 4: ... and remaining is not 0 → remaining decreases by 1, proceeds.
  return 'remaining-not-zero';
}

/** Row 3's sleep: (reset minus current time) seconds converted to milliseconds, plus 500 ms. */
export const exhaustedSleepMs = (reset: number, nowSeconds: number): number =>
  (reset - nowSeconds) * 1000 + PRE_EMPTIVE_MARGIN_MS;

// ── States and transitions: after a response (non-global) ─────────────────────────────────────
/** The fields a response carried; absent headers leave their field alone. */
export type V6Update = Partial<BucketRecord>;

/**
 * v6's update, by its old name.
 *
 * @deprecated Use `V6Update` (beside `V10Update`): this name is gone in the next major version.
 */
export type BucketUpdate = V6Update;

/** Rows 5–7: each header present sets its field to its integer value. */
export function applyUpdate(bucket: Readonly<BucketRecord>, update: V6Update): BucketRecord {
  return {
    limit: update.limit ?? bucket.limit,
    remaining: update.remaining ?? bucket.remaining,
    reset: update.reset ?? bucket.reset,
  };
}

// ── Errors table: header parsing ───────────────────────────────────────────────────────────────
export type HeaderParse =
  | { readonly ok: true; readonly value: number | undefined }
  | { readonly ok: false; readonly error: RateLimitUtf8Error | RateLimitI64Error };

const I64_TEXT = /^[+-]?[0-9]+$/;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// eslint-disable-next-line no-control-regex -- every byte above 0x7f, control characters aside
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Reads one rate-limit header as a signed 64-bit integer. Fetch exposes header values as byte
 * strings (one char per byte), so the bytes are recovered and decoded strictly:
 * - Errors row 4: bytes that are not valid UTF-8 → RateLimitUtf8;
 * - Errors row 5: text that is not a signed 64-bit decimal integer (out of range included)
 *   → RateLimitI64. The accepted text is an optional sign and decimal digits, nothing else.
 */
export function parseI64Header(read: HeaderReader, name: string): HeaderParse {
  const raw = read(name);
  if (raw === null) return ABSENT;
  const short = shortDecimal(raw);
  if (short !== undefined) return { ok: true, value: short };
  const text = decodeByteString(raw);
  if (text === undefined) return { ok: false, error: new RateLimitUtf8Error(name) };
  if (!I64_TEXT.test(text)) return { ok: false, error: new RateLimitI64Error(name, text) };
  const digits = text.length - (text[0] === '+' || text[0] === '-' ? 1 : 0);
  // `+ 0` turns "-0" into 0: an integer has no negative zero.
  if (digits <= 15) return { ok: true, value: Number(text) + 0 };
  const big = BigInt(text);
  if (big < I64_MIN || big > I64_MAX) return { ok: false, error: new RateLimitI64Error(name, text) };
  return { ok: true, value: Number(big) };
}

const ABSENT: HeaderParse = { ok: true, value: undefined };

/**
 * The common case without a regular expression: an optional sign and 1–15 ASCII digits (exact
 * as a number, within the 64-bit range). Anything else (undefined) takes the full path above.
 */
function shortDecimal(raw: string): number | undefined {
  const signed = raw.charCodeAt(0) === 0x2b || raw.charCodeAt(0) === 0x2d; // '+', '-'
  const digits = raw.length - (signed ? 1 : 0);
  if (digits < 1 || digits > 15) return undefined;
  for (let index = signed ? 1 : 0; index < raw.length; index++) {
    const code = raw.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return undefined;
  }
  return Number(raw) + 0;
}

/** A ByteString's UTF-8 text, or undefined when its bytes are not valid UTF-8. */
function decodeByteString(raw: string): string | undefined {
  // A regular expression rather than a charCodeAt loop: the loop's speed varies sixfold with
  // what else the process has loaded (V8), the expression's does not.
  if (!NON_ASCII.test(raw)) return raw;
  const bytes = new Uint8Array(raw.length);
  for (let index = 0; index < raw.length; index++) {
    const code = raw.charCodeAt(index);
    // Not a byte string: a value built in JS with wider characters is already text.
    if (code > 0xff) return raw;
    bytes[index] = code;
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const BUCKET_HEADERS = [
  ['limit', HEADER_LIMIT],
  ['remaining', HEADER_REMAINING],
  ['reset', HEADER_RESET],
] as const;

/**
 * Step 6.1: reads limit, remaining and reset in that order; on a failing header, the error and
 * the fields read before it (the shell applies none of them: see `Limiter`).
 */
export function readBucketHeaders(read: HeaderReader): {
  update: V6Update;
  error?: RateLimitUtf8Error | RateLimitI64Error;
} {
  const update: V6Update = {};
  for (const [field, header] of BUCKET_HEADERS) {
    const parsed = parseI64Header(read, header);
    if (!parsed.ok) return { update, error: parsed.error };
    if (parsed.value !== undefined) update[field] = parsed.value;
  }
  return { update };
}

// ── Request procedure: steps 4–6, what to do with a response ───────────────────────────────────
export type ResponseVerdict =
  /** Step 4 (key None), step 5 without retry-after, or step 6.3: return the response. */
  | { readonly action: 'return'; readonly step: '4' | '5' | '6.3'; readonly update?: V6Update }
  /** Step 5: global; sleep retry-after ms and go back to step 1. The bucket is not updated. */
  | { readonly action: 'wait-global'; readonly step: '5'; readonly waitMs: number }
  /** Step 5 / Errors: retry-after unparseable in the global branch → the error reaches the caller. */
  | { readonly action: 'fail'; readonly step: '5'; readonly error: RateLimitUtf8Error | RateLimitI64Error }
  /** Step 6.2: 429 with retry-after: sleep that long and go back to step 1. */
  | { readonly action: 'wait-retry'; readonly step: '6.2'; readonly waitMs: number; readonly update: V6Update }
  /** Step 6.4: a header of 6.1/6.2 failed to parse → send the request again. */
  | {
      readonly action: 'resend';
      readonly step: '6.4';
      readonly error: RateLimitUtf8Error | RateLimitI64Error;
      readonly update: V6Update;
    };

/**
 * Judges a response by steps 4–6. A negative retry-after is a wait of 0 ms.
 * Note step 5 applies whatever the status: the header's presence alone makes it global.
 */
export function judgeResponse(isNone: boolean, status: number, read: HeaderReader): ResponseVerdict {
  if (isNone) return { action: 'return', step: '4' };
  if (read(HEADER_GLOBAL) !== null) {
    const retryAfter = parseI64Header(read, HEADER_RETRY_AFTER);
    if (!retryAfter.ok) return { action: 'fail', step: '5', error: retryAfter.error };
    if (retryAfter.value === undefined) return { action: 'return', step: '5' };
    return { action: 'wait-global', step: '5', waitMs: Math.max(0, retryAfter.value) };
  }
  const { update, error } = readBucketHeaders(read);
  if (error) return { action: 'resend', step: '6.4', error, update };
  if (status === 429) {
    // retry-after is read only for a 429, as in step 6.2.
    const retryAfter = parseI64Header(read, HEADER_RETRY_AFTER);
    if (!retryAfter.ok) return { action: 'resend', step: '6.4', error: retryAfter.error, update };
    if (retryAfter.value !== undefined) {
      return { action: 'wait-retry', step: '6.2', waitMs: Math.max(0, retryAfter.value), update };
    }
  }
  return { action: 'return', step: '6.3', update };
}
