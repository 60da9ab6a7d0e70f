/** respond: each builder's body is Discord's interaction callback, numbers as discord-api-types names them. */
import { InteractionResponseType, MessageFlags, TextInputStyle } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { respond } from '../../src/interactions/index.ts';

const message = { content: 'Hello', allowed_mentions: { parse: [] } };

it.each([
  ['pong', respond.pong(), { type: InteractionResponseType.Pong }],
  ['reply', respond.reply(message), { type: InteractionResponseType.ChannelMessageWithSource, data: message }],
  ['deferReply', respond.deferReply(), { type: InteractionResponseType.DeferredChannelMessageWithSource }],
  [
    'deferReply, ephemeral',
    respond.deferReply({ ephemeral: true }),
    { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } },
  ],
  [
    'deferReply, not ephemeral',
    respond.deferReply({ ephemeral: false }),
    { type: InteractionResponseType.DeferredChannelMessageWithSource },
  ],
  ['update', respond.update(message), { type: InteractionResponseType.UpdateMessage, data: message }],
  ['deferUpdate', respond.deferUpdate(), { type: InteractionResponseType.DeferredMessageUpdate }],
])('%s', (_, body, expected) => {
  expect(body).toStrictEqual(expected);
});

it('modal', () => {
  const form = {
    custom_id: 'feedback',
    title: 'Feedback',
    components: [
      {
        type: 1 as const,
        components: [{ type: 4 as const, custom_id: 'text', label: 'Say', style: TextInputStyle.Paragraph }],
      },
    ],
  };
  expect(respond.modal(form)).toStrictEqual({ type: InteractionResponseType.Modal, data: form });
});

it('autocomplete: the choices, copied', () => {
  const choices = [{ name: 'Red', value: 'red' }] as const;
  const body = respond.autocomplete(choices);
  expect(body).toStrictEqual({
    type: InteractionResponseType.ApplicationCommandAutocompleteResult,
    data: { choices: [{ name: 'Red', value: 'red' }] },
  });
  expect(body.data.choices).not.toBe(choices);
});
