/**
 * An interactions endpoint on Cloudflare Workers: tollgate/interactions checks each interaction's
 * signature and answers PING; a command is answered at once with a deferred response (the
 * service allows 3 s for the first answer), then that response is edited through tollgate. The
 * interaction webhook's limits live in one Durable Object, so every isolate that serves the app
 * waits its turn on the same buckets.
 */
import { InteractionType, MessageFlags, type APIApplicationCommandInteraction } from 'discord-api-types/v10';
import { createClient, type TollgateClient } from 'tollgate';
import { DurableObjectStore, TollgateLimits, type LimitsNamespace } from 'tollgate/cloudflare';
import { createInteractionHandler, respond, type InteractionHandler } from 'tollgate/interactions';

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

/** What each request hands the handler: the Worker's bindings and its context. */
interface Call {
  readonly env: Env;
  readonly context: Context;
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

/** One handler per isolate: the public key is a binding, known only once a request brings `env`. */
let handler: InteractionHandler<Call> | undefined;
const handlerFor = (env: Env): InteractionHandler<Call> =>
  (handler ??= createInteractionHandler<Call>({
    publicKey: env.DISCORD_PUBLIC_KEY,
    handle(interaction, { env, context }) {
      if (interaction.type !== InteractionType.ApplicationCommand) {
        return respond.reply({ content: 'This app answers commands only.', flags: MessageFlags.Ephemeral });
      }
      // Answer now; the edit goes on after the response (and fails only in the logs).
      context.waitUntil(answerLater(interaction, env).catch((error: unknown) => console.error(error)));
      return respond.deferReply();
    },
  }));

export default {
  fetch: (request: Request, env: Env, context: Context): Promise<Response> =>
    handlerFor(env).fetch(request, { env, context }),
};
