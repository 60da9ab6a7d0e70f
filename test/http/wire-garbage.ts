/**
 * Garbage from the wire never breaks a call (issue "Safe on every answer and every input", point 7).
 *
 * fast-check generates, for either dialect, a few calls (typed methods and raw `client.request`,
 * on one or two channels so that some share a bucket), run together or one after another, each
 * answered by its own sequence of 1–4 answers. An answer is "wild" (any status, any of the
 * rate-limit headers, `Via`, `Date` and `Content-Type`, any body), "plausible" (a success or a 429
 * of each scope as the dialect sends them, then some headers dropped, garbled or duplicated), or
 * rarely a transport failure. Header values: sane ones, non-ASCII bytes (valid UTF-8 or not),
 * huge ones, duplicates as fetch shows them ("a, b"), negative, NaN, exponent forms ('1e3'),
 * '-0', '+5', inner whitespace. Bodies: empty, HTML, truncated JSON, JSON with odd `retry_after`
 * and `global` values, (rarely, streamed lazily) 10 MB, or a body whose connection drops halfway.
 * The client runs in-process: `fetch` hands out the generated answers, one per attempt of the
 * call that asks (an AsyncLocalStorage names the call), and a plain 200 without headers once
 * they run out; time is virtual (see `VirtualClock` and `drive`).
 *
 * For every case:
 * 1. every call ends: it resolves (a typed method only on a 2xx, a raw call with the last
 *    answer), or rejects with one of tollgate's typed errors for its dialect (an HttpError with
 *    the last answer's status; RateLimitWaitError only with a maxWait, or for a named wait no
 *    timer can hold; never ClientClosedError or TollgateArgumentError: the client is open and
 *    the calls valid; under v10 a 429 without rate-limit headers may be a CdnBanError, V17);
 *    it fetches at most its answers + 1 times; the case's virtual time stays within the sum of
 *    every wait its answers name (plus backoffs, maxWait deadlines and margins); the clock is
 *    never asked for an endless timer (NaN, Infinity); no case takes more than
 *    `CASE_BUDGET_MS` of real time (an answer that blocks the event loop is a hang too);
 * 2. no unhandled rejection (process 'unhandledRejection', during the run);
 * 3. the token appears in no error: message, stack, `String(error)`, `util.inspect(error,
 *    {depth: 5})`, and the same for every `cause` down the chain (nor in any onWait event);
 * 4. no wait is longer than `maxWait` (when set), none is negative or not finite, and a 429's
 *    own wait (onWait reason `retry-after`) is no longer than what that 429 named:
 *    - v10 (`rules.ts` `retryAfterMs`, V2, §3a, §11): `Math.round(1000 × max(Retry-After,
 *      retry_after))` over the two values present (seconds; the body's precise one is preferred,
 *      the larger one taken when they differ by more than the header's rounding); with neither,
 *      the window (`Reset-After`, or `Reset` against `Date`/local time) or 1 s;
 *    - v6 (rate-limit-spec.md, step 6.2, `judgeResponse`): `max(0, Retry-After)` where
 *      Retry-After is a signed 64-bit integer of **milliseconds**; any other text is no wait at
 *      all (step 6.4: resend);
 *    transport backoffs (`server-error`, `network-error`) are 300 ms · 2^k capped at 5 s and
 *    follow a 5xx or a transport failure of the same call; bucket and global waits are within
 *    the longest wait any answer of the case named (plus a margin), queue waits within all of
 *    them together;
 * 5. no bucket is left locked: afterwards, one fresh call per bucket the case used (maxWait
 *    lifted), answered 200 with sane headers, fetches once and resolves within the longest
 *    wait any answer named plus a margin of virtual time (v10 after a 401: TokenInvalidError,
 *    V16); then `client.close()` leaves no timer of the clock pending.
 *
 * Seed: FC_SEED, else PROPERTY_SEED (in the test titles; printed with the run's figures when a test
 * fails, or with TOLLGATE_TEST_LOG=1); cases: FC_RUNS (default 10 000: half per dialect).
 * WIRE_REPLAY='<counterexample as printed>' runs one case; WIRE_DEBUG=1 prints slow cases.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CdnBanError,
  ClientClosedError,
  createClient,
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
  type Clock,
  type TollgateClient,
  type WaitEvent,
} from '../../src/index.ts';
import { integerFromEnv, PROPERTY_SEED } from '../support/property-runs.ts';
import { testLog } from '../support/test-log.ts';

const SEED = integerFromEnv('FC_SEED', PROPERTY_SEED);
const RUNS = integerFromEnv('FC_RUNS', 10_000);
/** Hunting aids: WIRE_API=v6|v10 runs one dialect; WIRE_SKIP leaves families of answers out (see `SKIPPABLE`). */
const APIS: readonly Api[] = process.env.WIRE_API ? [process.env.WIRE_API as Api] : ['v6', 'v10'];
/**
 * Answers that keep finding a bug already reported, left out with WIRE_SKIP=family,… to look
 * past it (the default leaves nothing out):
 * - `cut`: a body whose connection drops halfway;
 * - `overflow`: seconds so large that their ms overflow to Infinity (≥ ~1.8e305 s);
 * - `redos`: header values with runs of 16 000 / 30 000 digits.
 */
const SKIPPABLE = ['cut', 'overflow', 'redos'] as const;
const SKIP = new Set((process.env.WIRE_SKIP ?? '').split(',').filter(Boolean));
for (const family of SKIP) {
  if (!(SKIPPABLE as readonly string[]).includes(family)) throw new Error(`WIRE_SKIP: unknown family ${family}`);
}
/** The seed and the run's figures: shown when a test fails, or with TOLLGATE_TEST_LOG=1. */
const log = testLog();
log(
  `[wire-garbage] fast-check seed ${SEED} (FC_SEED=${SEED} replays it), ${RUNS} cases (FC_RUNS)` +
    (SKIP.size > 0 ? `, leaving out ${[...SKIP].join(', ')} (WIRE_SKIP)` : ''),
);
type Api = 'v6' | 'v10';

/** The token: its secret part must never show in an error. */
const SECRET = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs';
const TOKEN = `Bot ${SECRET}`;
/** Virtual time starts here (v6 compares `Reset` with the client's clock). */
const START_MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const START_S = START_MS / 1000;

// ── Virtual time ───────────────────────────────────────────────────────────────────────────────
interface Timer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
}

/**
 * A clock whose timers fire without real waiting: `fireNext` runs the earliest one (ties in the
 * order they were set) and moves `now` to its due time. The test's driver calls it whenever the
 * process has no immediate work left.
 */
class VirtualClock implements Clock {
  #now = START_MS;
  #order = 0;
  #timers: Timer[] = [];
  /** Bumped by every timer set or fired: the driver's sign of progress. */
  activity = 0;
  readonly problems: string[] = [];

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    this.activity++;
    if (typeof ms !== 'number' || Number.isNaN(ms) || ms === Number.POSITIVE_INFINITY) {
      // Such a timer never fires here; the driver then reports the hang.
      this.problems.push(`clock.setTimeout(…, ${String(ms)}): a wait that never ends`);
      return () => {};
    }
    const timer: Timer = { at: this.#now + Math.max(0, ms), order: this.#order++, callback };
    this.#timers.push(timer);
    return () => {
      const index = this.#timers.indexOf(timer);
      if (index !== -1) this.#timers.splice(index, 1);
    };
  }

  get pending(): number {
    return this.#timers.length;
  }

  /** Fires the earliest timer; false when none is pending. */
  fireNext(): boolean {
    if (this.#timers.length === 0) return false;
    let next = 0;
    for (let index = 1; index < this.#timers.length; index++) {
      const timer = this.#timers[index]!;
      const best = this.#timers[next]!;
      if (timer.at < best.at || (timer.at === best.at && timer.order < best.order)) next = index;
    }
    const [timer] = this.#timers.splice(next, 1);
    this.#now = Math.max(this.#now, timer!.at);
    this.activity++;
    timer!.callback();
    return true;
  }
}

let realTicks = 0;
const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));
/** One real timer turn: ky's retry delay (a real `setTimeout(0)`) set before it has run after it. */
const realTick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Quiet real turns (no virtual timer pending, nothing moving) after which open calls hang. */
const QUIET_TURNS = 4;
/** Timer firings and driver steps per phase: far above what any case needs. */
const MAX_STEPS = 3000;

/** Real timers alive now (ky's retry delay, its request timeout, a body's deadline, the runner's own). */
const realTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/**
 * Runs the process until `done()`. Each step lets immediate work run; then, when a real timer
 * more than the runner's own is alive (ky's 0 ms retry delay: real work about to go on), one
 * real timer turn; else the earliest virtual timer; else a real turn in case. So virtual time
 * moves only when the exchange has nothing else to do, as if it were infinitely fast.
 * 'hang': calls open, no virtual timer, nothing moving for a few real turns; 'runaway': too many steps.
 */
async function drive(
  clock: VirtualClock,
  done: () => boolean,
  progress: () => number,
  baseline: number,
): Promise<'ok' | 'hang' | 'runaway'> {
  let quiet = 0;
  let realFirst = true;
  for (let step = 0; step < MAX_STEPS; step++) {
    await immediate();
    await immediate();
    if (done()) return 'ok';
    if (realFirst && realTimers() > baseline) {
      const before = progress();
      realTicks++;
      await realTick();
      // A real timer that moved nothing (not ky's): the virtual timers go next.
      realFirst = progress() !== before;
      continue;
    }
    realFirst = true;
    if (clock.fireNext()) {
      quiet = 0;
      continue;
    }
    const before = progress();
    realTicks++;
    await realTick();
    if (done()) return 'ok';
    if (progress() === before && clock.pending === 0) {
      if (++quiet >= QUIET_TURNS) return 'hang';
    } else quiet = 0;
  }
  return 'runaway';
}

// ── Generated answers ──────────────────────────────────────────────────────────────────────────
const HEADER_NAMES = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-reset-after',
  'x-ratelimit-bucket',
  'x-ratelimit-global',
  'x-ratelimit-scope',
  'retry-after',
  'via',
  'date',
  'content-type',
] as const;
type HeaderName = (typeof HEADER_NAMES)[number];

/** Text as the wire carries it: UTF-8 bytes, one char per byte (what fetch exposes). */
const utf8Bytes = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));
/** Headers refuses NUL, CR and LF (and trims spaces and tabs at both ends). */
const headerSafe = (value: string): string => value.replace(/[\0\r\n]/g, '');

const numberTexts = fc.constantFrom(
  '0',
  '1',
  '2',
  '5',
  '10',
  '0.5',
  '1.5',
  '64.57',
  '65',
  '-1',
  '-0',
  '+5',
  '1e3',
  '1E-2',
  '-1e3',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1_000',
  '1 000',
  '.5',
  '5.',
  '',
  '1.',
  '0.0004',
  '0.0006',
  '00012',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999',
  '1e308',
  '1e309',
  '4.9e-324',
  '2147483.648',
  '2147483648',
  'true',
  'false',
  'null',
);
const unicodeDigits = fc
  .constantFrom('\u0661\u0662', '\uff15', '\u00b2', '\u0967', '5\u00a0', '\u2212' + '1', '\u{1d7d3}', 'é', '🙂')
  .map(utf8Bytes);
/** Lengths of long header values: a 16 KB header is what Node's HTTP parser takes by default. */
const LONG_VALUE_LENGTHS = [
  20,
  40,
  300,
  400,
  5000,
  ...(SKIP.has('overflow') ? [] : [306, 307, 308]),
  ...(SKIP.has('redos') ? [] : [16_000, 30_000]),
];
/** A value near the grammar: numbers of every size and sign, decimals, exponents. */
const numeric = fc.oneof(
  { weight: 6, arbitrary: numberTexts },
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 120 }).map(String) },
  { weight: 2, arbitrary: fc.double({ min: -1e6, max: 1e6 }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', ' ', '+', '-', '0x', '1e', '\t'),
        fc.nat(),
        fc.constantFrom('', ' ', '.5', 'ms', 's', '\t', ',5'),
      )
      .map(([a, n, b]) => `${a}${n}${b}`),
  },
);
/** Garbage: bytes (valid UTF-8 or not), non-ASCII digits, huge values, odd whitespace. */
const garbage = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((text) => headerSafe(utf8Bytes(text))) },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 12 }).map((bytes) => headerSafe(String.fromCharCode(...bytes))),
  },
  { weight: 2, arbitrary: unicodeDigits },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map(headerSafe) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('9', '1', '0', 'a', ' '), fc.constantFrom(...LONG_VALUE_LENGTHS))
      .map(([char, length]) => (char === ' ' ? `1${' '.repeat(length)}2` : char.repeat(length))),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(numeric, fc.constantFrom(' ', '\t', ' \t '), fc.constantFrom('', ' ', '\t'))
      .map(([value, inner, outer]) => `${outer}${value.split('').join(inner)}${outer}`),
  },
);

/** Sane-looking values per header, so the interesting branches are reached too. */
function saneValue(name: HeaderName): fc.Arbitrary<string> {
  switch (name) {
    case 'x-ratelimit-limit':
    case 'x-ratelimit-remaining':
      return fc.integer({ min: 0, max: 10 }).map(String);
    case 'x-ratelimit-reset':
      return fc
        .tuple(fc.integer({ min: -10, max: 120 }), fc.boolean())
        .map(([offset, fraction]) => (fraction ? (START_S + offset + 0.123).toFixed(3) : String(START_S + offset)));
    case 'x-ratelimit-reset-after':
      return fc.constantFrom('0', '0.25', '1', '1.5', '4.998', '60', '64.57');
    case 'x-ratelimit-bucket':
      return fc.constantFrom('abcd1234', 'abcd1234', 'hash-2', ' abcd1234 ', '');
    case 'x-ratelimit-global':
      return fc.constantFrom('true', 'false', '1', '');
    case 'x-ratelimit-scope':
      return fc.constantFrom('user', 'global', 'shared', 'GLOBAL', ' Shared ', 'route');
    case 'retry-after':
      return fc.constantFrom('0', '1', '2', '5', '65', '1337', '100', '1500', '-3');
    case 'via':
      return fc.constantFrom('1.1 google', '1.1 google', '1.1 GOOGLE', '1.0 varnish', '1.1 google, 1.1 cdn');
    case 'date':
      return fc.oneof(
        fc.integer({ min: -120, max: 120 }).map((offset) => new Date(START_MS + offset * 1000).toUTCString()),
        fc.constantFrom(
          'Thu, 01 Jan 1970 00:00:00 GMT',
          'Sat, 01 Jan 10000 00:00:00 GMT',
          new Date(START_MS).toISOString(),
          'yesterday',
          '0',
          '-1',
        ),
      );
    case 'content-type':
      return fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/html',
        'text/plain',
        'application/problem+json',
        'application/octet-stream',
      );
  }
}

/** One header: one value, or a few appended (fetch joins duplicates with ", "). */
const header = fc
  .constantFrom(...HEADER_NAMES)
  .chain((name) =>
    fc.tuple(
      fc.constant(name),
      fc.array(
        fc.oneof(
          { weight: 4, arbitrary: saneValue(name) },
          { weight: 2, arbitrary: numeric },
          { weight: 2, arbitrary: garbage },
        ),
        { minLength: 1, maxLength: 3 },
      ),
    ),
  );

type BodySpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly text: string }
  /** About 10 MB, produced lazily when the Response is read. */
  | { readonly kind: 'huge'; readonly shape: 'json' | 'text' | 'html' | 'json-429' }
  /** The connection drops halfway through the body. */
  | { readonly kind: 'cut'; readonly text: string };

const oddRetryAfter = fc
  .oneof(
    fc.constantFrom(
      '0',
      '0.0004',
      '0.001',
      '0.5',
      '1.5',
      '64.57',
      '1336.57',
      '-1',
      '-0',
      '1e3',
      '1e-3',
      '1E308',
      '1e400',
      '-1e400',
      '"5"',
      '""',
      'null',
      'true',
      '[1]',
      '{}',
      '9007199254740993',
      '2147483.648',
    ),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
    fc.integer({ min: -10, max: 100 }).map(String),
  )
  .filter((text) => !SKIP.has('overflow') || !(Math.abs(Number(text)) > 1e300));
const oddGlobal = fc.constantFrom('true', 'false', '"true"', '1', '0', 'null', '[]');
const rateLimitJson = fc
  .tuple(
    fc.option(oddRetryAfter, { nil: undefined }),
    fc.option(oddGlobal, { nil: undefined }),
    fc.option(fc.constantFrom('"You are being rate limited."', '5', 'null'), { nil: undefined }),
    fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
  )
  .map(([retryAfter, global, message, code]) => {
    const fields = [
      message !== undefined && `"message":${message}`,
      retryAfter !== undefined && `"retry_after":${retryAfter}`,
      global !== undefined && `"global":${global}`,
      code !== undefined && `"code":${code}`,
    ].filter(Boolean);
    return `{${fields.join(',')}}`;
  });
const html = fc.constantFrom(
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
  '<!DOCTYPE html><html><body>error code: 1015</body></html>',
  '<html><body>You are being rate limited',
);
const bodyText = fc.oneof(
  { weight: 5, arbitrary: rateLimitJson },
  {
    weight: 3,
    arbitrary: rateLimitJson.chain((json) =>
      fc.nat({ max: Math.max(0, json.length - 1) }).map((cut) => json.slice(0, cut)),
    ),
  },
  { weight: 2, arbitrary: html },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '5', 'null', '[]', '"x"', 'true', '{', '{"id":"1"}', '\ufeff{"retry_after":1}'),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
const body: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 400, arbitrary: fc.constant({ kind: 'none' } as const) },
  { weight: 800, arbitrary: bodyText.map((text) => ({ kind: 'text', text }) as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('json', 'text', 'html', 'json-429').map((shape) => ({ kind: 'huge', shape }) as const),
  },
  { weight: SKIP.has('cut') ? 0 : 4, arbitrary: bodyText.map((text) => ({ kind: 'cut', text }) as const) },
);

const status = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(200, 200, 201, 204, 429, 429, 429, 429, 500, 502, 503, 504) },
  { weight: 2, arbitrary: fc.constantFrom(400, 401, 403, 404, 405, 301, 304, 418, 204, 205) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) },
);

interface ResponseSpec {
  readonly kind: 'response';
  readonly status: number;
  readonly headers: readonly (readonly [HeaderName, readonly string[]])[];
  readonly body: BodySpec;
}
/** The transport fails: no response (connection refused or reset). */
interface NetworkFailure {
  readonly kind: 'network-error';
}
type Answer = ResponseSpec | NetworkFailure;

/** Any status, any set of headers with any values, any body. */
const wildResponse: fc.Arbitrary<ResponseSpec> = fc.record({
  kind: fc.constant('response' as const),
  status,
  headers: fc.array(header, { maxLength: 7 }),
  body,
});

/** What is done to one header of a plausible answer. */
type Mutation =
  | { readonly op: 'keep' }
  | { readonly op: 'drop' }
  | { readonly op: 'replace'; readonly value: string }
  | { readonly op: 'append'; readonly value: string };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ op: 'keep' } as const) },
  { weight: 1, arbitrary: fc.constant({ op: 'drop' } as const) },
  { weight: 2, arbitrary: fc.oneof(numeric, garbage).map((value) => ({ op: 'replace', value }) as const) },
  { weight: 1, arbitrary: fc.oneof(numeric, garbage).map((value) => ({ op: 'append', value }) as const) },
);

const SHAPES = ['ok', 'ok-spent', 'user', 'sublimit', 'shared', 'global', 'no-retry-after', 'cdn'] as const;
type Shape = (typeof SHAPES)[number];
interface Template {
  readonly status: number;
  readonly headers: readonly (readonly [HeaderName, string])[];
  readonly body: string;
}

/** A well-formed answer of the dialect (a success, a 429 of each scope, a CDN ban), before mutation. */
function template(
  api: Api,
  shape: Shape,
  limit: number,
  remaining: number,
  resetInMs: number,
  retryMs: number,
): Template {
  const rateLimitJson = (global: boolean) =>
    `{"message":"You are being rate limited.","retry_after":${api === 'v6' ? retryMs : retryMs / 1000},"global":${global}}`;
  const json: [HeaderName, string] = ['content-type', 'application/json'];
  if (api === 'v6') {
    const bucket: [HeaderName, string][] = [
      ['x-ratelimit-limit', String(limit)],
      ['x-ratelimit-remaining', String(shape === 'ok' ? remaining : 0)],
      ['x-ratelimit-reset', String(START_S + Math.ceil(resetInMs / 1000))],
    ];
    switch (shape) {
      case 'ok':
      case 'ok-spent':
        return { status: 200, headers: [...bucket, json], body: '{"id":"1"}' };
      case 'global':
        return {
          status: 429,
          headers: [['x-ratelimit-global', 'true'], ['retry-after', String(retryMs)], json],
          body: rateLimitJson(true),
        };
      case 'no-retry-after':
      case 'cdn':
        return {
          status: 429,
          headers: shape === 'cdn' ? [] : bucket,
          body: '<html><body>error code: 1015</body></html>',
        };
      default:
        return {
          status: 429,
          headers: [...bucket, ['retry-after', String(retryMs)], json],
          body: rateLimitJson(false),
        };
    }
  }
  const via: [HeaderName, string] = ['via', '1.1 google'];
  const bucket = (left: number): [HeaderName, string][] => [
    ['x-ratelimit-limit', String(limit)],
    ['x-ratelimit-remaining', String(left)],
    ['x-ratelimit-reset', (START_S + resetInMs / 1000).toFixed(3)],
    ['x-ratelimit-reset-after', (resetInMs / 1000).toFixed(3)],
    ['x-ratelimit-bucket', limit % 2 === 0 ? 'abcd1234' : 'hash-2'],
  ];
  const retryAfter: [HeaderName, string] = ['retry-after', String(Math.ceil(retryMs / 1000))];
  switch (shape) {
    case 'ok':
    case 'ok-spent':
      return { status: 200, headers: [...bucket(shape === 'ok' ? remaining : 0), via, json], body: '{"id":"1"}' };
    case 'user':
      return {
        status: 429,
        headers: [...bucket(0), ['x-ratelimit-scope', 'user'], retryAfter, via, json],
        body: rateLimitJson(false),
      };
    case 'sublimit':
    case 'shared':
      return {
        status: 429,
        headers: [
          ...bucket(Math.max(1, remaining)),
          ['x-ratelimit-scope', shape === 'shared' ? 'shared' : 'user'],
          retryAfter,
          via,
          json,
        ],
        body: rateLimitJson(false),
      };
    case 'global':
      return {
        status: 429,
        headers: [['x-ratelimit-global', 'true'], ['x-ratelimit-scope', 'global'], retryAfter, via, json],
        body: rateLimitJson(true),
      };
    case 'no-retry-after':
      return { status: 429, headers: [...bucket(0), via], body: '' };
    case 'cdn':
      return { status: 429, headers: [retryAfter], body: '<html><body>error code: 1015</body></html>' };
  }
}

/** The most headers a template has: one mutation each. */
const MAX_TEMPLATE_HEADERS = 9;

/** A well-formed answer of the dialect with some of its headers dropped, garbled or duplicated. */
const plausibleResponse = (api: Api): fc.Arbitrary<ResponseSpec> =>
  fc
    .record({
      shape: fc.constantFrom(...SHAPES),
      limit: fc.integer({ min: 1, max: 5 }),
      remaining: fc.integer({ min: 0, max: 3 }),
      resetInMs: fc.integer({ min: 0, max: 10_000 }),
      retryMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 120_000 })),
      mutations: fc.array(mutation, { minLength: MAX_TEMPLATE_HEADERS, maxLength: MAX_TEMPLATE_HEADERS }),
      extra: fc.array(header, { maxLength: 2 }),
      /** undefined: the template's own body. */
      body: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: body }),
    })
    .map(({ shape, limit, remaining, resetInMs, retryMs, mutations, extra, body: otherBody }): ResponseSpec => {
      const base = template(api, shape, limit, remaining, resetInMs, retryMs);
      const headers = base.headers.flatMap(([name, value], index): (readonly [HeaderName, readonly string[]])[] => {
        const change = mutations[index]!;
        if (change.op === 'drop') return [];
        if (change.op === 'replace') return [[name, [change.value]]];
        return [[name, change.op === 'append' ? [value, change.value] : [value]]];
      });
      return {
        kind: 'response',
        status: base.status,
        headers: [...headers, ...extra],
        body: otherBody ?? { kind: 'text', text: base.body },
      };
    });

const answer = (api: Api): fc.Arbitrary<Answer> =>
  fc.oneof(
    { weight: 20, arbitrary: wildResponse },
    { weight: 20, arbitrary: plausibleResponse(api) },
    { weight: 1, arbitrary: fc.constant({ kind: 'network-error' } as const) },
  );

const CALL_KINDS = ['channels.get', 'messages.create', 'raw GET', 'raw POST', 'raw GET none'] as const;
type CallKind = (typeof CALL_KINDS)[number];

interface CallSpec {
  readonly kind: CallKind;
  readonly channel: '1' | '2';
  readonly answers: readonly Answer[];
}

interface Case {
  readonly api: Api;
  readonly maxWait: number | undefined;
  readonly timeout: number | false | undefined;
  readonly concurrent: boolean;
  readonly calls: readonly CallSpec[];
}

const callSpec = (api: Api): fc.Arbitrary<CallSpec> =>
  fc.record({
    kind: fc.constantFrom(...CALL_KINDS),
    channel: fc.constantFrom('1' as const, '2' as const),
    answers: fc.array(answer(api), { minLength: 1, maxLength: 4 }),
  });

const caseOf = (api: Api): fc.Arbitrary<Case> =>
  fc.record({
    api: fc.constant(api),
    maxWait: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 5000 }) },
      { weight: 1, arbitrary: fc.constantFrom(0, 1000, 60_000, 3_600_000) },
    ),
    timeout: fc.constantFrom<number | false | undefined>(undefined, false, 60_000),
    concurrent: fc.boolean(),
    calls: fc.array(callSpec(api), { minLength: 1, maxLength: 3 }),
  });

// ── Building Responses ─────────────────────────────────────────────────────────────────────────
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const MB = 1024 * 1024;
const HUGE_BYTES = 10 * MB;
const FILL = new Uint8Array(MB).fill(0x61); // 'a'

function headersOf(spec: ResponseSpec): Headers {
  const headers = new Headers();
  for (const [name, values] of spec.headers) for (const value of values) headers.append(name, value);
  return headers;
}

/** A ~10 MB body, made chunk by chunk as it is read. */
function hugeStream(shape: 'json' | 'text' | 'html' | 'json-429'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const prefix = encoder.encode(
    shape === 'json'
      ? '{"id":"'
      : shape === 'json-429'
        ? '{"retry_after":1.5,"global":false,"x":"'
        : shape === 'html'
          ? '<html><body>'
          : '',
  );
  const suffix = encoder.encode(
    shape === 'json' || shape === 'json-429' ? '"}' : shape === 'html' ? '</body></html>' : '',
  );
  const chunks = HUGE_BYTES / MB;
  let sent = -1;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === -1) controller.enqueue(prefix.slice());
      else if (sent < chunks) controller.enqueue(FILL.slice());
      else {
        controller.enqueue(suffix.slice());
        controller.close();
      }
      sent++;
    },
  });
}

/** A body that ends in a transport error after half of its text. */
function cutStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let step = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (step++ === 0) controller.enqueue(bytes.slice(0, Math.floor(bytes.length / 2)));
      else controller.error(new TypeError('terminated', { cause: networkCause() }));
    },
  });
}

const networkCause = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

function buildResponse(spec: ResponseSpec): Response {
  const headers = headersOf(spec);
  const init = { status: spec.status, headers };
  if (NULL_BODY_STATUSES.has(spec.status) || spec.body.kind === 'none') return new Response(null, init);
  switch (spec.body.kind) {
    case 'text':
      return new Response(spec.body.text, init);
    case 'huge':
      return new Response(hugeStream(spec.body.shape), init);
    case 'cut':
      return new Response(cutStream(spec.body.text), init);
  }
}

/** The answer when a call's generated ones ran out. */
const PLAIN_OK: ResponseSpec = { kind: 'response', status: 200, headers: [], body: { kind: 'none' } };

/** A fresh call's answer: 200, sane headers, a small JSON body. */
function freshResponse(api: Api, nowMs: number, bucket: string): Response {
  const headers: Record<string, string> =
    api === 'v6'
      ? {
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '4',
          'x-ratelimit-reset': String(
            Number.isFinite(nowMs) ? min(BigInt(Math.floor(nowMs / 1000)) + 2n, I64_MAX) : I64_MAX,
          ),
        }
      : {
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '4',
          'x-ratelimit-reset-after': '1.000',
          'x-ratelimit-bucket': bucket,
          via: '1.1 google',
        };
  return new Response('{"id":"1"}', { status: 200, headers: { ...headers, 'content-type': 'application/json' } });
}

// ── What a response names (the bounds) ─────────────────────────────────────────────────────────
const I64_MAX = 2n ** 63n - 1n;
const min = (a: bigint, b: bigint) => (a < b ? a : b);

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
const maxOf = (values: readonly number[]) => values.reduce((a, b) => Math.max(a, b), 0);

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
function namedMs(api: Api, spec: Answer, caseWallMs: number): number {
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
function retryAfterBoundMs(api: Api, spec: ResponseSpec, caseWallMs: number): number | undefined {
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
const untimeable = (error: RateLimitWaitError, longestNamed: number) =>
  error.waitMs > MAX_TIMER_MS && within(error.waitMs, longestNamed);

/** Transport backoffs (`transportBackoffMs`): 300 ms, 600 ms, 1.2 s … capped at 5 s. */
const BACKOFFS = new Set([300, 600, 1200, 2400, 4800, 5000]);
/** Margin over a named wait: v6's 500 ms and whole seconds, v10's 50 ms, the 1 s global pace. */
const MARGIN_MS = 5000;
const within = (value: number, bound: number) => value <= bound * (1 + 1e-9) + MARGIN_MS;

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
const ERRORS: Record<Api, readonly (abstract new (...args: never[]) => Error)[]> = {
  v6: [...COMMON_ERRORS, RateLimitUtf8Error, RateLimitI64Error],
  v10: [...COMMON_ERRORS, CdnBanError, TokenInvalidError, WebhookGoneError, InvalidRequestGuardError],
};

/** Where the token shows in an error or its causes, if anywhere. */
function tokenLeak(error: unknown): string | undefined {
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
const describeError = (error: unknown) =>
  error instanceof Error ? `${error.constructor.name}(${JSON.stringify(error.message.slice(0, 160))})` : inspect(error);

// ── One case ───────────────────────────────────────────────────────────────────────────────────
interface CallRun {
  readonly spec: CallSpec;
  readonly fresh: boolean;
  fetches: number;
  /** The answers handed out, in order. */
  readonly served: Answer[];
  outcome: { kind: 'pending' } | { kind: 'resolved'; value: unknown } | { kind: 'rejected'; error: unknown };
  endedAt: number;
}

type Phase = 'main' | 'fresh' | 'closing';
const calls = new AsyncLocalStorage<CallRun>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const stats = {
  cases: { v6: 0, v10: 0 },
  outcomes: new Map<string, number>(),
  waits: new Map<string, number>(),
  served: new Map<string, number>(),
  hugeBodies: 0,
  startedAt: 0,
};
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

const baseUrlOf = (api: Api) => (api === 'v6' ? 'http://127.0.0.1:1/api' : 'http://127.0.0.1:1/api/v10');

function invoke(client: TollgateClient, kind: CallKind, channel: string): Promise<unknown> {
  switch (kind) {
    case 'channels.get':
      return client.channels.get(channel);
    case 'messages.create':
      return client.channels.messages.create(channel, { content: 'hello' });
    case 'raw GET':
      return client.request('GET', `/channels/${channel}`);
    case 'raw POST':
      return client.request('POST', `/channels/${channel}/messages`, { json: { content: 'hello' } });
    case 'raw GET none':
      return client.request('GET', '/oauth2/applications/@me');
  }
}
/** The longest maxWait a call takes: the fresh calls after a case wait for any lock short of that. */
const FRESH_MAX_WAIT = Number.MAX_SAFE_INTEGER;
/** The same call with maxWait lifted, for the fresh call after the case. */
function invokeFresh(client: TollgateClient, kind: CallKind, channel: string): Promise<unknown> {
  const options = { maxWait: FRESH_MAX_WAIT };
  switch (kind) {
    case 'channels.get':
      return client.channels.get(channel, undefined, options);
    case 'messages.create':
      return client.channels.messages.create(channel, { content: 'hello' }, options);
    case 'raw GET':
      return client.request('GET', `/channels/${channel}`, options);
    case 'raw POST':
      return client.request('POST', `/channels/${channel}/messages`, { ...options, json: { content: 'hello' } });
    case 'raw GET none':
      return client.request('GET', '/oauth2/applications/@me', options);
  }
}
const isRaw = (kind: CallKind) => kind.startsWith('raw');
/** Calls that count in one bucket (same dialect): raw GET /channels/:id is `channels.get`'s. */
const bucketOf = (kind: CallKind, channel: string) =>
  kind === 'raw GET none'
    ? 'none'
    : `${kind === 'raw GET' ? 'channels.get' : kind === 'raw POST' ? 'messages.create' : kind}:${channel}`;

/**
 * Real time one case may take. Cases take a few ms (one with a 10 MB body up to some 250 ms);
 * one that takes a second blocked the event loop (an answer costing more than linear time to read).
 */
const CASE_BUDGET_MS = 1000;

async function runCase(kase: Case): Promise<void> {
  const began = performance.now();
  const problems = await runCaseProblems(kase);
  const took = performance.now() - began;
  if (took > CASE_BUDGET_MS)
    problems.push(`the case took ${Math.round(took)} ms of real time (budget ${CASE_BUDGET_MS} ms)`);
  if (process.env.WIRE_DEBUG && took > 100)
    console.log(`slow case ${Math.round(took)} ms: ${JSON.stringify(kase).slice(0, 2000)}`);
  if (problems.length > 0) throw new Error(`${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
}

async function runCaseProblems(kase: Case): Promise<string[]> {
  const problems: string[] = [];
  const clock = new VirtualClock();
  const caseWallMs = Date.now();
  const baseline = realTimers();
  const { api } = kase;
  stats.cases[api]++;
  const unhandledBefore = unhandled.length;
  let phase = 'main' as Phase;
  let progress = 0;
  /** Each wait, with the call it was in (if any) and that call's latest answer when it began. */
  const events: { event: WaitEvent; call: CallRun | undefined; last: Answer | undefined; phase: Phase }[] = [];

  const fetch = async (request: Request): Promise<Response> => {
    progress++;
    const call = calls.getStore();
    if (!call) {
      problems.push(`a fetch outside any call: ${request.method} ${request.url}`);
      return buildResponse(PLAIN_OK);
    }
    call.fetches++;
    if (call.fresh) {
      call.served.push(PLAIN_OK);
      return freshResponse(api, clock.now(), `fresh-${call.spec.kind}`);
    }
    if (call.fetches > call.spec.answers.length + 1) {
      problems.push(
        `${call.spec.kind}: fetch #${call.fetches} after ${call.spec.answers.length} answers and the plain 200`,
      );
    }
    const next = call.spec.answers[call.fetches - 1] ?? PLAIN_OK;
    call.served.push(next);
    if (next.kind === 'network-error') {
      bump(stats.served, 'network-error');
      throw new TypeError('fetch failed', { cause: networkCause() });
    }
    bump(stats.served, next.status === 429 ? '429' : `${String(next.status)[0]}xx`);
    if (next.body.kind === 'huge') stats.hugeBodies++;
    return buildResponse(next);
  };

  const client = createClient({
    api,
    baseUrl: baseUrlOf(api),
    token: TOKEN,
    fetch: fetch as typeof globalThis.fetch,
    clock,
    ...(kase.maxWait !== undefined && { maxWait: kase.maxWait }),
    ...(kase.timeout !== undefined && { timeout: kase.timeout }),
    onWait: (event) => {
      progress++;
      const call = calls.getStore();
      events.push({ event, call, last: call?.served.at(-1), phase });
    },
  });

  const start = (spec: CallSpec, fresh: boolean): { run: CallRun; done: Promise<void> } => {
    const run: CallRun = { spec, fresh, fetches: 0, served: [], outcome: { kind: 'pending' }, endedAt: 0 };
    const done = calls.run(run, () =>
      (fresh ? invokeFresh : invoke)(client, spec.kind, spec.channel).then(
        (value) => {
          progress++;
          run.outcome = { kind: 'resolved', value };
          run.endedAt = clock.now();
        },
        (error: unknown) => {
          progress++;
          run.outcome = { kind: 'rejected', error };
          run.endedAt = clock.now();
        },
      ),
    );
    return { run, done };
  };

  // ── Main phase: the generated calls, together or one after another ────────────────────────
  const runs: CallRun[] = [];
  let mainDone = false;
  void (async () => {
    if (kase.concurrent) {
      const started = kase.calls.map((spec) => start(spec, false));
      runs.push(...started.map(({ run }) => run));
      await Promise.all(started.map(({ done }) => done));
    } else {
      for (const spec of kase.calls) {
        const { run, done } = start(spec, false);
        runs.push(run);
        await done;
      }
    }
  })().finally(() => {
    mainDone = true;
  });
  const mainEnd = await drive(
    clock,
    () => mainDone,
    () => progress + clock.activity,
    baseline,
  );
  const mainElapsed = clock.now() - START_MS;
  if (mainEnd !== 'ok') {
    const open = runs
      .filter((run) => run.outcome.kind === 'pending')
      .map((run) => `${run.spec.kind}(${run.fetches} fetches)`);
    problems.push(`main phase: ${mainEnd}; open calls: ${open.join(', ') || 'none'}; virtual time +${mainElapsed} ms`);
  }

  // Every wait any response names, summed: the case cannot take longer.
  const allAnswers = kase.calls.flatMap((spec) => spec.answers);
  const longestNamed = maxOf(allAnswers.map((spec) => namedMs(api, spec, caseWallMs)));
  // Per answer: its named wait, a transport backoff (≤ 5 s) and a margin; per call: a queue
  // deadline (maxWait) it may wait out.
  const totalNamed = allAnswers.reduce(
    (sum, spec) => sum + namedMs(api, spec, caseWallMs) + 5000 + MARGIN_MS,
    MARGIN_MS + kase.calls.length * (kase.maxWait ?? 0),
  );
  if (!(mainElapsed <= totalNamed * (1 + 1e-9))) {
    problems.push(
      `main phase took ${mainElapsed} ms of virtual time; the responses name at most ${totalNamed} ms in all`,
    );
  }

  // ── Outcomes ──────────────────────────────────────────────────────────────────────────────
  const served401 = runs.some((run) => run.served.some((spec) => spec.kind === 'response' && spec.status === 401));
  for (const run of runs) {
    const { kind } = run.spec;
    const last = run.served.at(-1);
    if (run.fetches > run.spec.answers.length + 1) continue; // already reported
    if (run.outcome.kind === 'pending') continue; // reported as the hang
    bump(
      stats.outcomes,
      `${api} ${run.outcome.kind === 'resolved' ? 'resolved' : (run.outcome.error as Error)?.constructor?.name}`,
    );
    if (run.outcome.kind === 'resolved') {
      if (last === undefined || last.kind !== 'response') {
        problems.push(`${kind} resolved without a response (served ${run.served.length})`);
      } else if (isRaw(kind)) {
        const got = (run.outcome.value as Response).status;
        if (got !== last.status)
          problems.push(`${kind} resolved with status ${got}, the last answer was ${last.status}`);
      } else if (last.status < 200 || last.status > 299) {
        problems.push(`${kind} resolved although the last answer was ${last.status}`);
      }
      continue;
    }
    const error = run.outcome.error;
    if (!ERRORS[api].some((type) => error instanceof type)) {
      problems.push(
        `${kind} rejected with an untyped error: ${describeError(error)} (cause: ${describeError((error as Error)?.cause)})`,
      );
    }
    if (error instanceof ClientClosedError || error instanceof TollgateArgumentError) {
      problems.push(`${kind} rejected with ${describeError(error)} although the client was open and the call valid`);
    }
    // Without maxWait only a wait no timer can hold (a named one, above 2^31 − 1 ms) may be refused.
    if (error instanceof RateLimitWaitError && kase.maxWait === undefined && !untimeable(error, longestNamed)) {
      problems.push(`${kind}: ${describeError(error)} without a maxWait`);
    }
    if (error instanceof RateLimitWaitError && kase.maxWait !== undefined && !(error.waitMs >= kase.maxWait)) {
      problems.push(`${kind}: ${describeError(error)}, a wait within maxWait ${kase.maxWait} refused`);
    }
    if (error instanceof HttpError) {
      if (isRaw(kind)) problems.push(`${kind} (raw) rejected with ${describeError(error)}`);
      else if (last?.kind !== 'response' || error.status !== last.status) {
        problems.push(
          `${kind}: HttpError ${error.status}, the last answer was ${last?.kind === 'response' ? last.status : last?.kind}`,
        );
      }
    }
    const leak = tokenLeak(error);
    if (leak) problems.push(`${kind}: the token shows in the ${leak}: ${describeError(error)}`);
  }

  // ── Waits ─────────────────────────────────────────────────────────────────────────────────
  const checkWaits = () => {
    for (const { event, call, last, phase: when } of events.splice(0)) {
      const { reason, waitMs } = event;
      bump(stats.waits, `${api} ${reason}`);
      const what = `${reason} wait of ${waitMs} ms on ${event.bucketKey} (${when})`;
      if (JSON.stringify(event).includes(SECRET)) problems.push(`the token shows in an onWait event`);
      if (typeof waitMs !== 'number' || !Number.isFinite(waitMs) || waitMs < 0) {
        problems.push(`a ${what}: not a finite, non-negative number`);
        continue;
      }
      if (when === 'main' && kase.maxWait !== undefined && waitMs > kase.maxWait) {
        problems.push(`a ${what} exceeds maxWait ${kase.maxWait}`);
      }
      switch (reason) {
        case 'retry-after': {
          if (!call || last?.kind !== 'response' || last.status !== 429) {
            problems.push(
              `a ${what} not after a 429 of its call (last: ${last?.kind === 'response' ? last.status : last?.kind})`,
            );
            break;
          }
          const bound = retryAfterBoundMs(api, last, caseWallMs);
          if (bound === undefined) problems.push(`a ${what} after a 429 whose Retry-After names no wait`);
          else if (!(waitMs <= bound)) problems.push(`a ${what} exceeds the ${bound} ms its 429 named`);
          break;
        }
        case 'server-error':
        case 'network-error':
          if (!BACKOFFS.has(waitMs)) problems.push(`a ${what}: not a transport backoff`);
          if (call && reason === 'server-error' && !(last?.kind === 'response' && last.status >= 500)) {
            problems.push(`a ${what} not after a 5xx`);
          }
          if (call && reason === 'network-error' && last?.kind !== 'network-error') {
            problems.push(`a ${what} not after a network error`);
          }
          break;
        case 'bucket':
        case 'global':
          if (!within(waitMs, longestNamed)) problems.push(`a ${what} exceeds every wait named (${longestNamed} ms)`);
          break;
        case 'queue':
          if (!within(waitMs, totalNamed))
            problems.push(`a ${what} exceeds all waits named together (${totalNamed} ms)`);
          break;
      }
    }
  };
  checkWaits();

  // ── No bucket left locked: a fresh call per bucket used, answered 200 with sane headers ────
  if (mainEnd === 'ok') {
    phase = 'fresh';
    const buckets = new Map<string, CallSpec>();
    for (const spec of kase.calls) buckets.set(bucketOf(spec.kind, spec.channel), { ...spec, answers: [] });
    const freshStart = clock.now();
    const fresh = [...buckets.values()].map((spec) => start(spec, true));
    let freshDone = false;
    void Promise.all(fresh.map(({ done }) => done)).then(() => {
      freshDone = true;
    });
    const freshEnd = await drive(
      clock,
      () => freshDone,
      () => progress + clock.activity,
      baseline,
    );
    if (freshEnd !== 'ok') problems.push(`fresh calls: ${freshEnd} (a bucket left locked?)`);
    for (const { run } of fresh) {
      const { kind } = run.spec;
      const elapsed = run.endedAt - freshStart;
      if (run.outcome.kind === 'pending') continue;
      if (run.fetches > 1) problems.push(`fresh ${kind}: ${run.fetches} fetches for one 200`);
      if (run.outcome.kind === 'rejected') {
        const error = run.outcome.error;
        const tokenInvalid = api === 'v10' && served401 && error instanceof TokenInvalidError;
        // A named lock longer than any timer holds (or than the fresh call's maxWait) may be refused.
        const tooLong = error instanceof RateLimitWaitError && untimeable(error, longestNamed);
        if (!tokenInvalid && !tooLong) problems.push(`fresh ${kind} rejected: ${describeError(error)}`);
        const leak = tokenLeak(error);
        if (leak) problems.push(`fresh ${kind}: the token shows in the ${leak}`);
      } else if (!within(elapsed, longestNamed)) {
        problems.push(`fresh ${kind} took ${elapsed} ms of virtual time; the longest wait named is ${longestNamed} ms`);
      }
    }
    checkWaits();
  }

  // ── Close: nothing left on the clock ────────────────────────────────────────────────────────
  phase = 'closing';
  let closed = false;
  void client.close().then(
    () => (closed = true),
    (error: unknown) => {
      closed = true;
      problems.push(`close() rejected: ${describeError(error)}`);
    },
  );
  const closeEnd = await drive(
    clock,
    () => closed,
    () => progress + clock.activity,
    baseline,
  );
  if (closeEnd !== 'ok') problems.push(`close(): ${closeEnd}`);
  await immediate();
  if (clock.pending !== 0) problems.push(`${clock.pending} timer(s) still pending on the clock after close()`);
  problems.push(...clock.problems);
  if (unhandled.length > unhandledBefore) {
    problems.push(`unhandled rejection(s): ${unhandled.slice(unhandledBefore).map(describeError).join('; ')}`);
  }
  return problems;
}

// ── The property ───────────────────────────────────────────────────────────────────────────────
/**
 * The property for one dialect, half of FC_RUNS: each dialect's cases run in a file of its own
 * (wire-garbage-v6/-v10.property.test.ts), so the two halves run side by side.
 */
export function wireGarbageProperty(api: Api): void {
  if (!APIS.includes(api)) return;
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
    stats.startedAt = performance.now();
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    const list = (map: Map<string, number>) =>
      [...map]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, count]) => `${key}: ${count}`)
        .join(', ');
    log(
      `[wire-garbage] ${stats.cases.v6 + stats.cases.v10} cases (v6 ${stats.cases.v6}, v10 ${stats.cases.v10}) in ` +
        `${Math.round(performance.now() - stats.startedAt)} ms, seed ${SEED}\n` +
        `  outcomes: ${list(stats.outcomes)}\n  waits: ${list(stats.waits)}\n  answers served: ${list(stats.served)}\n` +
        `  10 MB bodies served: ${stats.hugeBodies}; real timer turns taken: ${realTicks}`,
    );
  });

  describe(`properties: garbage from the wire never breaks a call (${api})`, () => {
    const numRuns = Math.ceil(RUNS / 2);
    it(`every call ends typed, no token in errors, waits within maxWait and what the answers named, no bucket left locked (${numRuns} cases, seed ${SEED})`, async () => {
      const replay = process.env.WIRE_REPLAY;
      if (replay) {
        // A counterexample as fast-check printed it (JSON; `undefined` fields may be left out).
        const parsed = JSON.parse(
          replay.replace(/\bundefined\b/g, 'null'),
          (_, value: unknown) => value ?? undefined,
        ) as Case | [Case];
        const kase = Array.isArray(parsed) ? parsed[0] : parsed;
        if (kase.api === api) await runCase(kase);
        return;
      }
      await fc.assert(fc.asyncProperty(caseOf(api), runCase), { seed: SEED, numRuns });
      // Any rejection left unhandled by the run, between cases included.
      expect(unhandled.map(describeError)).toEqual([]);
    }, 600_000);
  });
}
