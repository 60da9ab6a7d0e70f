/** Response headers the tests share. */

/** v10: a spent bucket's user-scope 429 (Remaining 0, the window 1.5 s away, Retry-After 2 s). */
export const SPENT_BUCKET_429 = {
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset-after': '1.5',
  'x-ratelimit-bucket': 'abc123',
  'x-ratelimit-scope': 'user',
  'retry-after': '2',
};
