/**
 * What the proxy writes back: the service's answer streamed as it came (less one hop's headers),
 * or an answer of its own, marked, in the service's error shape. An answer tollgate makes itself
 * is marked one way, the relay's and the proxy's alike: `X-Tollgate-Generated: <why>` and
 * `X-Tollgate-Sent: 0 | 1`.
 */
import type { ServerResponse } from 'node:http';
import { GENERATED_HEADER, SENT_HEADER } from '../index.ts';
import { rawHeadersOf, type RawHeaders } from '../undici/raw-headers.ts';
import { HOP_BY_HOP, PROXY_HEADER } from './headers.ts';

/**
 * Why the proxy answered a request itself, as its `X-Tollgate-Generated` says (the relay's answers
 * name their error's code: `RATE_LIMIT_WAIT`, `TOKEN_INVALID`…). A row of docs/proxy.md's table each.
 */
export const PROXY_ANSWER = {
  /** 400: not a request the proxy forwards (an absolute-form target, a malformed one, a header given twice). */
  badRequest: 'PROXY_BAD_REQUEST',
  /** 400: a malformed `X-Tollgate-Max-Wait`. */
  badMaxWait: 'PROXY_BAD_MAX_WAIT',
  /** 401: `--secret`'s key missing or wrong. */
  key: 'PROXY_KEY',
  /** 404: a path outside `/api/`. */
  notFound: 'PROXY_NOT_FOUND',
  /** 405: `CONNECT`. */
  method: 'PROXY_METHOD',
  /** 408: headers or a body that came too slowly. */
  timeout: 'PROXY_REQUEST_TIMEOUT',
  /** 413: a body over `--max-body`. */
  bodyTooLarge: 'PROXY_BODY_TOO_LARGE',
  /** 431: headers over their bound. */
  headersTooLarge: 'PROXY_HEADERS_TOO_LARGE',
  /** 503: the proxy is shutting down. */
  draining: 'PROXY_DRAINING',
  /** 503: the limits store is unreachable (`StoreUnavailableError`'s code). */
  storeUnavailable: 'STORE_UNAVAILABLE',
  /** 502: the upstream could not be reached (`NetworkError`'s code). */
  network: 'NETWORK',
  /** 500: anything else. */
  failed: 'PROXY_FAILED',
} as const;

/** What `X-Tollgate-Generated` says on an answer the proxy made itself. */
export type ProxyAnswerCode = (typeof PROXY_ANSWER)[keyof typeof PROXY_ANSWER];

/**
 * The marks of an answer the proxy made itself, as header lines for a socket written by hand:
 * `X-Tollgate-Proxy: generated` too, the older mark, kept until the next major version.
 */
export const generatedHeaderLines = (code: ProxyAnswerCode): string =>
  `${GENERATED_HEADER}: ${code}\r\n${PROXY_HEADER}: generated\r\n${SENT_HEADER}: 0\r\n`;

/** A request's own outcome, for its log line and metrics. */
export interface Outcome {
  status: number;
  generated: boolean;
  /** A 429's `X-RateLimit-Scope`, as the service named it. */
  scope?: string | undefined;
  /**
   * An API request's route template, as the relay classified it (`-`: refused before the relay);
   * none for the proxy's own paths (`/healthz`…), which are not counted.
   */
  route?: string | undefined;
}

/** The service's answer, streamed back as it came (less what belongs to one hop); `transportDecodes`: fetch's kind, which decodes a compressed body. */
export async function pass(
  response: ServerResponse,
  answer: Response,
  method: string,
  transportDecodes: boolean,
): Promise<Outcome> {
  const isGenerated = answer.headers.has(GENERATED_HEADER);
  const outcome = {
    status: answer.status,
    generated: isGenerated,
    scope: answer.headers.get('x-ratelimit-scope') ?? undefined,
  };
  // The bot hung up while the answer was being judged: nobody reads it.
  if (response.destroyed) {
    await answer.body?.cancel().catch(() => {});
    return outcome;
  }
  const headers = rawHeadersOf(answer) ?? headersOf(answer, transportDecodes);
  for (const name of HOP_BY_HOP) Reflect.deleteProperty(headers, name);
  // The older mark, beside the relay's own `X-Tollgate-Generated`, until the next major version.
  if (isGenerated) headers[PROXY_HEADER] = 'generated';
  response.writeHead(answer.status, answer.statusText, headers);
  if (method === 'HEAD' || answer.body === null) {
    response.end();
    return outcome;
  }
  await streamBody(answer.body, response);
  return outcome;
}

/** An answer's headers from its Response (a transport other than undici's, or a generated answer). */
function headersOf(answer: Response, transportDecodes: boolean): RawHeaders {
  const headers: RawHeaders = {};
  // fetch decodes a compressed body: it goes on decoded, without its encoding or length. (undici's
  // request API hands the bytes on as they came, with the headers that describe them.)
  const decoded = transportDecodes && answer.headers.has('content-encoding');
  for (const [name, value] of answer.headers) {
    if (name === 'set-cookie') continue;
    if (decoded && (name === 'content-encoding' || name === 'content-length')) continue;
    headers[name] = value;
  }
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/**
 * The body to the bot as it comes, as fast as the bot reads it. Ends when the body is through, or
 * when either side breaks off: a bot gone cancels the upstream read, an upstream that fails cuts
 * the bot's answer short (never a clean end on half a body). A reader loop, not stream.pipeline:
 * pipeline's clean-up aborts a controller of its own per answer, and an AbortError's stack trace
 * cost more than the rest of the copy.
 */
async function streamBody(body: ReadableStream<Uint8Array>, response: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let through = false;
  let botGone = () => {};
  const gone = new Promise<void>((resolve) => (botGone = resolve));
  // The bot hung up: the upstream read ends now, a read waiting on a silent upstream included.
  const onClose = () => {
    botGone();
    if (!through) reader.cancel().catch(() => {});
  };
  response.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || response.destroyed) break;
      if (!response.write(value)) await Promise.race([once(response, 'drain'), gone]);
    }
    if (!response.destroyed) {
      response.end();
      through = true;
    }
  } catch {
    response.destroy();
  } finally {
    response.off('close', onClose);
    if (!through) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Resolves on `event`'s next emission (the listener goes with it). */
const once = (emitter: ServerResponse, event: string) =>
  new Promise<void>((resolve) => emitter.once(event, () => resolve()));

/** An answer of the proxy's own: the service's error shape, marked, saying whether anything went upstream. */
export function generated(
  response: ServerResponse,
  status: number,
  code: ProxyAnswerCode,
  message: string,
  sent: 0 | 1,
  extra: Record<string, string> = {},
): Outcome {
  if (response.headersSent) {
    response.destroy();
    return { status, generated: true };
  }
  const body = JSON.stringify({ message, code: 0 });
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    [GENERATED_HEADER]: code,
    [PROXY_HEADER]: 'generated',
    [SENT_HEADER]: String(sent),
    ...extra,
  });
  response.end(body);
  return { status, generated: true };
}

export function json(response: ServerResponse, status: number, body: object): Outcome {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
  return { status, generated: true };
}
