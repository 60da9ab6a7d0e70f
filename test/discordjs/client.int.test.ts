/**
 * discord.js's own Client, without a gateway, through tollgate/discordjs: the requests that
 * arrive at the service and what the bot gets back are the same as with plain @discordjs/rest.
 */
import { Client, DiscordAPIError, type TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRequest } from '../../src/discordjs/index.ts';
import { BOT_TOKEN, startTapped, type ArrivedRequest, type Tapped } from '../support/discordjs.ts';

const GUILD = '175928847299117063';
const CHANNEL = '81384788765712384';
const USER = '80351110224678912';
const WEBHOOK = '223704706495545344';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let tapped: Tapped[] = [];
afterEach(async () => {
  await Promise.all(tapped.map((each) => each.stop()));
  tapped = [];
});

/** What a bot does and sees, run once against its own service. */
async function scenario(bridged: boolean): Promise<{ arrived: ArrivedRequest[]; seen: unknown[] }> {
  const tap = await startTapped();
  tapped.push(tap);
  const bridge = bridged ? makeRequest({ apiRoot: tap.root }) : undefined;
  const client = new Client({ intents: [], rest: { api: tap.root, ...(bridge && { makeRequest: bridge }) } });
  client.rest.setToken(BOT_TOKEN);
  const seen: unknown[] = [];
  try {
    const user = await client.users.fetch(USER);
    seen.push(['user', user.id, user.username]);
    const guild = await client.guilds.fetch(GUILD);
    seen.push(['guild', guild.id, guild.name]);
    const channel = (await guild.channels.fetch(CHANNEL)) as TextChannel;
    seen.push(['channel', channel.id, channel.name, channel.constructor.name]);
    const message = await channel.send({
      content: 'with a file',
      files: [{ attachment: Buffer.from('hello'), name: 'hello.txt' }],
    });
    seen.push(['message', message.content, message.attachments.size]);
    const sticker = await guild.stickers.create({ file: PNG, name: 'wave', tags: 'wave', reason: 'a test' });
    seen.push(['sticker', sticker.name]);
    const webhook = await client.fetchWebhook(WEBHOOK);
    seen.push(['webhook', webhook.id, webhook.name]);
    await webhook.delete('cleaning up');
    seen.push(['webhook deleted']);
    tap.service.inject({ fault: { kind: 'status', status: 404, body: { message: 'Unknown Role', code: 10011 } } });
    const error: unknown = await guild.roles.delete('999', 'gone').catch((failure: unknown) => failure);
    seen.push([
      'role',
      error instanceof DiscordAPIError,
      (error as DiscordAPIError).code,
      (error as DiscordAPIError).status,
      (error as DiscordAPIError).message,
    ]);
  } finally {
    await client.destroy();
    await bridge?.close();
  }
  return { arrived: tap.arrived, seen };
}

describe('discord.js Client through tollgate/discordjs', () => {
  it('sends what plain REST sends and sees what it sees, files, stickers, webhooks and errors included', async () => {
    const plain = await scenario(false);
    const bridged = await scenario(true);
    expect(bridged.arrived).toEqual(plain.arrived);
    expect(bridged.seen).toEqual(plain.seen);
    // The run did what it says: a multipart message and sticker, an audit-log reason, a DiscordAPIError.
    expect(bridged.arrived.map((request) => `${request.method} ${request.path.split('?')[0]}`)).toEqual([
      `GET /v10/users/${USER}`,
      `GET /v10/guilds/${GUILD}`,
      `GET /v10/channels/${CHANNEL}`,
      `POST /v10/channels/${CHANNEL}/messages`,
      `POST /v10/guilds/${GUILD}/stickers`,
      `GET /v10/webhooks/${WEBHOOK}`,
      `DELETE /v10/webhooks/${WEBHOOK}`,
      `DELETE /v10/guilds/${GUILD}/roles/999`,
    ]);
    const [, , , message, sticker, , deleted] = bridged.arrived;
    expect(message).toMatchObject({ contentType: 'multipart/form-data', authorization: `Bot ${BOT_TOKEN}` });
    expect(message!.body).toEqual([
      { name: 'files[0]', filename: 'hello.txt', type: 'application/octet-stream', content: 'aGVsbG8=' },
      { name: 'payload_json', content: expect.stringContaining('"content":"with a file"') as unknown },
    ]);
    expect(sticker).toMatchObject({ contentType: 'multipart/form-data', auditLogReason: 'a%20test' });
    expect(deleted).toMatchObject({ auditLogReason: 'cleaning%20up' });
    expect(bridged.seen.at(-1)).toEqual(['role', true, 10011, 404, 'Unknown Role']);
  });
});
