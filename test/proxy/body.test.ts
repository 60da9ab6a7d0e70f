/** A request's body as the proxy forwards it (src/proxy/body.ts), over a stream standing in for the request. */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundedBody } from '../../src/proxy/body.ts';

const requestStream = () => new PassThrough();
const asRequest = (stream: PassThrough) => stream as unknown as IncomingMessage;
const read = async (stream: ReadableStream<Uint8Array>) =>
  Buffer.from(await new Response(stream).arrayBuffer()).toString();

describe('boundedBody', () => {
  it('passes a body up to maxBody bytes through whole, and is not too large', async () => {
    const request = requestStream();
    const body = boundedBody(asRequest(request), 10);
    request.write('hello');
    request.end('world');
    expect(await read(body.stream)).toBe('helloworld');
    expect(body.tooLarge()).toBe(false);
  });

  it('fails the stream one byte past maxBody, says so, and reads no further', async () => {
    const request = requestStream();
    const body = boundedBody(asRequest(request), 10);
    request.write('hello');
    request.write('world!');
    await expect(read(body.stream)).rejects.toThrow('body over 10 bytes');
    expect(body.tooLarge()).toBe(true);
    expect(request.isPaused()).toBe(true);
  });

  it("a request's error fails the stream, once, and is not a body too large", async () => {
    const request = requestStream();
    const body = boundedBody(asRequest(request), 10);
    request.write('he');
    request.destroy(new Error('connection reset'));
    await expect(read(body.stream)).rejects.toThrow('connection reset');
    expect(body.tooLarge()).toBe(false);
  });

  it('reads only as the stream is pulled: the request waits, paused, past the high-water mark', async () => {
    const request = requestStream();
    const body = boundedBody(asRequest(request), 1024 * 1024);
    expect(request.isPaused()).toBe(true);
    const reader = body.stream.getReader();
    request.write(Buffer.alloc(64 * 1024));
    await reader.read();
    await new Promise((resolve) => setImmediate(resolve));
    request.write(Buffer.alloc(64 * 1024));
    request.write(Buffer.alloc(64 * 1024));
    await new Promise((resolve) => setImmediate(resolve));
    expect(request.isPaused()).toBe(true);
    reader.releaseLock();
  });

  it('discard drains what nobody read, so the request ends', async () => {
    const request = requestStream();
    const body = boundedBody(asRequest(request), 10);
    const ended = new Promise<void>((resolve) => request.once('end', () => resolve()));
    request.end('unread');
    body.discard();
    await ended;
    expect(request.readableEnded).toBe(true);
  });
});
