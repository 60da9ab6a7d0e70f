/**
 * The reference service's v10 answers, apart from the server that dispatches to them so each
 * API's rules read on their own.
 */
import type { ServiceRoute } from './classify.ts';
import type { Exchange } from './exchange.ts';
import { UNAUTHORIZED } from './routing.ts';
import { recordedStatus, sendAnswer, sendSlowly, sendV10 } from './responses.ts';
import type { V10LimitEnforcer } from './v10-limits.ts';

/** The v10 service: the enforcer's decision, in v10's headers and bodies (docs/spec/v10-rate-limits.md §2, §3, §7). */
export async function answerV10(v10: V10LimitEnforcer, v10Route: ServiceRoute, exchange: Exchange): Promise<void> {
  const { request, response, fault, open, tokenAccepted, record } = exchange;
  const ban = (retryAfterSeconds?: number) => {
    record(429);
    // Static, from the CDN: no rate-limit headers, no Via, not the JSON of §3.
    const headers: Record<string, string> = { 'content-type': 'text/plain' };
    if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
    response.writeHead(429, headers);
    response.end('error code: 1015');
  };
  if (fault?.kind === 'ban') {
    v10.noteInvalid();
    return ban(fault.retryAfterSeconds);
  }
  const decision = v10.count(v10Route, request.headers.authorization ?? '', { open, tokenAccepted });
  const rateLimited = (headers: Record<string, string>, scope: string, retryAfterMs: number, global = false) =>
    sendV10(
      response,
      429,
      {
        message: scope === 'shared' ? 'The resource is being rate limited.' : 'You are being rate limited.',
        retry_after: Math.max(0, retryAfterMs) / 1000,
        global,
      },
      { ...headers, 'x-ratelimit-scope': scope, 'retry-after': String(Math.ceil(Math.max(0, retryAfterMs) / 1000)) },
    );
  switch (decision.kind) {
    case 'ban':
      return ban(3600);
    case 'unauthorized':
      record(401);
      return sendV10(response, 401, UNAUTHORIZED);
    case 'unknown-webhook':
      record(404);
      return sendV10(response, 404, { message: 'Unknown Webhook', code: 10015 });
    case 'global':
      record(429, true);
      return rateLimited({ 'x-ratelimit-global': 'true' }, 'global', decision.retryAfterMs, true);
  }
  const { headers, bucketKey, route } = decision;
  if (fault?.kind === 'global') {
    v10.noteInvalid();
    record(429, true, bucketKey);
    return rateLimited({ 'x-ratelimit-global': 'true' }, 'global', 1000, true);
  }
  if (fault?.kind === 'shared' || fault?.kind === 'sublimit') {
    // Both leave places in the bucket (Remaining > 0); a sublimit counts as invalid, shared not.
    if (fault.kind === 'sublimit') v10.noteInvalid();
    record(429, false, bucketKey);
    const remaining = String(Math.max(1, Number(headers['x-ratelimit-remaining'] ?? 1)));
    const scope = fault.kind === 'shared' ? 'shared' : 'user';
    return rateLimited({ ...headers, 'x-ratelimit-remaining': remaining }, scope, fault.retryAfterMs);
  }
  if (fault?.kind === 'headers') {
    record(fault.status ?? 200, false, bucketKey);
    return sendV10(response, fault.status ?? 200, { route }, { ...headers, ...fault.headers });
  }
  if (decision.limited) {
    record(429, false, bucketKey);
    return rateLimited(headers, decision.limited, decision.retryAfterMs);
  }
  const answer = await exchange.answer();
  record(recordedStatus(answer), false, bucketKey);
  if (fault?.kind === 'slow-body')
    return await sendSlowly(response, answer, { ...headers, via: '1.1 google' }, fault.delayMs);
  sendAnswer(response, answer, { ...headers, via: '1.1 google' });
}
