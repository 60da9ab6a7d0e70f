/**
 * What the wire-garbage property (see run.ts) holds its calls to: the waits a response names (the
 * bounds of each wait and of a case's virtual time), the typed errors each dialect may raise, and
 * where the token may show in an error.
 */
import { inspect } from 'node:util';
import {
  CdnBanError,
  ClientClosedError,
  HttpError,
  InvalidRequestGuardError,
  NetworkError,
  RateLimitI64Error,
  RateLimitUtf8Error,
  RateLimitWaitError,
  RequestTimeoutError,
  TokenInvalidError,
  TollgateArgumentError,
  WebhookGoneError,
} from '../../../src/index.ts';
import { headersOf, I64_MAX, START_MS, type Answer, type Api, type ResponseSpec } from './answers.ts';

/** The token's secret part: it must never show in an error. */
export const SECRET = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs';

// ── What a response names (the bounds) ─────────────────────────────────────────────────────────
/** Every finite reading of a text as a number (a superset of what any parser accepts). */
function readings(text: string | null): number[] {
  if (text === null) return [];
  return [Number(text.trim() === '' ? Number.NaN : text), Number.parseFloat(text)].filter(Number.isFinite);
}
/** The spec's decimal (V2): optional sign, digits with an optional fraction; nothing else. */
function specDecimal(text: string | null): number | undefined {
  if (text === null || !/^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
/** v6: a signed 64-bit decimal integer (Errors rows 4–5), else undefined. */
function i64(text: string | null): number | undefined {
  if (text === null || !/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < -(2n ** 63n) || value > I64_MAX ? undefined : Number(value);
}
const secondsToMs = (seconds: number) => Math.max(0, Math.round(seconds * 1000));
export const maxOf = (values: readonly number[]) => values.reduce((a, b) => Math.max(a, b), 0);

/** The body's `retry_after` when the body is a JSON object with a finite number there. */
function bodyRetryAfter(spec: ResponseSpec): number | undefined {
  if (spec.body.kind !== 'text') return undefined;
  try {
    // The body is read as UTF-8 text, which drops a byte order mark.
    const json = JSON.parse(spec.body.text.replace(/^\ufeff/, '')) as unknown;
    if (typeof json !== 'object' || json === null) return undefined;
    const value = (json as { retry_after?: unknown }).retry_after;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
/** The `retry_after` of a 10 MB 429 body, which the rules may well not read (a 429 body is small). */
const huge429RetryAfter = (spec: ResponseSpec) =>
  spec.body.kind === 'huge' && spec.body.shape === 'json-429' ? 1.5 : undefined;

/** v10: the window a response names, in ms from its arrival (Reset-After, else Reset against Date or local time). */
function v10WindowsMs(headers: Headers, wallNowMs: number): number[] {
  const windows = readings(headers.get('x-ratelimit-reset-after')).map(secondsToMs);
  const date = Date.parse(headers.get('date') ?? '');
  const base = Number.isFinite(date) ? Math.min(date, wallNowMs) : wallNowMs;
  for (const reset of readings(headers.get('x-ratelimit-reset')))
    windows.push(Math.max(0, Math.round(reset * 1000 - base)));
  return windows;
}

/**
 * The longest wait a response can name, in ms from when it is handled at or after the case's
 * start (v6: `Reset` is absolute, on the client's clock; v10: `Reset` against real wall time).
 */
export function namedMs(api: Api, spec: Answer, caseWallMs: number): number {
  if (spec.kind !== 'response') return 0;
  const headers = headersOf(spec);
  if (api === 'v6') {
    const retryAfter = i64(headers.get('retry-after')) ?? 0;
    const reset = i64(headers.get('x-ratelimit-reset'));
    return maxOf([retryAfter, 1000, reset === undefined ? 0 : reset * 1000 + 1500 - START_MS]);
  }
  const precise = bodyRetryAfter(spec) ?? huge429RetryAfter(spec);
  return maxOf([
    1000,
    ...readings(headers.get('retry-after')).map(secondsToMs),
    ...(precise === undefined ? [] : [secondsToMs(precise)]),
    ...v10WindowsMs(headers, caseWallMs),
  ]);
}

/**
 * The exact bound of a 429's own wait (onWait reason `retry-after`).
 * v10 (`retryAfterMs`, V2, §3a, §11): the larger of `Retry-After` and the body's `retry_after`
 * (seconds, `Math.round` to ms) over those present; with neither, the window or 1 s.
 * v6 (step 6.2): `max(0, Retry-After)`, a signed 64-bit integer of ms; no wait when unparseable.
 */
export function retryAfterBoundMs(api: Api, spec: ResponseSpec, caseWallMs: number): number | undefined {
  const headers = headersOf(spec);
  if (api === 'v6') {
    const value = i64(headers.get('retry-after'));
    return value === undefined ? undefined : Math.max(0, value);
  }
  const precise = bodyRetryAfter(spec);
  const maybe = huge429RetryAfter(spec);
  const named = [precise, maybe, ...readings(headers.get('retry-after'))].filter((value) => value !== undefined);
  if (precise !== undefined || specDecimal(headers.get('retry-after')) !== undefined) {
    return secondsToMs(Math.max(...named));
  }
  // Neither named (or only in a form the rules may ignore): the window, else 1 s.
  return maxOf([1000, ...named.map(secondsToMs), ...v10WindowsMs(headers, caseWallMs)]);
}

/** The longest delay a Node timer holds (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A refused wait that was named (within the longest named wait) and is longer than any timer holds. */
export const untimeable = (error: RateLimitWaitError, longestNamed: number) =>
  error.waitMs > MAX_TIMER_MS && within(error.waitMs, longestNamed);

/** Transport backoffs (`transportBackoffMs`): 300 ms, 600 ms, 1.2 s … capped at 5 s. */
export const BACKOFFS = new Set([300, 600, 1200, 2400, 4800, 5000]);
/** Margin over a named wait: v6's 500 ms and whole seconds, v10's 50 ms, the 1 s global pace. */
export const MARGIN_MS = 5000;
export const within = (value: number, bound: number) => value <= bound * (1 + 1e-9) + MARGIN_MS;

// ── Errors ─────────────────────────────────────────────────────────────────────────────────────
const COMMON_ERRORS = [
  HttpError,
  RateLimitWaitError,
  NetworkError,
  RequestTimeoutError,
  ClientClosedError,
  TollgateArgumentError,
];
/** The typed errors each dialect may raise (v6's header errors are v6's; v10 ignores junk, V2). */
export const ERRORS: Record<Api, readonly (abstract new (...args: never[]) => Error)[]> = {
  v6: [...COMMON_ERRORS, RateLimitUtf8Error, RateLimitI64Error],
  v10: [...COMMON_ERRORS, CdnBanError, TokenInvalidError, WebhookGoneError, InvalidRequestGuardError],
};

/** Where the token shows in an error or its causes, if anywhere. */
export function tokenLeak(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && !seen.has(current) && depth < 20; depth++) {
    seen.add(current);
    const texts: [string, string][] = [
      ['String', safe(() => String(current))],
      ['inspect', safe(() => inspect(current, { depth: 5 }))],
    ];
    if (current instanceof Error) texts.push(['message', current.message], ['stack', current.stack ?? '']);
    for (const [where, text] of texts) {
      if (text.includes(SECRET)) return `${where} of ${depth === 0 ? 'the error' : `cause #${depth}`}`;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}
const safe = (make: () => string) => {
  try {
    return make();
  } catch (error) {
    return `<${String(error)}>`;
  }
};
export const describeError = (error: unknown) =>
  error instanceof Error ? `${error.constructor.name}(${JSON.stringify(error.message.slice(0, 160))})` : inspect(error);
