/**
 * A request's raw body, read whole but within a bound. The signature covers the exact bytes, so
 * the body is kept as bytes (never decoded and encoded again), and it must be whole before
 * anything can be checked. Discord's interactions are small (a command with its resolved users,
 * members, messages and attachments is kilobytes, not megabytes), so the bound is generous for
 * them and small for a server's memory.
 */

import type { NodeHeaders } from './headers.ts';

/** The largest body the handler reads: 1 MiB. A larger one is answered 413 without being checked. */
export const MAX_INTERACTION_BODY_BYTES = 1024 * 1024;

/** A body read: its bytes, or why there are none (`too-large`: over the bound; `broken`: the sender went away). */
export type BodyRead =
  | { readonly kind: 'read'; readonly bytes: Uint8Array<ArrayBuffer> }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'broken' };

const TOO_LARGE: BodyRead = { kind: 'too-large' };
const BROKEN: BodyRead = { kind: 'broken' };

/** Whether a `Content-Length` value already says the body is over `max` (an absent or unreadable one does not). */
export function declaredOver(contentLength: string | undefined, max: number): boolean {
  if (contentLength === undefined || !/^\d+$/.test(contentLength.trim())) return false;
  return Number(contentLength.trim()) > max;
}

/** Collects bytes up to `max`; past it, keeps none. */
class Collector {
  readonly #max: number;
  readonly #chunks: Uint8Array[] = [];
  #length = 0;
  constructor(max: number) {
    this.#max = max;
  }
  /** Takes a chunk; false once the total is over the bound (nothing more is kept). */
  add(chunk: Uint8Array): boolean {
    if (this.#length > this.#max) return false;
    this.#length += chunk.byteLength;
    if (this.#length > this.#max) {
      this.#chunks.length = 0;
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }
  bytes(): Uint8Array<ArrayBuffer> {
    const bytes = new Uint8Array(this.#length);
    let offset = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }
}

/** A fetch body (a `Request`'s), read up to `max`; past it the rest is cancelled, never read. */
export async function readStreamBody(body: ReadableStream<Uint8Array> | null, max: number): Promise<BodyRead> {
  if (body === null) return { kind: 'read', bytes: new Uint8Array(0) };
  const collector = new Collector(max);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { kind: 'read', bytes: collector.bytes() };
      if (!collector.add(value)) {
        await reader.cancel().catch(() => {});
        return TOO_LARGE;
      }
    }
  } catch {
    return BROKEN;
  }
}

/**
 * The parts of Node's `http.IncomingMessage` the handler reads (Bun's and Deno's `node:http` give
 * the same). Declared here rather than imported, so that the package's types need no
 * `@types/node` in a Worker's project.
 */
export interface NodeInteractionRequest {
  /** The request's method: only POST is an interaction. */
  readonly method?: string | undefined;
  /** Its headers, names in lower case. */
  readonly headers: NodeHeaders;
  /** True once the body has been read to its end by someone: then its bytes are gone. */
  readonly readableEnded?: boolean;
  /** The body's chunks as they come (strings if someone set an encoding). */
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  /** The body's end; or, without an end first, the connection's loss. */
  on(event: 'end' | 'close', listener: () => void): unknown;
  /** The body broke off (the client aborted, the socket failed). */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Lets the body flow, should someone have paused it. */
  resume(): unknown;
}

const encoder = new TextEncoder();

/**
 * A Node request's body, read up to `max`. Past it, what still comes is taken and dropped (so the
 * connection is drained, not left with unread bytes when it is closed after the 413). A request
 * that ends without its end (the client aborted, the socket failed) is `broken`: Node reports
 * that as an `error` or a `close` with no `end`, and neither may reach the process as an
 * unhandled error.
 */
export function readNodeBody(request: NodeInteractionRequest, max: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const collector = new Collector(max);
    let settled = false;
    const settle = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(read);
    };
    request.on('data', (chunk) => {
      if (!collector.add(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)) settle(TOO_LARGE);
    });
    request.on('end', () => settle({ kind: 'read', bytes: collector.bytes() }));
    request.on('error', () => settle(BROKEN));
    request.on('close', () => settle(BROKEN));
    request.resume();
  });
}
