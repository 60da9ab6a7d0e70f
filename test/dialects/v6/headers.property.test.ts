/**
 * Header parsing over arbitrary bytes and strings: the result is a valid value, absence, or one
 * of the spec's two errors (Errors rows 4–5), never a throw of anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimitI64Error, RateLimitUtf8Error } from '../../../src/errors.ts';
import { judgeResponse, parseI64Header, readBucketHeaders } from '../../../src/dialects/v6/rules.ts';
import { runs } from '../../support/property-runs.ts';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A header value as fetch exposes it: one char per byte. */
const byteString = fc.uint8Array({ maxLength: 40 }).map((bytes) => String.fromCharCode(...bytes));
/** Header text that is usually near the grammar: signs, digits, spaces, big numbers. */
const numberish = fc.oneof(
  fc.bigInt({ min: I64_MIN * 4n, max: I64_MAX * 4n }).map(String),
  fc.stringMatching(/^[+-]?[0-9]{0,25}$/),
  fc
    .tuple(fc.constantFrom('', ' ', '+', '-', '0x', '1e'), fc.nat(), fc.constantFrom('', ' ', '.5', 'ms', '\u00ff'))
    .map(([a, n, b]) => `${a}${n}${b}`),
);
const anyValue = fc.oneof(byteString, numberish, fc.string({ unit: 'grapheme', maxLength: 20 }));

/** The expected outcome, decided independently of the parser. */
function oracle(raw: string): 'utf8' | 'i64' | bigint {
  const bytes = Uint8Array.from(raw, (char) => char.charCodeAt(0));
  let text = raw;
  if ([...raw].every((char) => char.charCodeAt(0) <= 0xff)) {
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      return 'utf8';
    }
  }
  if (!/^[+-]?[0-9]+$/.test(text)) return 'i64';
  const value = BigInt(text);
  return value < I64_MIN || value > I64_MAX ? 'i64' : value;
}

describe('properties: rate-limit header parsing', () => {
  it('parseI64Header: a value, or RateLimitUtf8 / RateLimitI64 exactly when the oracle says so', () => {
    fc.assert(
      fc.property(anyValue, (raw) => {
        const parsed = parseI64Header(() => raw, 'x-ratelimit-remaining');
        const expected = oracle(raw);
        if (expected === 'utf8') expect(parsed.ok === false && parsed.error).toBeInstanceOf(RateLimitUtf8Error);
        else if (expected === 'i64') expect(parsed.ok === false && parsed.error).toBeInstanceOf(RateLimitI64Error);
        else expect(parsed).toEqual({ ok: true, value: Number(expected) });
      }),
      runs(2000),
    );
  });

  it('an absent header is absence, not an error', () => {
    expect(parseI64Header(() => null, 'retry-after')).toEqual({ ok: true, value: undefined });
  });

  it('readBucketHeaders and judgeResponse never throw, whatever the headers and status', () => {
    const names = fc.constantFrom(
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-global',
      'retry-after',
    );
    fc.assert(
      fc.property(
        fc.dictionary(names, anyValue),
        fc.integer({ min: 100, max: 599 }),
        fc.boolean(),
        (headers, status, isNone) => {
          const read = (name: string) => headers[name] ?? null;
          const { error } = readBucketHeaders(read);
          if (error) expect([RateLimitUtf8Error, RateLimitI64Error].some((type) => error instanceof type)).toBe(true);
          const verdict = judgeResponse(isNone, status, read);
          expect(['return', 'wait-global', 'fail', 'wait-retry', 'resend']).toContain(verdict.action);
          if (verdict.action === 'wait-global' || verdict.action === 'wait-retry')
            expect(verdict.waitMs).toBeGreaterThanOrEqual(0);
          if (isNone) expect(verdict.action).toBe('return');
        },
      ),
      runs(2000),
    );
  });
});
