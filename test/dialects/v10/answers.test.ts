/**
 * The answers tollgate makes itself for a request the limiter did not send (v10's `answers.ts`,
 * which a relay hands back): a 429 written as Discord writes one, so whoever relays the request
 * (@discordjs/rest, a bot behind the proxy) waits it out as it would Discord's.
 */
import { describe, expect, it } from 'vitest';
import { refusalAnswerOf } from '../../../src/dialects/v10/answers.ts';
import { CdnBanError, InvalidRequestGuardError } from '../../../src/dialects/v10/errors.ts';
import { RateLimitWaitError, type TollgateError } from '../../../src/errors.ts';

const CALL = {
  method: 'POST',
  route: 'POST /channels/:id/messages',
  routeKey: 'ChannelsIdMessages',
  bucketKey: 'POST /channels/:id/messages channels/1',
  resource: 'channels/1',
};

describe("a 429 tollgate makes: retry_after in seconds, as Discord's", () => {
  it.each<[string, TollgateError, number, boolean]>([
    ['a bucket wait', new RateLimitWaitError('bucket', 2345, 1000, CALL), 2.345, false],
    ['a global wait', new RateLimitWaitError('global', 1250, 1000, CALL), 1.25, true],
    // A queue wait past its maxWait: when to try again, not how long it waited.
    ['a queue wait', new RateLimitWaitError('queue', 10_000, 10_000, CALL, 130), 0.13, false],
    ["the invalid-request guard's", new InvalidRequestGuardError(9000, 9000, 61_500), 61.5, false],
    ['a CDN ban without Retry-After', new CdnBanError(undefined), 60, false],
  ])('%s: the body, Retry-After and X-RateLimit-Reset-After agree', async (_, error, seconds, global) => {
    const answer = refusalAnswerOf(error)!;
    expect(answer.status).toBe(429);
    const body = (await answer.json()) as { retry_after: number; global: boolean };
    expect(body.retry_after).toBe(seconds);
    expect(body.global).toBe(global);
    // Retry-After: whole seconds, the body's rounded up.
    expect(answer.headers.get('retry-after')).toBe(String(Math.ceil(body.retry_after)));
    if (global) {
      expect(answer.headers.get('x-ratelimit-global')).toBe('true');
    } else {
      expect(Number(answer.headers.get('x-ratelimit-reset-after'))).toBe(body.retry_after);
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });
});

describe('what the headers of a 429 tollgate makes say besides the wait', () => {
  it.each<[string, TollgateError, string]>([
    ['a bucket wait', new RateLimitWaitError('bucket', 2345, 1000, CALL), 'user'],
    ['a global wait', new RateLimitWaitError('global', 1250, 1000, CALL), 'global'],
    ["the invalid-request guard's", new InvalidRequestGuardError(9000, 9000, 61_500), 'user'],
  ])('%s: X-RateLimit-Scope %s, and a JSON body said so by Content-Type', async (_, error, scope) => {
    const answer = refusalAnswerOf(error)!;
    expect(answer.headers.get('x-ratelimit-scope')).toBe(scope);
    // Whoever relays it parses the body as JSON only when Content-Type says it is.
    expect(answer.headers.get('content-type')).toBe('application/json');
  });
});
