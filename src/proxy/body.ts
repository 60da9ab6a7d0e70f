/** A request's body as the proxy forwards it: streamed as the upstream takes it, and bounded. */
import type { IncomingMessage } from 'node:http';

/**
 * The body as a stream, read as the upstream takes it (never buffered whole), cut off past
 * `maxBody` bytes. What nobody reads (the request was answered without going upstream) is
 * drained and dropped, so the connection can serve the next request.
 */
export interface BoundedBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** The body ran past `maxBody`. */
  tooLarge(): boolean;
  /** Drains and drops what nobody read. */
  discard(): void;
}

export function boundedBody(request: IncomingMessage, maxBody: number): BoundedBody {
  let received = 0;
  let over = false;
  let done = false;
  const stop = () => {
    done = true;
    request.resume();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.on('data', (chunk: Buffer) => {
          if (done) return;
          received += chunk.byteLength;
          if (received > maxBody) {
            over = true;
            done = true;
            controller.error(new RangeError(`body over ${maxBody} bytes`));
            // Not read further: the 413 closes the connection (the rest is never taken in).
            request.pause();
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.once('end', () => {
          if (done) return;
          done = true;
          controller.close();
        });
        request.once('error', (error) => {
          if (done) return;
          done = true;
          controller.error(error);
        });
        request.pause();
      },
      pull() {
        if (!done) request.resume();
      },
      cancel: stop,
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return { stream, tooLarge: () => over, discard: stop };
}
