/**
 * How the reference service reads a request path: its segments and its ids. The service's own,
 * written from the specs and not borrowed from the client's routing code, so a mistake there is
 * not made twice (the service is the oracle the client is tested against).
 */

/** The largest id the service knows: ids are unsigned 64-bit integers. */
const MAX_ID = 2n ** 64n - 1n;
const DIGITS = /^[0-9]+$/;
/** `/api`, `/api/v<N>` or `/v<N>` in front of a path: the API's base, not part of the route. */
const BASE_PREFIX = /^\/(?:api(?:\/v\d+)?|v\d+)(?=\/|$)/;

/** An id's canonical decimal text (no leading zeros), or undefined when the segment is no id. */
export function idOf(segment: string): string | undefined {
  if (!DIGITS.test(segment)) return undefined;
  const value = BigInt(segment);
  return value <= MAX_ID ? value.toString() : undefined;
}

/**
 * The segments of a path relative to the API's base: no query or fragment, no version prefix,
 * split on `/` with empty segments kept (`/channels/1/` has three: an empty one names nothing),
 * `%40` read as the `@` it encodes.
 */
export function segmentsOf(path: string): string[] {
  const end = Math.min(...['?', '#'].map((stop) => path.indexOf(stop)).filter((at) => at !== -1), path.length);
  const clean = path.slice(0, end);
  // `%40me` is `@me`: the service decodes the path (@discordjs/core sends it encoded).
  return (clean.startsWith('/') ? clean : `/${clean}`)
    .replace(BASE_PREFIX, '')
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/%40/gi, '@'));
}

/** When an id was made, in ms since the Unix epoch (docs/spec/v10-rate-limits.md V20). */
export function idCreatedAtMs(id: string): number {
  return Number(BigInt(id) >> 22n) + 1_420_070_400_000;
}
