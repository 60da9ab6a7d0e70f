/**
 * An interactions endpoint on Cloudflare Workers: it checks each interaction's signature, answers
 * a command at once with a deferred response (the service allows 3 s for the first answer), and
 * then edits that response through tollgate. The interaction webhook's limits live in one
 * Durable Object, so every isolate that serves the app waits its turn on the same buckets.
 */
import {
  InteractionResponseType,
  InteractionType,
  type APIApplicationCommandInteraction,
  type APIInteraction,
} from 'discord-api-types/v10';
import { createClient, type TollgateClient } from 'tollgate';
import { DurableObjectStore, TollgateLimits, type LimitsNamespace } from 'tollgate/cloudflare';
import { isSignedInteraction } from './verify.ts';

// The Durable Object class, exported so wrangler.json's binding can name it.
export { TollgateLimits };

interface Env {
  readonly DISCORD_APPLICATION_ID: string;
  readonly DISCORD_PUBLIC_KEY: string;
  readonly TOLLGATE_LIMITS: LimitsNamespace;
  /** Another API base URL (a local reference service in tests); default the service's own. */
  readonly DISCORD_API_BASE?: string;
}

interface Context {
  waitUntil(promise: Promise<unknown>): void;
}

/** One client per isolate: interaction webhooks need no bot token (they are sent without one). */
let client: TollgateClient | undefined;
const clientFor = (env: Env): TollgateClient =>
  (client ??= createClient({
    store: new DurableObjectStore(env.TOLLGATE_LIMITS),
    ...(env.DISCORD_API_BASE && { baseUrl: env.DISCORD_API_BASE }),
  }));

async function answerLater(interaction: APIApplicationCommandInteraction, env: Env): Promise<void> {
  const user = interaction.member?.user ?? interaction.user;
  await clientFor(env).interactions.original.edit(env.DISCORD_APPLICATION_ID, interaction.token, {
    content: `Hello ${user?.username ?? 'there'}, you ran /${interaction.data.name}.`,
  });
}

export default {
  async fetch(request: Request, env: Env, context: Context): Promise<Response> {
    if (request.method !== 'POST') return new Response('interactions are POSTed', { status: 405 });
    const body = await request.text();
    if (!(await isSignedInteraction(request.headers, body, env.DISCORD_PUBLIC_KEY))) {
      return new Response('invalid request signature', { status: 401 });
    }
    const interaction = JSON.parse(body) as APIInteraction;
    switch (interaction.type) {
      case InteractionType.Ping:
        return Response.json({ type: InteractionResponseType.Pong });
      case InteractionType.ApplicationCommand:
        // Answer now; the edit goes on after the response (and fails only in the logs).
        context.waitUntil(answerLater(interaction, env).catch((error: unknown) => console.error(error)));
        return Response.json({ type: InteractionResponseType.DeferredChannelMessageWithSource });
      default:
        return new Response('unsupported interaction type', { status: 400 });
    }
  },
};
