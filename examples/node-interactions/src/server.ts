/**
 * An interactions endpoint on Node.js's own `http`: tollgate/interactions checks each
 * interaction's signature and answers PING; a command is answered at once with a deferred
 * response (the service allows 3 s for the first answer), then that response is edited through
 * tollgate's client, which keeps the interaction webhook's rate limits.
 *
 * It listens on 127.0.0.1 (HOST and PORT change that): Discord posts over HTTPS only, so put a
 * reverse proxy or a tunnel that ends TLS in front of it, and set that public URL as the
 * application's Interactions Endpoint URL.
 */
import { createServer } from 'node:http';
import { InteractionType, MessageFlags, type APIApplicationCommandInteraction } from 'discord-api-types/v10';
import { createClient } from 'tollgate';
import { createInteractionHandler, respond } from 'tollgate/interactions';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (the developer portal's General Information page)`);
  return value;
}

const applicationId = required('DISCORD_APPLICATION_ID');
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 8080);

// Interaction webhooks need no bot token (they are sent without one); DISCORD_API_BASE points
// the client elsewhere (a local reference service in tests).
const client = createClient({ ...(process.env.DISCORD_API_BASE && { baseUrl: process.env.DISCORD_API_BASE }) });

async function answerLater(interaction: APIApplicationCommandInteraction): Promise<void> {
  const user = interaction.member?.user ?? interaction.user;
  await client.interactions.original.edit(applicationId, interaction.token, {
    content: `Hello ${user?.username ?? 'there'}, you ran /${interaction.data.name}.`,
  });
}

// Throws at once, before listening, when DISCORD_PUBLIC_KEY is missing or not a key.
const handler = createInteractionHandler({
  publicKey: required('DISCORD_PUBLIC_KEY'),
  handle(interaction) {
    if (interaction.type !== InteractionType.ApplicationCommand) {
      return respond.reply({ content: 'This app answers commands only.', flags: MessageFlags.Ephemeral });
    }
    // Answer now; the edit goes on after it (and fails only in the logs, which never see the token).
    answerLater(interaction).catch((error: unknown) => console.error('editing the reply failed:', error));
    return respond.deferReply();
  },
});

const server = createServer((request, response) => void handler.node(request, response));
server.listen(port, host, () => {
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`listening on http://${host}:${listening}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void client.close();
  });
}
