/**
 * The v10 dialect's judge for the limiter shell: reads a 429's JSON body (bounded in time and
 * size: a stalled body must not hold the bucket), then applies `judgeV10`.
 */
import { readTextWithin } from '../../body.ts';
import type { Judge } from '../../contracts/dialect.ts';
import { judgeV10, parseRateLimitBody, type RateLimitBody } from './rules.ts';

/** A 429 body is a few hundred bytes of JSON; more is not that JSON. */
const MAX_BODY_CHARS = 64 * 1024;

export function v10Judge(bodyTimeoutMs: number, wallClock: () => number = Date.now): Judge {
  return async (target, response) => {
    let body: RateLimitBody | undefined;
    if (response.status === 429 && response.body !== null) {
      const text = await readTextWithin(response.body, bodyTimeoutMs, () => new Error('429 body timed out')).catch(
        () => '',
      );
      if (text.length <= MAX_BODY_CHARS) body = parseRateLimitBody(text);
    }
    return judgeV10({
      status: response.status,
      read: (name) => response.headers.get(name),
      body,
      wallNowMs: wallClock(),
      webhookWithToken: target.webhookWithToken,
    });
  };
}
