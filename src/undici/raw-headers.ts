/**
 * The headers of an answer `undiciFetch` made, as undici parsed them (names in lower case, a
 * repeated header as a list), kept beside its Response. Whoever hands the answer on as it came
 * (the proxy) writes them as they are instead of reading the Response's Headers back, which sorts
 * and joins them anew for every answer. A Response made anywhere else has none. This module
 * imports nothing of undici, an optional peer.
 */
export type RawHeaders = Record<string, string | string[] | undefined>;

const rawHeaders = new WeakMap<Response, RawHeaders>();

/** `raw` are `response`'s headers as they came. */
export function keepRawHeaders(response: Response, raw: RawHeaders): Response {
  rawHeaders.set(response, raw);
  return response;
}

/** `response`'s headers as they came, when `undiciFetch` made it; the object is the caller's to change. */
export function rawHeadersOf(response: Response): RawHeaders | undefined {
  const raw = rawHeaders.get(response);
  rawHeaders.delete(response);
  return raw;
}
