import { describe, expect, it } from 'vitest';
import { RateLimitI64Error, RateLimitUtf8Error } from '../../../src/errors.ts';
import {
  applyUpdate,
  initialBucket,
  judgeResponse,
  parseI64Header,
  readBucketHeaders,
  type HeaderReader,
} from '../../../src/dialects/v6/rules.ts';
import { preCheck } from '../../support/v6-oracle.ts';

const headers = (values: Record<string, string>): HeaderReader => {
  const map = new Headers(values);
  return (name) => map.get(name);
};
/** Builds a header value as fetch exposes it: one char per byte. */
const byteString = (bytes: number[]) => String.fromCharCode(...bytes);

describe('Bucket record', () => {
  it('initial values: limit 0, remaining 0, reset 0', () => {
    expect(initialBucket()).toEqual({ limit: 0, remaining: 0, reset: 0 });
  });
});

describe('States and transitions: pre-check', () => {
  const now = 1_000;
  it('row 1: limit is 0 → no change, request proceeds', () => {
    const bucket = { limit: 0, remaining: 0, reset: 0 };
    expect(preCheck(bucket, now)).toEqual({ row: 'limit-is-zero', bucket, sleepMs: 0 });
  });
  it('row 2: limit not 0 and now > reset → remaining = limit, request proceeds', () => {
    expect(preCheck({ limit: 5, remaining: 0, reset: now - 1 }, now)).toEqual({
      row: 'reset-passed',
      bucket: { limit: 5, remaining: 5, reset: now - 1 },
      sleepMs: 0,
    });
  });
  it('row 2 is strict: now equal to reset is not past it', () => {
    expect(preCheck({ limit: 5, remaining: 3, reset: now }, now).row).toBe('remaining-not-zero');
  });
  it('row 3: now ≤ reset and remaining 0 → remaining unchanged, sleep (reset − now) s in ms + 500 ms', () => {
    expect(preCheck({ limit: 5, remaining: 0, reset: now + 3 }, now)).toEqual({
      row: 'remaining-is-zero',
      bucket: { limit: 5, remaining: 0, reset: now + 3 },
      sleepMs: 3500,
    });
    expect(preCheck({ limit: 5, remaining: 0, reset: now }, now).sleepMs).toBe(500);
  });
  it('row 4: now ≤ reset and remaining not 0 → remaining − 1, request proceeds', () => {
    expect(preCheck({ limit: 5, remaining: 2, reset: now + 1 }, now)).toEqual({
      row: 'remaining-not-zero',
      bucket: { limit: 5, remaining: 1, reset: now + 1 },
      sleepMs: 0,
    });
  });
  it('does not change the bucket it is given', () => {
    const bucket = { limit: 5, remaining: 2, reset: now + 1 };
    preCheck(bucket, now);
    expect(bucket.remaining).toBe(2);
  });
});

describe('States and transitions: after a response (non-global)', () => {
  const bucket = { limit: 1, remaining: 2, reset: 3 };
  it('row 5: x-ratelimit-limit present → limit set', () => {
    expect(applyUpdate(bucket, { limit: 10 })).toEqual({ limit: 10, remaining: 2, reset: 3 });
  });
  it('row 6: x-ratelimit-remaining present → remaining set', () => {
    expect(applyUpdate(bucket, { remaining: 9 })).toEqual({ limit: 1, remaining: 9, reset: 3 });
  });
  it('row 7: x-ratelimit-reset present → reset set', () => {
    expect(applyUpdate(bucket, { reset: 99 })).toEqual({ limit: 1, remaining: 2, reset: 99 });
  });
  it('absent headers leave their fields alone', () => {
    expect(readBucketHeaders(headers({}))).toEqual({ update: {} });
    expect(applyUpdate(bucket, {})).toEqual(bucket);
  });
  it('reads all three headers as integers', () => {
    const read = headers({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '1700000000' });
    expect(readBucketHeaders(read)).toEqual({ update: { limit: 5, remaining: 4, reset: 1_700_000_000 } });
  });
  it('keeps the fields read before a header that fails to parse', () => {
    const read = headers({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': 'x', 'x-ratelimit-reset': '7' });
    const { update, error } = readBucketHeaders(read);
    expect(update).toEqual({ limit: 5 });
    expect(error).toBeInstanceOf(RateLimitI64Error);
  });
});

describe('Errors: header parsing', () => {
  const parse = (value: string) => parseI64Header((name) => (name === 'h' ? value : null), 'h');
  it.each([
    ['0', 0],
    ['42', 42],
    ['-1', -1],
    ['+7', 7],
    ['007', 7],
    ['9223372036854775807', 2 ** 63],
    ['-9223372036854775808', -(2 ** 63)],
  ])('a signed 64-bit decimal %s parses', (text, value) => {
    expect(parse(text)).toEqual({ ok: true, value });
  });
  it.each(['', ' ', '1.5', '1e3', '0x10', '12a', '--1', '+', '9223372036854775808', '-9223372036854775809', '１２'])(
    'Errors row 5: %j is not a signed 64-bit integer → RateLimitI64',
    (text) => {
      const result = parse(text);
      expect(result).toMatchObject({ ok: false });
      expect(!result.ok && result.error).toBeInstanceOf(RateLimitI64Error);
    },
  );
  it('Errors row 4: bytes that are not valid UTF-8 → RateLimitUtf8', () => {
    for (const bytes of [[0xff], [0x31, 0xc3], [0xe2, 0x28, 0xa1], [0xc0, 0xaf]]) {
      const result = parseI64Header(() => byteString(bytes), 'retry-after');
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toBeInstanceOf(RateLimitUtf8Error);
    }
  });
  it('valid UTF-8 that is not a number is RateLimitI64, not RateLimitUtf8', () => {
    const result = parseI64Header(() => byteString([0xc3, 0xa9]), 'retry-after'); // "é"
    expect(!result.ok && result.error).toBeInstanceOf(RateLimitI64Error);
  });
  it('absent → no value, no error', () => {
    expect(parseI64Header(() => null, 'retry-after')).toEqual({ ok: true, value: undefined });
  });
  it('errors name the header and never echo more than 64 characters of its value', () => {
    const result = parseI64Header(() => 'x'.repeat(500), 'x-ratelimit-reset');
    expect(!result.ok && result.error.message).toContain('x-ratelimit-reset');
    expect(!result.ok && result.error.message.length).toBeLessThan(200);
  });
});

describe('Request procedure: steps 4–6', () => {
  it('step 4: key None → return the response as received, whatever its headers', () => {
    expect(judgeResponse(true, 429, headers({ 'retry-after': '5', 'x-ratelimit-global': 'true' }))).toEqual({
      action: 'return',
      step: '4',
    });
  });
  it('step 5: x-ratelimit-global present with retry-after → wait that long and repeat; bucket untouched', () => {
    const verdict = judgeResponse(
      false,
      429,
      headers({ 'x-ratelimit-global': '', 'retry-after': '1500', 'x-ratelimit-limit': '5' }),
    );
    expect(verdict).toEqual({ action: 'wait-global', step: '5', waitMs: 1500 });
  });
  it('step 5: presence is enough, whatever the value and the status', () => {
    expect(judgeResponse(false, 200, headers({ 'x-ratelimit-global': 'false', 'retry-after': '10' })).action).toBe(
      'wait-global',
    );
  });
  it('step 5: global without retry-after → return the response', () => {
    expect(judgeResponse(false, 429, headers({ 'x-ratelimit-global': 'true' }))).toEqual({
      action: 'return',
      step: '5',
    });
  });
  it('step 5 / Errors: an unparseable retry-after in the global branch reaches the caller', () => {
    const i64 = judgeResponse(false, 429, headers({ 'x-ratelimit-global': 'true', 'retry-after': 'soon' }));
    expect(i64).toMatchObject({ action: 'fail', step: '5' });
    expect(i64.action === 'fail' && i64.error).toBeInstanceOf(RateLimitI64Error);
    const utf8 = judgeResponse(false, 429, (name) =>
      name === 'x-ratelimit-global' ? 'true' : name === 'retry-after' ? byteString([0xff]) : null,
    );
    expect(utf8.action === 'fail' && utf8.error).toBeInstanceOf(RateLimitUtf8Error);
  });
  it('step 6.2 / Errors row 1: non-global 429 with retry-after → wait retry-after ms and repeat', () => {
    expect(judgeResponse(false, 429, headers({ 'retry-after': '250', 'x-ratelimit-remaining': '0' }))).toEqual({
      action: 'wait-retry',
      step: '6.2',
      waitMs: 250,
      update: { remaining: 0 },
    });
  });
  it('step 6.3 / Errors row 2: 429 without retry-after → returned to the caller', () => {
    expect(judgeResponse(false, 429, headers({ 'x-ratelimit-remaining': '0' }))).toEqual({
      action: 'return',
      step: '6.3',
      update: { remaining: 0 },
    });
  });
  it('step 6.3: a non-429 response is returned, retry-after not read', () => {
    expect(judgeResponse(false, 200, headers({ 'retry-after': 'junk', 'x-ratelimit-limit': '5' }))).toEqual({
      action: 'return',
      step: '6.3',
      update: { limit: 5 },
    });
  });
  it('step 6.4: a bucket header that fails to parse → send again (no error surfaced)', () => {
    const verdict = judgeResponse(false, 200, headers({ 'x-ratelimit-reset': '12.5' }));
    expect(verdict).toMatchObject({ action: 'resend', step: '6.4', update: {} });
  });
  it('step 6.4: an unparseable retry-after on a non-global 429 → send again', () => {
    const verdict = judgeResponse(false, 429, headers({ 'retry-after': 'later', 'x-ratelimit-limit': '3' }));
    expect(verdict).toMatchObject({ action: 'resend', step: '6.4', update: { limit: 3 } });
  });
  it('a negative retry-after is a wait of 0 ms', () => {
    expect(judgeResponse(false, 429, headers({ 'retry-after': '-5' }))).toMatchObject({ waitMs: 0 });
  });
});
