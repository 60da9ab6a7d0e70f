/**
 * A response body as a typed method returns it: parsed JSON, text, or undefined when empty.
 * With `timeoutMs`, the body must arrive within that time: a body that trickles in fails with
 * the error `expired()` makes, and its stream is cancelled (the connection is not held).
 */
export async function readBody(response: Response, timeoutMs?: number, expired?: () => Error): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.body === null) return undefined;
  const text =
    timeoutMs === undefined || expired === undefined
      ? await response.text()
      : await readTextWithin(response.body, timeoutMs, expired);
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
  const reader = body.getReader();
  const decoder = new TextDecoder();
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
  let text = '';
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (timedOut) throw timedOut;
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
}
