/**
 * `createInteractionHandler`: one object that answers Discord's interaction requests on a fetch
 * server (`fetch`) and on Node's `http` (`node`), with the same answers (docs/interactions.md has
 * the table). Its options are checked when it is made; each request is verified before any user
 * code sees it. Anchors: serenity's `interactions_endpoint::Verifier` (the check as one small
 * value), the npm `discord-interactions` package (the same work as an express middleware).
 */
import { answerFetch } from './fetch.ts';
import { answerNode, type NodeInteractionResponse } from './node.ts';
import type { NodeInteractionRequest } from './body.ts';
import { checkHandlerOptions, type InteractionHandlerOptions } from './options.ts';

/** Answers interaction requests; `Context` is whatever each call passes on to `handle` (a Worker's `env`, say). */
export interface InteractionHandler<Context = void> {
  /**
   * Answers a fetch `Request` (Workers, `Bun.serve`, `Deno.serve`). Never rejects: every failure
   * is an answer (a 500 for one of `handle`).
   */
  fetch(request: Request, context: Context): Promise<Response>;
  /**
   * Answers a request of Node's `http` on its response: `createServer((request, response) => void
   * handler.node(request, response))`. It reads the raw body itself, so it must get the request
   * unread. Never rejects; a client that aborts is left unanswered.
   */
  node(request: NodeInteractionRequest, response: NodeInteractionResponse, context: Context): Promise<void>;
}

/**
 * A handler for the application whose public key is `options.publicKey`: it answers 405 to all
 * but POST, 413 to a body over 1 MiB, 401 to a request Discord did not sign, 400 to a body that is
 * not an interaction, PONG to PING, and hands every other interaction to `options.handle`, whose
 * callback body (`respond.*`) it answers with. Throws TollgateArgumentError (a TypeError) for
 * options it cannot serve with, a public key that is not 64 hex digits first.
 *
 * @example
 * ```ts
 * const handler = createInteractionHandler({
 *   publicKey: process.env.DISCORD_PUBLIC_KEY!,
 *   handle: (interaction) => respond.reply({ content: 'Hello' }),
 * });
 * createServer((request, response) => void handler.node(request, response)).listen(8080);
 * ```
 */
export function createInteractionHandler<Context = void>(
  options: InteractionHandlerOptions<Context>,
): InteractionHandler<Context> {
  const checked = checkHandlerOptions(options);
  return {
    fetch: (request, context) => answerFetch(request, checked, context),
    node: (request, response, context) => answerNode(request, response, checked, context),
  };
}
