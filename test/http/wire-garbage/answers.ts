/**
 * The wire-garbage property's answers (see run.ts): the generators (header names and values,
 * bodies, statuses, answer shapes and their mutations, calls and cases) and the Responses built
 * from what they generate, a fresh call's answer included.
 */
import fc from 'fast-check';

/**
 * Answers that keep finding a bug already reported, left out with WIRE_SKIP=family,… to look
 * past it (the default leaves nothing out):
 * - `cut`: a body whose connection drops halfway;
 * - `overflow`: seconds so large that their ms overflow to Infinity (≥ ~1.8e305 s);
 * - `redos`: header values with runs of 16 000 / 30 000 digits.
 */
const SKIPPABLE = ['cut', 'overflow', 'redos'] as const;
export const SKIP = new Set((process.env.WIRE_SKIP ?? '').split(',').filter(Boolean));
for (const family of SKIP) {
  if (!(SKIPPABLE as readonly string[]).includes(family)) throw new Error(`WIRE_SKIP: unknown family ${family}`);
}
export type Api = 'v6' | 'v10';

/** Virtual time starts here (v6 compares `Reset` with the client's clock). */
export const START_MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const START_S = START_MS / 1000;
export const I64_MAX = 2n ** 63n - 1n;
const min = (a: bigint, b: bigint) => (a < b ? a : b);

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

export interface ResponseSpec {
  readonly kind: 'response';
  readonly status: number;
  readonly headers: readonly (readonly [HeaderName, readonly string[]])[];
  readonly body: BodySpec;
}
/** The transport fails: no response (connection refused or reset). */
interface NetworkFailure {
  readonly kind: 'network-error';
}
export type Answer = ResponseSpec | NetworkFailure;

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
export type CallKind = (typeof CALL_KINDS)[number];

export interface CallSpec {
  readonly kind: CallKind;
  readonly channel: '1' | '2';
  readonly answers: readonly Answer[];
}

export interface Case {
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

export const caseOf = (api: Api): fc.Arbitrary<Case> =>
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

export function headersOf(spec: ResponseSpec): Headers {
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

export const networkCause = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

export function buildResponse(spec: ResponseSpec): Response {
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
export const PLAIN_OK: ResponseSpec = { kind: 'response', status: 200, headers: [], body: { kind: 'none' } };

/** A fresh call's answer: 200, sane headers, a small JSON body. */
export function freshResponse(api: Api, nowMs: number, bucket: string): Response {
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
