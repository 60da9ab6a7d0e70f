/** The v6 dialect's judge for the limiter shell: the spec's steps 4–6 (`rules.ts`), synchronous. */
import type { Judge, RateLimitNote } from '../../contracts/dialect.ts';
import { judgeResponse, type ResponseVerdict } from './rules.ts';

export const judgeV6: Judge = (target, response) => {
  const verdict = judgeResponse(target.bucket === null, response.status, (name) => response.headers.get(name));
  return response.status === 429 ? { ...verdict, rateLimit: noteOf(verdict) } : verdict;
};

/** How a v6 429 was meant: step 5 is the global lock, any other a bucket's. */
function noteOf(verdict: ResponseVerdict): RateLimitNote {
  const waitMs = verdict.action === 'wait-global' || verdict.action === 'wait-retry' ? verdict.waitMs : 0;
  return { scope: verdict.step === '5' ? 'global' : 'user', waitMs };
}
