/**
 * No token text in an error: errors that come from below (the transport, a store) are scrubbed
 * before they reach a caller, their cause chain included. They are changed in place (message and
 * stack are writable), so their class and other fields stay as the transport made them.
 */

/** How deep a cause chain is followed. */
const MAX_CAUSES = 8;
const SHOWN = '[token]';

export function scrubbed<T>(error: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return error;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current instanceof Error; depth++) {
    for (const field of ['message', 'stack'] as const) {
      const text = current[field];
      if (typeof text === 'string' && secrets.some((secret) => text.includes(secret))) {
        current[field] = secrets.reduce((scrubbedText, secret) => scrubbedText.replaceAll(secret, SHOWN), text);
      }
    }
    current = current.cause;
  }
  return error;
}

/** The first `code` (ECONNREFUSED, ENOTFOUND, …) in an error's cause chain. */
export function errorCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
