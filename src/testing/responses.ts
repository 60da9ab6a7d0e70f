/**
 * How the reference service's answers go out on the wire: JSON bodies with their header bytes
 * kept as given, catalog results, bodies that trickle in, and simulated latency, so the v6 and
 * v10 answers only decide what to say.
 */
import type { ServerResponse } from 'node:http';
import { BinaryBody, sampleResult, type PathIds } from './fixtures.ts';
import type { Answer } from './messages.ts';

/** Discord's extra bucket headers: the bucket's name (its key without the major id) and the window's time left in seconds. */
export function discordBucketHeaders(bucketKey: string, windowLeftMs: number): Record<string, string> {
  return {
    'x-ratelimit-bucket': bucketKey.replace(/:\d+$/, ''),
    'x-ratelimit-reset-after': (Math.max(0, windowLeftMs) / 1000).toFixed(3),
    'x-ratelimit-scope': 'user',
  };
}

/** The status and headers now, the body's first byte too, the rest after `delayMs`: a body that trickles in. */
export async function sendSlowly(
  response: ServerResponse,
  answer: Answer,
  headers: Record<string, string>,
  delayMs: number,
): Promise<void> {
  const { contentType, bytes } = wireBody(answer.body);
  response.writeHead(answer.status, {
    ...(bytes.length > 0 && { 'content-type': contentType, 'content-length': bytes.length }),
    ...headers,
  });
  response.write(bytes.subarray(0, 1));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  if (!response.destroyed) response.end(bytes.subarray(1));
}

/** Holds a response's end (its headers and body leave together) for `ms`. */
export function delayEnd(response: ServerResponse, ms: number): void {
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.end = ((...args: unknown[]) => {
    setTimeout(() => end(...args), ms);
    return response;
  }) as ServerResponse['end'];
}

/**
 * A success of a catalog operation: a sample of its result type (fixtures.ts), or 204 where the
 * service answers empty; an operation without a result type answers `fallback` (what was asked,
 * and the body's size).
 */
export function sampleAnswer(operation: { name: string; ids: PathIds } | undefined, fallback: unknown): Answer {
  const body = operation ? sampleResult(operation.name, operation.ids, fallback) : fallback;
  return body === undefined ? { status: 204, body: undefined } : { status: 200, body };
}

/** The status a served call is recorded with: its own, but 200 for any success (a 204 too, as ever). */
export const recordedStatus = (answer: Answer): number => (answer.status < 300 ? 200 : answer.status);

/** An answer on the wire: JSON, bytes in their own content type, or nothing (204). */
export function sendAnswer(response: ServerResponse, answer: Answer, headers: Record<string, string>): void {
  if (answer.body === undefined) {
    response.writeHead(answer.status, headers);
    response.end();
    return;
  }
  const { contentType, bytes } = wireBody(answer.body);
  response.writeHead(answer.status, { 'content-type': contentType, 'content-length': bytes.length, ...headers });
  response.end(bytes);
}

/** A body's bytes and content type: a BinaryBody's own, else JSON (none for `undefined`). */
function wireBody(body: unknown): { contentType: string; bytes: Uint8Array } {
  if (body instanceof BinaryBody) return { contentType: body.contentType, bytes: body.bytes };
  if (body === undefined) return { contentType: 'application/json', bytes: new Uint8Array() };
  return { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(body)) };
}

/** A v10 answer from the service itself: it carries `Via: 1.1 google` (the CDN's own answers do not). */
export function sendV10(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(response, status, body, { ...headers, via: '1.1 google' });
}

export function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // A Buffer body keeps header bytes latin-1: Node would encode a string body and the header
  // block together as UTF-8, and raw header bytes (non-UTF-8 faults) would be lost.
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length, ...headers });
  response.end(bytes);
}
