/**
 * `tollgate/interactions`: receiving Discord's interactions over HTTP. `verifyInteraction` checks
 * a request's Ed25519 signature, `respond` builds the callback bodies, and
 * `createInteractionHandler` does both around your function on a fetch server or Node's `http`
 * (docs/interactions.md). Web Crypto only: it runs on Node.js, Bun, Deno and workerd alike, and
 * imports nothing of the client, so a Worker that only answers stays small.
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
export { verifyInteraction, type InteractionInput } from './verify.ts';
export { respond, type DeferReplyOptions, type InteractionResponders } from './respond.ts';
export { createInteractionHandler, type InteractionHandler } from './handler.ts';
export type { InteractionHandlerOptions, InteractionSummary, ReceivedInteraction } from './options.ts';
export { MAX_INTERACTION_BODY_BYTES, type NodeInteractionRequest } from './body.ts';
export type { NodeInteractionResponse } from './node.ts';
export type { HeaderSource, NodeHeaders } from './headers.ts';
