/**
 * Reading a v10 response (docs/spec/v10-rate-limits.md §2, §3, V2, V3) as pure functions: its
 * rate-limit headers as numbers, its window, a 429's body and the wait it names, and whether the
 * service or its CDN made it. What the limiter must do about a response is `rules.ts`.
 */
import type { HeaderReader } from '../../contracts/dialect.ts';

export const V10_HEADER = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
  resetAfter: 'x-ratelimit-reset-after',
  bucket: 'x-ratelimit-bucket',
  global: 'x-ratelimit-global',
  scope: 'x-ratelimit-scope',
  retryAfter: 'retry-after',
  via: 'via',
} as const;

// ── V2: numbers ────────────────────────────────────────────────────────────────────────────────
// Linear: one way to split any run of digits (`\d+\.?\d*` had n of them, and a 16 KB header of
// digits took a second to refuse; found by the wire-garbage property).
const DECIMAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/**
 * V2: a decimal number of seconds (fractions allowed); anything that is not a finite number, in
 * seconds or in milliseconds, is ignored (`1E308` s would be an endless wait).
 */
export function parseDecimal(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value * 1000) ? value : undefined;
}

/** A count (limit, remaining): a whole number ≥ 0, or ignored. */
export function parseCount(text: string | null): number | undefined {
  const value = parseDecimal(text);
  return value !== undefined && Number.isInteger(value) && value >= 0 ? value : undefined;
}

const secondsToMs = (seconds: number) => Math.max(0, Math.round(seconds * 1000));

// ── V3: the window ─────────────────────────────────────────────────────────────────────────────
/**
 * V3: how long from this response until the window ends, in ms: `Reset-After`; else `Reset`
 * against the response's `Date`; else `Reset` against local wall time. Negative waits are 0.
 */
export function windowLeftMs(read: HeaderReader, wallNowMs: number): number | undefined {
  return windowLeft(read, parseDecimal(read(V10_HEADER.reset)), wallNowMs);
}

/** `windowLeftMs` with `Reset` already read (seconds, or undefined). */
export function windowLeft(read: HeaderReader, reset: number | undefined, wallNowMs: number): number | undefined {
  const resetAfter = parseDecimal(read(V10_HEADER.resetAfter));
  if (resetAfter !== undefined) return secondsToMs(resetAfter);
  if (reset === undefined) return undefined;
  const date = Date.parse(read('date') ?? '');
  const base = Number.isFinite(date) ? date : wallNowMs;
  return Math.max(0, Math.round(reset * 1000 - base));
}

// ── §3: 429s ───────────────────────────────────────────────────────────────────────────────────
/** The JSON body of a 429, as far as the rules need it; undefined when it is not that JSON. */
export interface RateLimitBody {
  readonly retryAfterSeconds?: number;
  readonly global?: boolean;
}

/** Reads a 429's body text: `retry_after` (float seconds) and `global`. Anything else: undefined. */
export function parseRateLimitBody(text: string): RateLimitBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { retry_after: retryAfter, global } = json as { retry_after?: unknown; global?: unknown };
  return {
    ...(typeof retryAfter === 'number' && Number.isFinite(retryAfter * 1000) && { retryAfterSeconds: retryAfter }),
    ...(typeof global === 'boolean' && { global }),
  };
}

/**
 * V2, §3, §11: the wait a 429 asks for, in ms: the body's `retry_after` (precise); the header's
 * `Retry-After` (whole seconds, rounded up) when the body has none; the larger of the two when
 * they differ by more than the header's rounding.
 */
export function retryAfterMs(read: HeaderReader, body: RateLimitBody | undefined): number | undefined {
  const header = parseDecimal(read(V10_HEADER.retryAfter));
  const precise = body?.retryAfterSeconds;
  if (precise === undefined) return header === undefined ? undefined : secondsToMs(header);
  if (header !== undefined && Math.abs(header - precise) > 1) return secondsToMs(Math.max(header, precise));
  return secondsToMs(precise);
}

/** §2: answers the service made itself carry `Via: 1.1 google`; ones the CDN made do not (#1463). */
export function fromService(read: HeaderReader): boolean {
  return /\bgoogle\b/i.test(read(V10_HEADER.via) ?? '');
}

/** True when a response carries any x-ratelimit-* header the rules read. */
export function hasRateLimitHeaders(read: HeaderReader): boolean {
  for (const name of [
    V10_HEADER.limit,
    V10_HEADER.remaining,
    V10_HEADER.reset,
    V10_HEADER.resetAfter,
    V10_HEADER.bucket,
    V10_HEADER.global,
    V10_HEADER.scope,
  ]) {
    if (read(name) !== null) return true;
  }
  return false;
}
