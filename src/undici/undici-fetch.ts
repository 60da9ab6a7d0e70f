/**
 * A `fetch` for the client on undici's request API (`tollgate/undici`): the fastest correct
 * transport on Node measured by `npm run bench` (the runtime's fetch spends most of each request
 * in its WHATWG stream machinery). undici is an optional peer dependency; other runtimes keep
 * their own fetch, the client's default.
 *
 * Differences from fetch, on purpose, for an API client:
 * - redirects are returned as they are, never followed, so Authorization cannot follow one to
 *   another origin;
 * - the response body is read whole before the promise resolves, so the client's timeout and
 *   the caller's signal cover a slow body as well as slow headers (unless `streamBodies`).
 */
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Agent, errors, request, type Dispatcher } from 'undici';
import { TollgateArgumentError } from '../errors.ts';
import { keepRawHeaders } from './raw-headers.ts';

/** The agent `undiciFetch` sends through, and whether bodies pass as streams. */
export interface UndiciFetchOptions {
  /** The undici dispatcher (an Agent, a Pool, a ProxyAgent…). Default: a keep-alive Agent of its own. */
  readonly dispatcher?: Dispatcher;
  /**
   * Bodies go on as streams, both ways, instead of being read whole (default false): for a relay,
   * whose uploads and answers pass through as they come (`tollgate proxy` sends with this). A
   * client's timeout then covers the headers only; the caller's signal still ends a slow body.
   */
  readonly streamBodies?: boolean;
}

/** A fetch function with a `close()` for the connections of its own agent. */
export type UndiciFetch = typeof fetch & {
  /** Closes the connections of the agent `undiciFetch` made; a `dispatcher` you gave is yours to close. */
  close(): Promise<void>;
};

/** Statuses whose response has no body by definition. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch on undici's request API, for `createClient({ fetch: undiciFetch() })`: redirects are
 * returned, not followed, and bodies are read whole (unless `streamBodies`). Bad options (not an
 * object, a dispatcher that is not undici's, a `streamBodies` that is not a boolean) throw
 * TollgateArgumentError.
 */
export function undiciFetch(options: UndiciFetchOptions = {}): UndiciFetch {
  if (typeof options !== 'object' || options === null)
    throw new TollgateArgumentError('undiciFetch: options must be an object');
  if (options.dispatcher !== undefined && typeof options.dispatcher?.dispatch !== 'function') {
    throw new TollgateArgumentError('undiciFetch: dispatcher must be an undici Dispatcher (Agent, Pool…)');
  }
  if (options.streamBodies !== undefined && typeof options.streamBodies !== 'boolean') {
    throw new TollgateArgumentError('undiciFetch: streamBodies must be true or false');
  }
  const streamBodies = options.streamBodies ?? false;
  const ownAgent = options.dispatcher === undefined ? new Agent() : undefined;
  const dispatcher = options.dispatcher ?? ownAgent!;

  const send = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const outgoing = outgoingOf(input, init);
    const { signal } = outgoing;
    try {
      const answer = await request(outgoing.url, {
        method: outgoing.method as Dispatcher.HttpMethod,
        headers: headersOf(outgoing.headers),
        body:
          outgoing.body === null
            ? null
            : streamBodies
              ? Readable.fromWeb(outgoing.body as NodeReadableStream<Uint8Array>)
              : Buffer.from(await outgoing.arrayBuffer()),
        signal,
        dispatcher,
      });
      const { statusCode } = answer;
      const noBody = NULL_BODY_STATUS.has(statusCode) || outgoing.method === 'HEAD';
      if (statusCode < 200 || statusCode > 599) {
        answer.body.destroy();
        throw new TypeError(`fetch failed: status ${statusCode} is outside 200–599`);
      }
      // Streamed: the Response reads undici's body as the async iterable it is, and cancelling
      // the Response's body ends it (and its connection).
      const body = noBody
        ? (await answer.body.dump(), null)
        : streamBodies
          ? (answer.body as AsyncIterable<Uint8Array> as unknown as BodyInit)
          : await answer.body.arrayBuffer();
      const response = new Response(body, {
        status: statusCode,
        statusText: STATUS_CODES[statusCode] ?? '',
        headers: responseHeaders(answer.headers),
      });
      return streamBodies ? keepRawHeaders(response, answer.headers) : response;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // ky (and callers of fetch) know a network failure by fetch's own error: a TypeError.
      if (error instanceof errors.UndiciError || isSystemError(error))
        throw new TypeError('fetch failed', { cause: error });
      throw error;
    }
  };
  return Object.assign(send as typeof fetch, { close: async () => ownAgent?.close() });
}

/** What `send` reads of a request: a Request's fields, or as much of one as a relayed call gives. */
type Outgoing = Pick<Request, 'url' | 'method' | 'headers' | 'body' | 'arrayBuffer'> & {
  signal: AbortSignal | undefined;
};

/** Fetch's methods, which it writes in upper case whatever the case given. */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
/** Methods fetch refuses to send (a Request is made for them, and refuses). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The request as `send` reads it. ky hands over its Request and an init of the options it does
 * not know (usually none): a Request copied from an empty init would be the same request again. A
 * relayed call hands over a URL and an init with Headers and no body or a stream (the proxy's):
 * nothing a Request would add (a body's Content-Type, its bytes) applies, so none is made. Any
 * other request is made a Request, as fetch would make it.
 */
function outgoingOf(input: RequestInfo | URL, init: RequestInit | undefined): Outgoing {
  if (input instanceof Request && isEmpty(init)) return input;
  const body = init?.body;
  const method = init?.method ?? 'GET';
  const upper = method.toUpperCase();
  if (
    typeof input === 'string' &&
    init?.headers instanceof Headers &&
    (body == null || body instanceof ReadableStream) &&
    !FORBIDDEN_METHODS.has(upper)
  ) {
    return {
      url: input,
      method: NORMALIZED_METHODS.has(upper) ? upper : method,
      headers: init.headers,
      body: body ?? null,
      signal: init.signal ?? undefined,
      arrayBuffer: () => new Response(body).arrayBuffer(),
    };
  }
  return new Request(input, init);
}

function isEmpty(init: RequestInit | undefined): boolean {
  for (const key in init) if (Object.hasOwn(init, key)) return false;
  return true;
}

function headersOf(headers: Headers): Record<string, string> {
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = value;
  });
  return plain;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (typeof value === 'string') headers.append(name, value);
    else if (value !== undefined) for (const each of value) headers.append(name, each);
  }
  return headers;
}

/** Node's socket errors (ECONNRESET, ECONNREFUSED…) carry a string `code` and `syscall`. */
const isSystemError = (error: unknown): boolean =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error;
