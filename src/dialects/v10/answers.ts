/**
 * The answers the service would give to a request the limiter did not send, for a relay
 * (`createRelay`): whoever relays it (@discordjs/rest, a bot behind the proxy) then handles it as
 * it handles the service's own: a 429 it waits out and sends again, a 401 or a 404 it reports.
 * Each is marked as tollgate's (`x-tollgate-generated`, naming the error's code), says nothing
 * was sent (`x-tollgate-sent: 0`), and never counts as an invalid request in tollgate: it never
 * reaches the limiter's judge.
 */
import { RateLimitWaitError, type TollgateError } from '../../errors.ts';
import { CdnBanError, InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from './errors.ts';

/** Names the error a generated answer stands for (`RATE_LIMIT_WAIT`, `TOKEN_INVALID`, …). */
export const GENERATED_HEADER = 'x-tollgate-generated';
/** `0`: the request did not reach the service, so sending it again duplicates nothing. */
export const SENT_HEADER = 'x-tollgate-sent';

/** The answer for a request the limiter refused with `error`, or undefined for an error that stays one. */
export function refusalAnswerOf(error: unknown): Response | undefined {
  if (error instanceof RateLimitWaitError) {
    return rateLimited(error, error.retryAfterMs, error.reason === 'global');
  }
  if (error instanceof InvalidRequestGuardError) return rateLimited(error, error.retryAfterMs, false);
  if (error instanceof CdnBanError) return rateLimited(error, error.retryAfterMs ?? 60_000, false);
  if (error instanceof TokenInvalidError) return answer(error, 401, { message: '401: Unauthorized', code: 0 });
  if (error instanceof WebhookGoneError) return answer(error, 404, { message: 'Unknown Webhook', code: 10015 });
  return undefined;
}

/**
 * A 429 as the service writes one: `Retry-After` in whole seconds, the body's `retry_after` in
 * seconds with a fraction. A bucket's wait also says its window is spent (`Remaining: 0` and
 * `Reset-After`), which @discordjs/rest reads as "wait, then send again"; a global one says
 * `X-RateLimit-Global`.
 */
function rateLimited(error: TollgateError, waitMs: number, global: boolean): Response {
  const seconds = Math.max(0, waitMs) / 1000;
  const headers: Record<string, string> = {
    'retry-after': String(Math.ceil(seconds)),
    'x-ratelimit-scope': global ? 'global' : 'user',
  };
  if (global) headers['x-ratelimit-global'] = 'true';
  else {
    headers['x-ratelimit-remaining'] = '0';
    headers['x-ratelimit-reset-after'] = seconds.toFixed(3);
  }
  const body = { message: 'You are being rate limited.', retry_after: Number(seconds.toFixed(3)), global, code: 0 };
  return answer(error, 429, body, headers);
}

function answer(error: TollgateError, status: number, body: object, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      ...headers,
      'content-type': 'application/json',
      [GENERATED_HEADER]: error.code,
      [SENT_HEADER]: '0',
    },
  });
}
