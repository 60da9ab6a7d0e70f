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

export async function readTextWithin(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  expired: () => Error,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  await readWithin(body, timeoutMs, expired, (chunk) => {
    text += decoder.decode(chunk, { stream: true });
  });
  return text + decoder.decode();
}

/** The whole body as one exactly sized buffer. */
export async function readBytesWithin(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  expired: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  await readWithin(body, timeoutMs, expired, (chunk) => {
    chunks.push(chunk);
    length += chunk.byteLength;
  });
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

async function readWithin(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  expired: () => Error,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut: Error | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = expired();
      reject(timedOut);
      // Cancelling ends a pending read as "done": `timedOut` keeps that from passing for the end.
      reader.cancel(timedOut).catch(() => {});
    }, timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (timedOut) throw timedOut;
      if (done) return;
      onChunk(value);
    }
  } finally {
    clearTimeout(timer);
  }
}
