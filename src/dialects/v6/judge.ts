/** The v6 dialect's judge for the limiter shell: the spec's steps 4–6 (`rules.ts`), synchronous. */
import type { Judge } from '../../contracts/dialect.ts';
import { judgeResponse } from './rules.ts';

export const judgeV6: Judge = (target, response) =>
  judgeResponse(target.bucket === null, response.status, (name) => response.headers.get(name));
