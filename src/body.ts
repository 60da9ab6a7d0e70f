/**
 * A response body as a typed method returns it: parsed JSON, text, bytes (for a binary result),
 * or undefined when empty. With `timeoutMs`, the body must arrive within that time: a body that
 * trickles in fails with the error `expired()` makes, and its stream is cancelled (the connection
 * is not held).
 */
export async function readBody(
  response: Response,
  binary: boolean,
  timeoutMs?: number,
  expired?: () => Error,
): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.body === null) return undefined;
  const within = timeoutMs !== undefined && expired !== undefined;
  if (binary) {
    return within ? (await readBytesWithin(response.body, timeoutMs, expired)).buffer : response.arrayBuffer();
  }
  const text = within ? await readTextWithin(response.body, timeoutMs, expired) : await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text; // a broken JSON error page is still worth showing to the caller
  }
}

/** UTF-8 without state: each body is decoded once, whole, so one decoder serves every call. */
const utf8 = new TextDecoder();

export async function readTextWithin(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  expired: () => Error,
): Promise<string> {
  return utf8.decode(await readBytesWithin(body, timeoutMs, expired));
}

/** The whole body as one exactly sized buffer. */
export async function readBytesWithin(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  expired: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  let timedOut: Error | undefined;
  // Cancelling ends a pending read as "done": `timedOut` keeps that from passing for the end.
  // One timer for the whole body, no race per chunk: the common body is a chunk or two.
  const timer = setTimeout(() => {
    timedOut = expired();
    reader.cancel(timedOut).catch(() => {});
  }, timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw timedOut;
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } finally {
    clearTimeout(timer);
  }
  if (chunks.length === 1 && chunks[0]!.byteOffset === 0 && chunks[0]!.buffer.byteLength === length) {
    return chunks[0] as Uint8Array<ArrayBuffer>;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
