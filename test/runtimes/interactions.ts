/**
 * tollgate/interactions in each runtime tollgate supports: a PING signed here (Web Crypto's
 * Ed25519, as the runtime has it) verifies and is answered PONG; the same PING with its body
 * tampered with does not verify and is answered 401, without user code. Through the fetch
 * handler everywhere, and through the Node `http` handler where the runtime has `node:http` (the
 * host hands that in, so the Worker's bundle names no Node.js module).
 */
import {
  createInteractionHandler,
  respond,
  verifyInteraction,
  type InteractionHandler,
} from '../../src/interactions/index.ts';
import { newSigner, PING, signedRequest, type Signed } from '../support/interactions.ts';

/** What one handler answered. */
export interface HandlerAnswers {
  readonly ping: { readonly status: number; readonly body: unknown };
  readonly tamperedStatus: number;
  /** Calls of the user's function: none is right (PING and a refusal never reach it). */
  readonly handleCalls: number;
}

export interface InteractionsOutcome {
  /** What verifyInteraction said of the signed PING, and of it tampered with. */
  readonly verified: boolean;
  readonly tamperedVerified: boolean;
  readonly fetch: HandlerAnswers;
  /** Only where the host served the handler on `node:http`. */
  readonly node?: HandlerAnswers;
}

/** Serves `handler.node` on a loopback `node:http` server: its URL, and how to stop it. */
export type NodeServe = (handler: InteractionHandler) => Promise<{ url: string; close(): Promise<void> }>;

/** What `send` answers the signed PING and the tampered one, both sent to `url`. */
async function answersOf(
  send: (request: Request) => Promise<Response>,
  url: string,
  pings: { readonly signed: Signed; readonly tampered: Signed },
  handleCalls: () => number,
): Promise<HandlerAnswers> {
  const answered = await send(signedRequest(pings.signed, url));
  const ping = { status: answered.status, body: await answered.json() };
  const refused = await send(signedRequest(pings.tampered, url));
  await refused.body?.cancel();
  return { ping, tamperedStatus: refused.status, handleCalls: handleCalls() };
}

export async function checkInteractions(serveNode?: NodeServe): Promise<InteractionsOutcome> {
  const signer = await newSigner();
  const signed = await signer.sign(PING);
  const pings = { signed, tampered: { ...signed, body: signed.body.replace('"type":1', '"type":1 ') } };
  let calls = 0;
  const handler = createInteractionHandler({
    publicKey: signer.publicKey,
    handle: () => {
      calls += 1;
      return respond.deferReply();
    },
  });
  const outcome = {
    verified: await verifyInteraction(signedRequest(pings.signed), signer.publicKey),
    tamperedVerified: await verifyInteraction(signedRequest(pings.tampered), signer.publicKey),
    fetch: await answersOf(
      (request) => handler.fetch(request),
      'http://interactions.test/',
      pings,
      () => calls,
    ),
  };
  if (!serveNode) return outcome;
  const served = await serveNode(handler);
  try {
    return {
      ...outcome,
      node: await answersOf(
        (request) => fetch(request),
        served.url,
        pings,
        () => calls,
      ),
    };
  } finally {
    await served.close();
  }
}
