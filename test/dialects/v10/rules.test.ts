/** The v10 rules (docs/spec/v10-rate-limits.md §10), pure, and how a response is read for them: each test names its rule. */
import { describe, expect, it } from 'vitest';
import { CdnBanError } from '../../../src/dialects/v10/errors.ts';
import {
  parseDecimal,
  parseRateLimitBody,
  retryAfterMs,
  windowLeftMs,
  type RateLimitBody,
} from '../../../src/dialects/v10/reading.ts';
import { bucketFields, judgeV10, row429 } from '../../../src/dialects/v10/rules.ts';

const headers = (values: Record<string, string>) => {
  const map = new Headers(values);
  return (name: string) => map.get(name);
};
const WALL = Date.UTC(2026, 10, 22, 12, 0, 0);
const judge = (status: number, values: Record<string, string>, body?: RateLimitBody, webhookWithToken = false) =>
  judgeV10({ status, read: headers(values), body, wallNowMs: WALL, webhookWithToken });

const BUCKET = {
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset-after': '1.250',
  'x-ratelimit-bucket': 'abcd1234',
};

describe('V2: seconds, fractions allowed, junk ignored', () => {
  it.each([
    ['1470173023.123', 1470173023.123],
    ['1470173023', 1470173023],
    ['4.998', 4.998],
    ['0', 0],
    [' 2.5 ', 2.5],
    ['.5', 0.5],
  ])('%j → %d', (text, value) => expect(parseDecimal(text)).toBe(value));

  it.each(['', 'abc', '1e3', 'NaN', 'Infinity', '1.2.3', '0x10', '12abc', null])('%j is ignored', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });

  it('a junk header changes nothing and raises nothing (unlike v6 RateLimitI64)', () => {
    expect(
      bucketFields(
        headers({ 'x-ratelimit-limit': 'five', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset-after': 'soon' }),
        WALL,
      ),
    ).toEqual({});
  });

  it('Retry-After is seconds, never ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '65' }), undefined)).toBe(65_000);
  });
});

describe('V3: the window end', () => {
  it('Reset-After wins, in seconds', () => {
    expect(windowLeftMs(headers({ 'x-ratelimit-reset-after': '64.57', 'x-ratelimit-reset': '1' }), WALL)).toBe(64_570);
  });
  it('without Reset-After: Reset − Date', () => {
    const date = new Date(WALL - 3000).toUTCString();
    expect(windowLeftMs(headers({ 'x-ratelimit-reset': String((WALL + 2000) / 1000), date }), WALL)).toBe(5000);
  });
  it('without Reset-After or Date: Reset − local wall time', () => {
    expect(windowLeftMs(headers({ 'x-ratelimit-reset': String((WALL + 1500) / 1000) }), WALL)).toBe(1500);
  });
  it('negative waits are 0', () => {
    expect(windowLeftMs(headers({ 'x-ratelimit-reset': String((WALL - 5000) / 1000) }), WALL)).toBe(0);
    expect(windowLeftMs(headers({ 'x-ratelimit-reset-after': '-2' }), WALL)).toBe(0);
  });
});

describe('§3: the 429 body and retry_after', () => {
  it('reads retry_after (float seconds) and global', () => {
    expect(parseRateLimitBody('{"message":"x","retry_after":64.57,"global":false}')).toEqual({
      retryAfterSeconds: 64.57,
      global: false,
    });
    expect(parseRateLimitBody('error code: 1015')).toBeUndefined();
    expect(parseRateLimitBody('{"retry_after":"soon"}')).toEqual({});
  });
  it('the body is preferred: precise where the header is rounded up', () => {
    expect(retryAfterMs(headers({ 'retry-after': '65' }), { retryAfterSeconds: 64.57 })).toBe(64_570);
  });
  it('§11: apart by more than rounding, the larger wins', () => {
    expect(retryAfterMs(headers({ 'retry-after': '1337' }), { retryAfterSeconds: 64.57 })).toBe(1_337_000);
    expect(retryAfterMs(headers({ 'retry-after': '3' }), { retryAfterSeconds: 64.57 })).toBe(64_570);
  });
});

describe('V7: what a response says about its bucket', () => {
  it('limit, remaining, the window and the hash', () => {
    expect(judge(200, { ...BUCKET, 'x-ratelimit-remaining': '4' })).toEqual({
      action: 'return',
      rule: 'V7',
      update: { limit: 5, remaining: 4, windowLeftMs: 1250, hash: 'abcd1234' },
    });
  });
  it('V14: a response without headers sets no per-route limit', () => {
    expect(judge(204, {})).toEqual({ action: 'return', rule: 'V14', update: {} });
  });
});

describe('429s by scope', () => {
  it('V9: user scope at Remaining 0 holds the key for retry_after, then resends', () => {
    const verdict = judge(
      429,
      { ...BUCKET, 'x-ratelimit-scope': 'user', 'retry-after': '2' },
      { retryAfterSeconds: 1.25 },
    );
    expect(verdict).toEqual({
      action: 'retry',
      rule: 'V9',
      update: { limit: 5, remaining: 0, windowLeftMs: 1250, hash: 'abcd1234', holdBucketMs: 1250, invalid: true },
    });
  });
  it('V10: shared scope holds only the route + resource, keeps Remaining, is not invalid', () => {
    const verdict = judge(
      429,
      { ...BUCKET, 'x-ratelimit-remaining': '9', 'x-ratelimit-scope': 'shared', 'retry-after': '1337' },
      { retryAfterSeconds: 1336.57 },
    );
    expect(verdict).toEqual({
      action: 'retry',
      rule: 'V10',
      update: { limit: 5, remaining: 9, windowLeftMs: 1250, hash: 'abcd1234', holdRouteMs: 1_336_570 },
    });
  });
  it('V11: a non-shared 429 with Remaining > 0 is a sublimit: only this request waits', () => {
    const verdict = judge(
      429,
      { ...BUCKET, 'x-ratelimit-remaining': '1', 'x-ratelimit-scope': 'user' },
      { retryAfterSeconds: 600 },
    );
    expect(verdict).toMatchObject({
      action: 'wait-retry',
      rule: 'V11',
      waitMs: 600_000,
      update: { remaining: 1, invalid: true },
    });
  });
  it('§11: an unknown scope is treated as user', () => {
    expect(judge(429, { ...BUCKET, 'x-ratelimit-scope': 'route' }, { retryAfterSeconds: 1 })).toMatchObject({
      rule: 'V9',
    });
  });
  it.each([
    ['X-RateLimit-Global', { 'x-ratelimit-global': 'true', 'retry-after': '65' }, { retryAfterSeconds: 64.57 }],
    ['Scope global', { 'x-ratelimit-scope': 'global', 'retry-after': '65' }, { retryAfterSeconds: 64.57 }],
    [
      'body global: true',
      { 'retry-after': '65', 'x-ratelimit-limit': '5' },
      { retryAfterSeconds: 64.57, global: true },
    ],
  ])('V12: global by %s: pause the token for retry_after; buckets untouched', (_, values, body) => {
    expect(judge(429, values, body)).toEqual({ action: 'wait-global', rule: 'V12', waitMs: 64_570, invalid: true });
  });
});

describe('V17: a CDN ban', () => {
  it.each([
    ['text 1015', {}, undefined],
    ['with Retry-After', { 'retry-after': '3600' }, undefined],
    ['JSON without retry_after', {}, { global: false } as RateLimitBody],
  ])('a 429 without rate-limit headers or retry_after (%s) fails, never retried', (_, values, body) => {
    const verdict = judge(429, values, body);
    expect(verdict.action).toBe('fail');
    if (verdict.action !== 'fail') return;
    expect(verdict.rule).toBe('V17');
    expect(verdict.error).toBeInstanceOf(CdnBanError);
    expect(verdict.error.retryAfterMs).toBe('retry-after' in values ? 3_600_000 : undefined);
  });
});

describe('V15, V16, V19: invalid requests, 401, gone webhooks', () => {
  it('V16: 401 invalidates the token and counts', () => {
    expect(judge(401, {})).toEqual({ action: 'return', rule: 'V16', update: { invalid: true, tokenInvalid: true } });
  });
  it("V16: a 401 from a route that turns away the token's kind counts, and leaves the token good", () => {
    const verdict = judgeV10({
      status: 401,
      read: headers({}),
      body: undefined,
      wallNowMs: WALL,
      webhookWithToken: false,
      tokenKindRefused: true,
    });
    expect(verdict).toEqual({ action: 'return', rule: 'V16', update: { invalid: true } });
  });
  it('V15: 403 counts', () => {
    expect(judge(403, { ...BUCKET })).toMatchObject({ rule: 'V15', update: { invalid: true } });
  });
  it('V19: a 404 on a webhook with its token retires it; elsewhere a 404 is a 404', () => {
    expect(judge(404, {}, undefined, true)).toEqual({ action: 'return', rule: 'V19', update: { gone: true } });
    expect(judge(404, {}, undefined, false)).toEqual({ action: 'return', rule: 'V14', update: {} });
  });
});

/**
 * §3a, the 429 table, row by row: each case varies what a 429 carries (bucket headers, a JSON body
 * with or without retry_after, Via, X-RateLimit-Global, X-RateLimit-Scope) and names the row and
 * the verdict it must get.
 */
describe('§3a: every shape of 429', () => {
  const VIA = { via: '1.1 google' };
  const SPENT = { ...BUCKET, 'x-ratelimit-remaining': '0' };
  const LEFT = { ...BUCKET, 'x-ratelimit-remaining': '2' };
  const rows: [string, Record<string, string>, RateLimitBody | undefined, string, Record<string, unknown>][] = [
    // Row 1, ban: nothing says the service made it.
    [
      'no headers, no body, no Via',
      {},
      undefined,
      'ban',
      { action: 'fail', rule: 'V17', update: { limitsUnknown: true } },
    ],
    [
      'Retry-After only, no Via',
      { 'retry-after': '3600' },
      undefined,
      'ban',
      { action: 'fail', rule: 'V17', update: { holdRouteMs: 3_600_000, limitsUnknown: true } },
    ],
    ['JSON without retry_after, no Via', {}, { global: false }, 'ban', { action: 'fail', rule: 'V17' }],
    ['body global: true alone, no Via', {}, { global: true }, 'ban', { action: 'fail', rule: 'V17' }],
    // Row 2, global: any of the three signals, from the service.
    [
      'X-RateLimit-Global',
      { 'x-ratelimit-global': 'true', 'retry-after': '2' },
      undefined,
      'global',
      { action: 'wait-global', rule: 'V12', waitMs: 2000 },
    ],
    [
      'Scope global with Via, no body',
      { ...VIA, 'x-ratelimit-scope': 'global', 'retry-after': '3' },
      undefined,
      'global',
      { action: 'wait-global', waitMs: 3000 },
    ],
    [
      'body global: true with retry_after, no headers',
      {},
      { global: true, retryAfterSeconds: 0.5 },
      'global',
      { action: 'wait-global', waitMs: 500 },
    ],
    ['body global: true with Via, no wait named: 1 s', VIA, { global: true }, 'global', { waitMs: 1000 }],
    // Row 3, shared: only the route + resource waits, not invalid.
    [
      'Scope shared with bucket headers',
      { ...LEFT, 'x-ratelimit-scope': 'shared', 'retry-after': '5' },
      undefined,
      'shared',
      { action: 'retry', rule: 'V10', update: { remaining: 2, holdRouteMs: 5000, hash: 'abcd1234' } },
    ],
    [
      'Scope shared without bucket headers',
      { ...VIA, 'x-ratelimit-scope': 'shared' },
      { retryAfterSeconds: 1.5 },
      'shared',
      { action: 'retry', rule: 'V10', update: { holdRouteMs: 1500, limitsUnknown: true } },
    ],
    // Row 4, sublimit: bucket headers with places left.
    [
      'bucket headers, Remaining > 0, Scope user',
      { ...LEFT, 'x-ratelimit-scope': 'user' },
      { retryAfterSeconds: 2 },
      'sublimit',
      { action: 'wait-retry', rule: 'V11', waitMs: 2000, update: { remaining: 2, invalid: true } },
    ],
    // Row 5, bucket: the key is spent.
    [
      'bucket headers, Remaining 0, no scope, no body: the window',
      SPENT,
      undefined,
      'bucket',
      { action: 'retry', rule: 'V9', update: { remaining: 0, holdBucketMs: 1250, invalid: true } },
    ],
    [
      'bucket headers without Via',
      { ...SPENT, 'x-ratelimit-scope': 'user', 'retry-after': '2' },
      undefined,
      'bucket',
      { rule: 'V9', update: { holdBucketMs: 2000 } },
    ],
    // Row 6, route: from the service, bucket unknown.
    [
      'Via, Retry-After 1, empty body, no X-RateLimit-*',
      { ...VIA, 'retry-after': '1' },
      undefined,
      'route',
      { action: 'retry', rule: 'V9', update: { holdRouteMs: 1000, invalid: true, limitsUnknown: true } },
    ],
    [
      'JSON retry_after, no headers, no Via',
      {},
      { retryAfterSeconds: 0.25 },
      'route',
      { action: 'retry', update: { holdRouteMs: 250, limitsUnknown: true } },
    ],
    [
      'Scope user alone with Via, nothing named: 1 s',
      { ...VIA, 'x-ratelimit-scope': 'user' },
      undefined,
      'route',
      { update: { holdRouteMs: 1000, limitsUnknown: true } },
    ],
  ];
  it.each(rows.map(([what, values, body, row, verdict]) => [row, what, values, body, verdict] as const))(
    'row %s: %s',
    (row, _, values, body, verdict) => {
      expect(row429(headers(values), body, bucketFields(headers(values), WALL))).toBe(row);
      expect(judge(429, values, body)).toMatchObject(verdict);
    },
  );
});

describe('V2: what the wire-garbage property found', () => {
  it('a very long run of digits is no number (and is refused without a quadratic parse)', () => {
    expect(parseDecimal(`${'9'.repeat(20_000)}x`)).toBeUndefined();
    expect(parseDecimal('0'.repeat(300))).toBe(0);
    expect(parseDecimal('1.5')).toBe(1.5);
  });
  it('seconds too large to be milliseconds are ignored, in headers and in the body', () => {
    expect(parseDecimal('1E308')).toBeUndefined(); // not the grammar either
    expect(parseDecimal(`1${'0'.repeat(60)}`)).toBe(1e60);
    expect(parseRateLimitBody('{"retry_after":1e308}')).toEqual({});
    expect(Number.isFinite(retryAfterMs(headers({ 'retry-after': `1${'0'.repeat(60)}` }), undefined))).toBe(true);
  });
});
