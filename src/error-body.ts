/**
 * What an error body from Discord says, read for `HttpError`: the JSON error's field errors
 * (its nested `errors` object, flattened to one entry per field), OAuth2's error, and the lines
 * of the error's message that show them. The body comes from the network, so every walk and
 * every shown text has a bound: a hostile body can neither exhaust the stack nor make a huge
 * message.
 */

import type { RESTError } from 'discord-api-types/v10';

/** One error Discord named for a part of the request's body (not an `Error`: an entry of `HttpError.fieldErrors`). */
export interface FieldError {
  /** Where in the body, as code would reach it: `embeds[0].fields[2].value`; '' for the request as a whole. */
  readonly path: string;
  /** Discord's code for it, such as `BASE_TYPE_REQUIRED`; '' where Discord gave a bare message. */
  readonly code: string;
  /** What Discord says is wrong there: `This field is required`. */
  readonly message: string;
}

/** OAuth2's error response (RFC 6749 §5.2), as Discord's `/oauth2/token` endpoints send it. */
export interface OAuth2ErrorBody {
  /** The error's code: `invalid_grant`, `invalid_client`, `invalid_request`, … */
  readonly error: string;
  /** What went wrong, for a person to read: `Invalid "code" in request.` */
  readonly error_description?: string;
  /** A page about the error (Discord sends none; the RFC allows it). */
  readonly error_uri?: string;
}

/** Field errors kept at most: enough for any real request, and a bound on what a hostile body can make us hold. */
export const MAX_FIELD_ERRORS = 1000;
/** Keys deep a field error is read at most: real ones are under ten (a component in a component in a message). */
export const MAX_ERRORS_DEPTH = 32;
/** Values looked at in the `errors` object at most, so a huge one costs little more than its parse. */
const MAX_VISITS = 10_000;
/** Field errors a message shows; the rest are counted. */
export const SHOWN_FIELD_ERRORS = 10;
/**
 * The longest `HttpError.message`. Every text in it is cut to its own bound: the head (name and
 * path 100 + 200, the method 16, Discord's message 200, a code 64, and the words around them)
 * stays under 700 characters, each of the shown field errors under 480 (path 200, message 200,
 * code 64), the closing count under 80.
 */
export const MAX_HTTP_ERROR_MESSAGE = 6000;

/** Cut lengths of what a message shows. */
export const SHOWN_LENGTH = { operation: 100, route: 200, method: 16, message: 200, code: 64, path: 200 } as const;
/** A key longer than this is cut in a field error's path (each path has at most MAX_ERRORS_DEPTH keys). */
const PATH_KEY_LENGTH = 64;

/** An error body as `HttpError` reads it. */
export interface ReadErrorBody {
  /** The JSON error (`{ code, message, errors? }`) when the body is one. */
  readonly error: RESTError | undefined;
  readonly oauth2Error: OAuth2ErrorBody | undefined;
  readonly fieldErrors: readonly FieldError[];
  /** False when a bound stopped the walk of `errors`: it may hold more than `fieldErrors`. */
  readonly complete: boolean;
}

/** What a response's body says, whatever it is (parsed JSON, text, nothing). */
export function readErrorBody(body: unknown): ReadErrorBody {
  const error = asRestError(body);
  const { fieldErrors, complete } = fieldErrorsOf(error?.errors);
  return { error, oauth2Error: oauth2ErrorOf(body), fieldErrors, complete };
}

/**
 * What follows a message's head: Discord's message and code, or OAuth2's description and error,
 * then a line per shown field error. '' for a body that is neither.
 */
export function describeErrorBody({ error, oauth2Error, fieldErrors, complete }: ReadErrorBody): string {
  const lines = fieldErrorLines(fieldErrors, complete)
    .map((line) => `\n${line}`)
    .join('');
  if (error) return `: ${shown(error.message, SHOWN_LENGTH.message)} (code ${error.code})${lines}`;
  if (!oauth2Error) return '';
  const { error: code, error_description: description } = oauth2Error;
  const named = `OAuth2 error ${shown(code, SHOWN_LENGTH.code)}`;
  return description === undefined ? `: ${named}` : `: ${shown(description, SHOWN_LENGTH.message)} (${named})`;
}

function asRestError(body: unknown): RESTError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, message } = body as Partial<RESTError>;
  return typeof code === 'number' && typeof message === 'string' ? (body as RESTError) : undefined;
}

interface Collected {
  readonly fieldErrors: FieldError[];
  /** False when a bound stopped the walk: the `errors` object may hold more than `fieldErrors`. */
  complete: boolean;
  visits: number;
}

/**
 * The field errors of a JSON error's `errors`, in the order of the parsed body (an object's index
 * keys first, as JavaScript orders them; Discord never mixes them with names). `_errors` lists
 * the errors of the field it sits in (at the top level: of the request as a whole); a key that
 * is a number is an array's index.
 */
function fieldErrorsOf(errors: unknown): { readonly fieldErrors: readonly FieldError[]; readonly complete: boolean } {
  const collected: Collected = { fieldErrors: [], complete: true, visits: 0 };
  if (errors !== undefined) collectWithin(errors, '', 0, collected);
  return collected;
}

/** Depth-first, so the order is the body's; recursion is safe: `depth` stops it at MAX_ERRORS_DEPTH. */
function collect(value: unknown, path: string, depth: number, collected: Collected): void {
  collected.visits++;
  if (typeof value === 'string') {
    collected.fieldErrors.push({ path, code: '', message: value });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const fieldError = asFieldError(value, path);
  if (fieldError) {
    collected.fieldErrors.push(fieldError);
    return;
  }
  if (depth > MAX_ERRORS_DEPTH) {
    collected.complete = false;
    return;
  }
  if (Array.isArray(value)) {
    value.every((item: unknown, index) => collectWithin(item, `${path}[${index}]`, depth + 1, collected));
    return;
  }
  for (const key of Object.keys(value)) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (key === '_errors' && Array.isArray(child)) {
      if (!child.every((item: unknown) => collectWithin(item, path, depth + 1, collected))) return;
    } else if (!collectWithin(child, key === '_errors' ? path : pathTo(path, key), depth + 1, collected)) return;
  }
}

/** `collect`, unless a bound is reached (then the walk stops): false when it is. */
function collectWithin(value: unknown, path: string, depth: number, collected: Collected): boolean {
  if (collected.fieldErrors.length >= MAX_FIELD_ERRORS || collected.visits >= MAX_VISITS) {
    collected.complete = false;
    return false;
  }
  collect(value, path, depth, collected);
  return true;
}

function asFieldError(value: object, path: string): FieldError | undefined {
  const { code, message } = value as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return undefined;
  if (typeof code !== 'string' && typeof code !== 'number') return undefined;
  return { path, code: String(code), message };
}

/** `path` and one more key: `.name`, `[0]` for an index, `["odd key"]` for a key that is neither. */
function pathTo(path: string, key: string): string {
  if (/^\d+$/.test(key)) return `${path}[${cut(key, PATH_KEY_LENGTH)}]`;
  if (/^[A-Za-z_][\w-]*$/.test(key))
    return path === '' ? cut(key, PATH_KEY_LENGTH) : `${path}.${cut(key, PATH_KEY_LENGTH)}`;
  return `${path}[${JSON.stringify(cut(key, PATH_KEY_LENGTH))}]`;
}

/** OAuth2's error when the body is one: a copy holding only its string fields. */
function oauth2ErrorOf(body: unknown): OAuth2ErrorBody | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { error, error_description: description, error_uri: uri } = body as Record<string, unknown>;
  if (typeof error !== 'string') return undefined;
  return {
    error,
    ...(typeof description === 'string' ? { error_description: description } : {}),
    ...(typeof uri === 'string' ? { error_uri: uri } : {}),
  };
}

/**
 * The lines of a message that show field errors: the first SHOWN_FIELD_ERRORS, one a line,
 * indented, then how many more there are.
 */
function fieldErrorLines(fieldErrors: readonly FieldError[], complete: boolean): string[] {
  const lines = fieldErrors.slice(0, SHOWN_FIELD_ERRORS).map(fieldErrorLine);
  const rest = fieldErrors.length - lines.length;
  const unread = complete ? '' : ' (the errors object was not read whole)';
  if (rest > 0) lines.push(`  … and ${rest} more${unread}`);
  else if (!complete) lines.push(`  …${unread}`);
  return lines;
}

/** `  embeds[0].fields[2].value: This field is required (BASE_TYPE_REQUIRED)` */
function fieldErrorLine({ path, code, message }: FieldError): string {
  const where = path === '' ? '(request)' : shown(path, SHOWN_LENGTH.path);
  const why = code === '' ? '' : ` (${shown(code, SHOWN_LENGTH.code)})`;
  return `  ${where}: ${shown(message, SHOWN_LENGTH.message)}${why}`;
}

/**
 * Text from the body as one line of a message: control characters (a newline would forge a
 * line of its own) become spaces, and it is cut to `max` characters.
 */
export function shown(text: string, max: number): string {
  return cut(text, max).replace(/[\p{Cc}\u2028\u2029]/gu, ' ');
}

/** At most `max` characters, the last an ellipsis when cut; never half of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
}
