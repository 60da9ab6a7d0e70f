/**
 * The proxy's headers: its own (the mark on its answers, a bot's bound on its wait, the shared
 * key), what belongs to one hop and is never forwarded, and how a request's headers are read.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Marks what the proxy answered itself, as `generated`.
 *
 * @deprecated Read `X-Tollgate-Generated` (`GENERATED_HEADER`), which every answer tollgate makes
 * itself carries, the relay's and the proxy's, with why (`PROXY_ANSWER`). The proxy still sends
 * this one; the next major version drops it.
 */
export const PROXY_HEADER = 'x-tollgate-proxy';
/** A bot's own bound on this request's wait, in ms. */
export const MAX_WAIT_HEADER = 'x-tollgate-max-wait';
/** The shared secret a request must carry when the proxy has one. */
export const KEY_HEADER = 'x-tollgate-proxy-key';

/** Headers of one hop (RFC 9110 §7.6.1): never forwarded, either way. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * What a request loses on its way up besides: its Host (the upstream's own goes), its framing
 * (fetch frames the body again), `Expect` (fetch refuses it; the proxy reads the body anyway),
 * `Accept-Encoding` (fetch asks for what it decodes; undici asks for none, so a 429 body the judge
 * reads is never compressed), and the proxy's own headers.
 */
const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP,
  'host',
  'content-length',
  'expect',
  'accept-encoding',
  KEY_HEADER,
  MAX_WAIT_HEADER,
]);

/**
 * Headers that name one thing: the token, the host, the proxy's key, a bound. Node keeps the
 * first Authorization and Host and joins the others with ", ", while the request's raw headers
 * keep each: two would mean one thing to the limiter or the key check and another upstream.
 */
const ONE_ONLY = new Set(['authorization', 'host', KEY_HEADER, MAX_WAIT_HEADER]);

/** The first header of `ONE_ONLY` the request gives more than once, if any. */
export function repeatedHeader(request: IncomingMessage): string | undefined {
  const seen = new Set<string>();
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index]!.toLowerCase();
    if (!ONE_ONLY.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** What a key is compared as: its SHA-256, so that keys of every length compare alike. */
export const keyDigestOf = (key: string): Buffer => createHash('sha256').update(key).digest();

/**
 * The key given against the secret's digest (`keyDigestOf`), in constant time: its digest, of one
 * length whatever the key's, so not even the secret's length shows in how long a refusal takes.
 */
export function keyMatches(given: string | string[] | undefined, secretDigest: Buffer): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(keyDigestOf(given), secretDigest);
}

/** The bot's bound on its wait (never above the proxy's), the default without one, or undefined when malformed. */
export function maxWaitOf(header: string | string[] | undefined, proxyMaxWait: number): number | undefined {
  if (header === undefined) return proxyMaxWait;
  if (typeof header !== 'string' || !/^\d{1,10}$/.test(header.trim())) return undefined;
  return Math.min(Number(header.trim()), proxyMaxWait);
}

/**
 * The request's headers as the service should get them: its own, less one hop's (and those its
 * Connection names), as pairs, which the relay makes its own Headers of (a Headers here would be
 * copied, sorted, once more).
 */
export function forwardedHeaders(request: IncomingMessage): [string, string][] {
  const connection = request.headers.connection;
  const named =
    connection === undefined ? undefined : new Set(connection.split(',').map((name) => name.trim().toLowerCase()));
  const headers: [string, string][] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index]!.toLowerCase();
    if (!NOT_FORWARDED.has(name) && !named?.has(name)) headers.push([name, request.rawHeaders[index + 1]!]);
  }
  return headers;
}
