/**
 * The one boundary where path parameters become URL text. Whatever a caller passes, it can only
 * fill its own segment: ids must be unsigned 64-bit decimals, other values are percent-encoded,
 * and empty values, `.`/`..` and slashes are refused before any request is made.
 */
import { TollgateArgumentError } from '../errors.ts';
import type { ParameterKind, PathSegment } from '../contracts/catalog.ts';

const U64_MAX = 18446744073709551615n;
/** Decimal digits; leading zeros (any number) do not count towards the 20 digits of a u64. */
const DECIMAL = /^0*([0-9]{1,20})$/;

/** The canonical decimal text (no leading zeros) of an unsigned 64-bit id, or undefined. */
export function parseSnowflake(text: string): string | undefined {
  // The greedy `0*` leaves the digits without leading zeros (or a lone "0"): already canonical.
  const digits = DECIMAL.exec(text)?.[1];
  if (digits === undefined) return undefined;
  // Up to 19 digits always fit; 20 may pass u64's maximum.
  return digits.length < 20 || BigInt(digits) <= U64_MAX ? digits : undefined;
}

/** Checks an id and returns its canonical decimal text (no leading zeros). */
export function snowflakeText(value: unknown, name: string): string {
  if (typeof value === 'bigint') {
    if (value < 0n || value > U64_MAX)
      throw new TollgateArgumentError(`${name} must be an unsigned 64-bit id, got ${value}`);
    return value.toString();
  }
  if (typeof value !== 'string') {
    throw new TollgateArgumentError(`${name} must be a decimal string or bigint id, got ${describe(value)}`);
  }
  const canonical = parseSnowflake(value);
  if (canonical === undefined) {
    throw new TollgateArgumentError(
      `${name} must be an unsigned 64-bit decimal id, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return canonical;
}

/** Checks a free-text parameter (invite code, emoji, webhook token) and percent-encodes it. */
export function segmentText(value: unknown, name: string, kind: Exclude<ParameterKind, 'snowflake'>): string {
  // A secret's value is never echoed back in a message.
  const shown = (text: string) => (kind === 'secret' ? '(hidden)' : JSON.stringify(text.slice(0, 40)));
  if (typeof value !== 'string') throw new TollgateArgumentError(`${name} must be a string, got ${describe(value)}`);
  if (value === '' || value === '.' || value === '..') {
    throw new TollgateArgumentError(`${name} must not be empty, "." or "..": got ${shown(value)}`);
  }
  if (value.includes('/') || value.includes('\\'))
    throw new TollgateArgumentError(`${name} must not contain a slash: got ${shown(value)}`);
  if (!value.isWellFormed()) throw new TollgateArgumentError(`${name} is not well-formed Unicode: got ${shown(value)}`);
  return encodeURIComponent(value);
}

export function encodeParameter(value: unknown, name: string, kind: ParameterKind): string {
  return kind === 'snowflake' ? snowflakeText(value, name) : segmentText(value, name, kind);
}

/**
 * Fills a path pattern with its arguments, in path order. Returns the path and the canonical
 * text of every parameter (for bucket keys).
 */
export function buildPath(
  pattern: readonly PathSegment[],
  args: readonly unknown[],
): { path: string; values: string[] } {
  const values: string[] = [];
  let path = '';
  for (const segment of pattern) {
    if (typeof segment === 'string') {
      path += `/${segment}`;
      continue;
    }
    const value = encodeParameter(args[values.length], camelCase(segment.name), segment.kind);
    values.push(value);
    path += `/${value}`;
  }
  if (args.length !== values.length) {
    throw new TollgateArgumentError(`expected ${values.length} path argument(s), got ${args.length}`);
  }
  return { path, values };
}

/**
 * A path pattern as Discord's documentation writes it, `/channels/{channel_id}/messages`: what an
 * error may show of a call's path, since it holds no value (a webhook's token is one).
 */
export function pathTemplateOf(pattern: readonly PathSegment[]): string {
  return pattern.map((segment) => (typeof segment === 'string' ? `/${segment}` : `/{${segment.name}}`)).join('');
}

const camelCases = new Map<string, string>();

/** `channel_id` → `channelId`, as the generated signatures name parameters (cached: a call builds a path per request). */
export function camelCase(name: string): string {
  let camel = camelCases.get(name);
  if (camel === undefined) {
    camel = name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    if (camelCases.size < 1000) camelCases.set(name, camel);
  }
  return camel;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return `the number ${value} (ids exceed 2^53: pass a string or bigint)`;
  return typeof value;
}

const VERSION_PREFIX = /^\/(?:api(?:\/v\d+)?|v\d+)(?=\/|$)/;

/** A request path as both dialects classify it: no query or fragment, no `/api` or `/v<N>` prefix, a leading slash. */
export function routePath(path: string): string {
  let end = path.length;
  for (const stop of ['?', '#']) {
    const at = path.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  const clean = path.slice(0, end);
  return (clean.startsWith('/') ? clean : `/${clean}`).replace(VERSION_PREFIX, '');
}
