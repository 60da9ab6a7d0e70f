/**
 * The v10 dialect's judge for the limiter shell: reads a 429's JSON body (bounded in time and
 * size: a stalled body must not hold the bucket), applies `judgeV10`, and says how a 429 was
 * meant (§3a's row as a scope) for events and telemetry.
 */
import { readTextWithin } from '../../body.ts';
import type { TokenKind } from '../../contracts/catalog.ts';
import type {
  CallTarget,
  HeaderReader,
  Judge,
  RateLimitNote,
  RateLimitScope,
  Verdict,
} from '../../contracts/dialect.ts';
import { parseRateLimitBody, type RateLimitBody } from './reading.ts';
import { bucketFields, judgeV10, row429, type Row429, type V10Verdict } from './rules.ts';

/** A 429 body is a few hundred bytes of JSON; more is not that JSON. */
const MAX_BODY_CHARS = 64 * 1024;

/** §3a's rows as the scopes events name. */
const SCOPE_OF_ROW: Readonly<Record<Row429, RateLimitScope>> = {
  ban: 'ban',
  global: 'global',
  shared: 'shared',
  sublimit: 'sublimit',
  bucket: 'user',
  route: 'user',
};

export function v10Judge(
  bodyTimeoutMs: number | undefined,
  wallClock: () => number = Date.now,
  tokenKind?: TokenKind,
): Judge {
  const judge = (target: CallTarget, response: Response, body: RateLimitBody | undefined): Verdict => {
    const read: HeaderReader = (name) => response.headers.get(name);
    const wallNowMs = wallClock();
    const verdict = judgeV10({
      status: response.status,
      read,
      body,
      wallNowMs,
      webhookWithToken: target.webhookWithToken,
      tokenKindRefused: tokenKind !== undefined && target.refusedTokens?.includes(tokenKind) === true,
    });
    if (response.status !== 429) return verdict;
    const fields = bucketFields(read, wallNowMs);
    const note: RateLimitNote = {
      scope: SCOPE_OF_ROW[row429(read, body, fields)],
      waitMs: waitOf(verdict),
      hash: fields.hash,
    };
    return { ...verdict, rateLimit: note } satisfies Verdict;
  };
  // Only a 429's body is read: any other answer is judged at once, without a turn of the event loop.
  return (target, response) =>
    response.status === 429 && response.body !== null
      ? (bodyTimeoutMs === undefined
          ? response.text()
          : readTextWithin(response.body, bodyTimeoutMs, () => new Error('429 body timed out'))
        ).then(
          (text) => judge(target, response, text.length <= MAX_BODY_CHARS ? parseRateLimitBody(text) : undefined),
          () => judge(target, response, undefined),
        )
      : judge(target, response, undefined);
}

/** The wait a 429's verdict keeps the call (or its key, route or token) waiting, in ms. */
function waitOf(verdict: V10Verdict): number {
  switch (verdict.action) {
    case 'wait-global':
    case 'wait-retry':
      return verdict.waitMs;
    case 'retry':
      return verdict.update.holdBucketMs ?? verdict.update.holdRouteMs ?? 0;
    case 'fail':
      return verdict.error.retryAfterMs ?? 0;
    case 'return':
      return 0;
  }
}
