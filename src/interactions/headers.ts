/**
 * One header of a request, from a fetch `Headers` or from the plain object Node's `http` (and
 * many serverless platforms) hand over. Node writes names in lower case; a platform that keeps
 * the sender's case is read case-insensitively too.
 */

/** Request headers as Node's `http` gives them (`IncomingHttpHeaders`), or any object of names to values. */
export interface NodeHeaders {
  readonly [name: string]: string | readonly string[] | undefined;
}

/** Where the handler and `verifyInteraction` read headers from. */
export type HeaderSource = Headers | NodeHeaders;

const isFetchHeaders = (headers: HeaderSource): headers is Headers =>
  typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function';

/**
 * The value of header `name` (lower case), or undefined when it is absent or repeated as a list: a
 * signature header sent twice names no one signature.
 */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  let value = headers[name];
  if (value === undefined) {
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  return typeof value === 'string' ? value : undefined;
}
