/**
 * A relayed call on the wire, without ky: the limiter's lifecycle called where ky's hooks would
 * be, around one fetch. A relayed call makes one attempt (whoever relays it sends it again, if
 * anyone), has no timeout of tollgate's and no headers to merge but the token, so ky would only add
 * its cost: an options merge, a Request, a composite abort signal, and a copy of every answer's
 * body for its hooks, where the judge reads a 429's alone (`npm run bench -- proxy`).
 */
import type { CallLifecycle } from '../limiter/ky-hooks.ts';
import type { CallState } from '../limiter/call.ts';

/** What a relayed call sends: its method, its own headers (a copy the call owns), Authorization, body and signal. */
export interface RelayedRequest {
  readonly method: string;
  readonly headers: Headers | undefined;
  /** The lane's token, for a call sent with it. */
  readonly authorization: string | undefined;
  readonly body: BodyInit | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A relayed call's transport failure: the cause fetch gave (the Sender makes it a NetworkError). */
export class RelayedTransportError extends Error {
  constructor(cause: unknown) {
    super('fetch failed', { cause });
    this.name = 'RelayedTransportError';
  }
}

/** Sends one relayed call to `url`. */
export type RelayedSend = (url: string, call: CallState, request: RelayedRequest) => Promise<Response>;

/** Relayed calls through `lifecycle` on `fetchOf()`, read at each send (as ky reads the global fetch). */
export function relayedSend(lifecycle: CallLifecycle, fetchOf: () => typeof fetch): RelayedSend {
  return async (url, call, { method, headers: own, authorization, body, signal }) => {
    await lifecycle.admit(call);
    const headers = own ?? new Headers();
    if (authorization !== undefined) headers.set('authorization', authorization);
    const init: RequestInit & { duplex?: 'half' } = {
      method,
      headers,
      // A redirect is returned, never followed: Authorization must not follow it to another origin.
      redirect: 'manual',
    };
    if (body !== undefined) init.body = body;
    // A streamed body goes as it comes (fetch asks to be told).
    if (body instanceof ReadableStream) init.duplex = 'half';
    if (signal !== undefined) init.signal = signal;
    let response: Response;
    try {
      response = await fetchOf()(url, init);
    } catch (error) {
      // An abort is the caller's; fetch fails any other way with a TypeError (a network failure).
      if (signal?.aborted || !(error instanceof TypeError)) throw error;
      throw new RelayedTransportError(error);
    }
    // The judge reads only a 429's body: the copy it reads is made for that answer alone.
    await lifecycle.afterResponse(call, response.status === 429 ? response.clone() : response);
    return response;
  };
}
