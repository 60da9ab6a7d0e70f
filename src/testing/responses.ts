/**
 * How the reference service's answers go out on the wire: JSON bodies with their header bytes
 * kept as given, catalog results, bodies that trickle in, and simulated latency, so the v6 and
 * v10 answers only decide what to say.
 */
import type { ServerResponse } from 'node:http';
import { BinaryBody, operationOf, sampleResult } from './fixtures.ts';

/** Discord's extra bucket headers: the bucket's name (its key without the major id) and the window's time left in seconds. */
export function discordBucketHeaders(bucketKey: string, windowLeftMs: number): Record<string, string> {
  return {
    'x-ratelimit-bucket': bucketKey.replace(/:\d+$/, ''),
    'x-ratelimit-reset-after': (Math.max(0, windowLeftMs) / 1000).toFixed(3),
    'x-ratelimit-scope': 'user',
  };
}

/** Headers and the body's first byte now, the rest after `delayMs`: a body that trickles in. */
export async function sendSlowly(
  response: ServerResponse,
  body: unknown,
  headers: Record<string, string>,
  delayMs: number,
): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length, ...headers });
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
 * A success: for a catalog operation, a sample of its result type (fixtures.ts), or 204 where the
 * service answers empty; for any other path, `fallback` (what was asked, and the body's size).
 */
export function sendResult(
  response: ServerResponse,
  method: string,
  path: string,
  fallback: unknown,
  headers: Record<string, string>,
): void {
  const operation = operationOf(method, path);
  const body = operation ? sampleResult(operation.name, operation.ids, fallback) : fallback;
  if (body instanceof BinaryBody) {
    response.writeHead(200, { 'content-type': body.contentType, 'content-length': body.bytes.length, ...headers });
    response.end(body.bytes);
    return;
  }
  if (body !== undefined) return send(response, 200, body, headers);
  response.writeHead(204, headers);
  response.end();
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
