/**
 * tollgate/discordjs: a discord.js bot's requests through tollgate's limiter, with one line.
 *
 *   new Client({ intents, rest: { makeRequest: makeRequest({ store: new RedisStore({ url }) }) } })
 *
 * @discordjs/rest calls `makeRequest(url, init)` once per attempt; each goes through a relay
 * (`createRelay`), in the lane of the token its Authorization names, sharing the store's limits
 * with every other process on it. REST keeps everything else: its own queues, retries, timeout,
 * `rejectOnRateLimit`, events and errors (docs/discordjs.md). It is not told what is left of a
 * window: tollgate waits for the place, and REST, which waits out every window it sees spent on
 * top of that, would miss the window tollgate takes (a 429 keeps all its headers).
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createRelay, type Relay, type RelayOptions } from '../index.ts';

/** `makeRequest`'s options: a relay's (`createRelay`: the store, `maxWait`, `apiRoot`, v10's limits), docs/discordjs.md. */
export type MakeRequestOptions = RelayOptions;

/** What @discordjs/rest hands `makeRequest` (undici's RequestInit, of which these are read). */
export interface DiscordjsRequestInit {
  readonly method?: string | undefined;
  readonly headers?: Iterable<readonly string[]> | Record<string, string | readonly string[] | undefined> | undefined;
  readonly body?: unknown;
  readonly signal?: AbortSignal | null | undefined;
}

/**
 * The Response as @discordjs/rest types it (`ResponseLike`): a fetch Response, its body typed as
 * Node's web stream, which it is, whether or not the DOM's types are in the program too.
 */
export type DiscordjsResponse = Omit<Response, 'body'> & { readonly body: NodeReadableStream<Uint8Array> | null };

/** The function for `RESTOptions.makeRequest`; `close()` ends its waits when the bot shuts down. */
export interface TollgateMakeRequest {
  (url: string, init: DiscordjsRequestInit): Promise<DiscordjsResponse>;
  /** Ends every wait (each rejects) and lets go of the store's views; the store stays open. */
  close(): Promise<void>;
}

/**
 * `makeRequest`'s `maxWait` unless given, in ms: two windows of 5 s, the length of most of
 * Discord's. A request that comes just after a window filled waits one window and a margin; one
 * that loses its turn to another process's, two. Bounced any sooner, it would be REST that waits,
 * holding its queue for the bucket past the window tollgate would have used. It leaves REST 5 s
 * of its 15 s `timeout` for the exchange itself: a wait counts in REST's timeout.
 */
export const DEFAULT_MAKE_REQUEST_MAX_WAIT_MS = 10_000;

/**
 * A `makeRequest` for @discordjs/rest (and so for discord.js's `Client` and @discordjs/core) on
 * `options`: the relay's (`store`, `maxWait`, `apiRoot`, v10's `globalLimit`…). Keep `maxWait`
 * well under REST's `timeout` (15 s by default): a longer wait is answered by a 429 tollgate
 * makes, which REST waits out and sends again, rather than an abort.
 */
export function makeRequest(options?: MakeRequestOptions): TollgateMakeRequest {
  const relay: Relay = createRelay({ ...options, maxWait: options?.maxWait ?? DEFAULT_MAKE_REQUEST_MAX_WAIT_MS });
  return Object.assign(
    async (url: string, init: DiscordjsRequestInit) =>
      withoutWindow(
        await relay(url, {
          method: init.method,
          headers: headersOf(init.headers),
          body: bodyOf(init.body),
          signal: init.signal,
        }),
      ) as DiscordjsResponse,
    { close: () => relay.close() },
  );
}

/**
 * What is left of the window, and when it ends: the headers REST would wait on, for itself,
 * after tollgate has decided (REST reads a window it is not told of as open). The limit and the
 * bucket stay, so REST's queues keep their hashes; a 429, Discord's or tollgate's, keeps all.
 */
const WINDOW_HEADERS = ['x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-reset-after'] as const;

/** `response` as REST is handed it: without what is left of its window, unless it is a 429. */
function withoutWindow(response: Response): Response {
  if (response.status === 429 || !WINDOW_HEADERS.some((name) => response.headers.has(name))) return response;
  const headers = new Headers(response.headers);
  for (const name of WINDOW_HEADERS) headers.delete(name);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** REST's headers: a plain object (a value may be a list, as undici allows), Headers, or pairs. */
function headersOf(headers: DiscordjsRequestInit['headers']): Headers {
  const flat = new Headers();
  if (headers === undefined) return flat;
  if (Symbol.iterator in headers) {
    for (const [name, value] of headers as Iterable<readonly string[]>) {
      if (name !== undefined && value !== undefined) flat.append(name, value);
    }
    return flat;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') flat.append(name, value);
    else if (value !== undefined) for (const each of value) flat.append(name, each);
  }
  return flat;
}

/** The body as fetch takes it: a Node stream (REST's `passThroughBody` allows one) streams as it is, never buffered. */
function bodyOf(body: unknown): BodyInit | null | undefined {
  if (body instanceof Readable) return Readable.toWeb(body) as ReadableStream<Uint8Array>;
  return body as BodyInit | null | undefined;
}
