/**
 * The reference service's v6 answers (docs/spec/rate-limit-spec.md), apart from the server that
 * dispatches to them so each API's rules read on their own; `dialect: 'discord'` only changes
 * how the same decision is written.
 */
import { NO_ROUTE_KEY } from './classify.ts';
import type { Exchange } from './exchange.ts';
import type { LimitEnforcer } from './limits.ts';
import { discordBucketHeaders, send, recordedStatus, sendAnswer, sendSlowly } from './responses.ts';

/** Header dialect of the v6 answers (ReferenceServiceOptions.dialect). */
type Dialect = 'spec' | 'discord' | undefined;

/** The v6 service: `None` routes unlimited, then the global limit, faults, and the bucket's decision. */
export async function answerV6(limits: LimitEnforcer, dialect: Dialect, exchange: Exchange): Promise<void> {
  const { request, response, routeKey, bucketKey, fault, record } = exchange;
  if (routeKey === NO_ROUTE_KEY) {
    // A catalog operation outside the spec's keys (v10's own routes): served, without limits or headers.
    const answer = await exchange.answer();
    record(recordedStatus(answer));
    return sendAnswer(response, answer, {});
  }
  const auth = request.headers.authorization ?? '';
  const globalLimited = (retryAfterMs: number | undefined) => {
    record(429, true);
    send(response, 429, { message: 'You are being rate limited.', global: true }, globalHeaders(dialect, retryAfterMs));
  };
  if (fault?.kind === 'global') return globalLimited(fault.retryAfterMs);
  const decision = limits.count(bucketKey, auth);
  if (decision.global) return globalLimited(decision.retryAfterMs);
  const headers =
    dialect === 'discord'
      ? { ...decision.headers, ...discordBucketHeaders(bucketKey, decision.retryAfterMs) }
      : decision.headers;
  if (fault?.kind === 'headers') {
    record(fault.status ?? 200);
    return send(response, fault.status ?? 200, { route: routeKey }, { ...headers, ...fault.headers });
  }
  if (fault?.kind === 'rate-limited-without-retry-after') {
    record(429);
    return send(response, 429, { message: 'You are being rate limited.' }, headers);
  }
  if (decision.limited) {
    record(429);
    return send(
      response,
      429,
      { message: 'You are being rate limited.' },
      { ...headers, 'retry-after': retryAfter(dialect, decision.retryAfterMs) },
    );
  }
  const answer = await exchange.answer();
  record(recordedStatus(answer));
  if (fault?.kind === 'slow-body') return await sendSlowly(response, answer, headers, fault.delayMs);
  sendAnswer(response, answer, headers);
}

/** retry-after in the dialect's unit: ms (spec) or seconds (Discord). */
function retryAfter(dialect: Dialect, ms: number): string {
  return dialect === 'discord' ? (Math.max(0, ms) / 1000).toFixed(3) : String(Math.max(0, ms));
}

function globalHeaders(dialect: Dialect, retryAfterMs: number | undefined): Record<string, string> {
  const scope: Record<string, string> = dialect === 'discord' ? { 'x-ratelimit-scope': 'global' } : {};
  return retryAfterMs === undefined
    ? { 'x-ratelimit-global': 'true', ...scope }
    : { 'x-ratelimit-global': 'true', 'retry-after': retryAfter(dialect, retryAfterMs), ...scope };
}
