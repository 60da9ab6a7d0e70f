/**
 * The bodies an interaction is answered with (Discord's interaction callback), as plain JSON
 * objects typed by discord-api-types. Their numbers are written out, each checked against the
 * enum member it stands for: importing discord-api-types' enums at run time would add its whole
 * v10 module (about 90 KB minified, 23 KB gzipped) to every Worker that answers interactions.
 */
import type {
  APIApplicationCommandAutocompleteResponse,
  APIApplicationCommandOptionChoice,
  APIInteractionResponseCallbackData,
  APIInteractionResponseChannelMessageWithSource,
  APIInteractionResponseDeferredChannelMessageWithSource,
  APIInteractionResponseDeferredMessageUpdate,
  APIInteractionResponsePong,
  APIInteractionResponseUpdateMessage,
  APIModalInteractionResponse,
  APIModalInteractionResponseCallbackData,
  InteractionResponseType,
  MessageFlags,
} from 'discord-api-types/v10';

const PONG: InteractionResponseType.Pong = 1;
const CHANNEL_MESSAGE: InteractionResponseType.ChannelMessageWithSource = 4;
const DEFERRED_CHANNEL_MESSAGE: InteractionResponseType.DeferredChannelMessageWithSource = 5;
const DEFERRED_UPDATE: InteractionResponseType.DeferredMessageUpdate = 6;
const UPDATE_MESSAGE: InteractionResponseType.UpdateMessage = 7;
const AUTOCOMPLETE_RESULT: InteractionResponseType.ApplicationCommandAutocompleteResult = 8;
const MODAL: InteractionResponseType.Modal = 9;
const EPHEMERAL: MessageFlags.Ephemeral = 64;

/** Options of `respond.deferReply`. */
export interface DeferReplyOptions {
  /** Whether only the user who ran the command sees the reply (and its edits): `MessageFlags.Ephemeral`. Default false. */
  readonly ephemeral?: boolean;
}

/** The interaction callback bodies `respond` builds; each is the JSON to answer the interaction with. */
export interface InteractionResponders {
  /** Answers Discord's PING (the handler does this itself). */
  pong(): APIInteractionResponsePong;
  /** Replies with a message now. */
  reply(data: APIInteractionResponseCallbackData): APIInteractionResponseChannelMessageWithSource;
  /**
   * Acknowledges now and replies later: the user sees "thinking…" until the reply is written with
   * `client.interactions.original.edit(applicationId, interaction.token, body)` (within 15 minutes).
   */
  deferReply(options?: DeferReplyOptions): APIInteractionResponseDeferredChannelMessageWithSource;
  /** A component's interaction: edits the message the component is on, now. */
  update(data: APIInteractionResponseCallbackData): APIInteractionResponseUpdateMessage;
  /** A component's interaction: acknowledges now, and edits the message later (`client.interactions.original.edit`). */
  deferUpdate(): APIInteractionResponseDeferredMessageUpdate;
  /** Opens a modal (a form) for the user. */
  modal(data: APIModalInteractionResponseCallbackData): APIModalInteractionResponse;
  /** An autocomplete interaction: the choices to offer (at most 25). */
  autocomplete(choices: readonly APIApplicationCommandOptionChoice[]): APIApplicationCommandAutocompleteResponse;
}

/**
 * Builders of the interaction callback bodies, to return from an interaction handler's `handle`
 * (or to send yourself): `respond.reply({ content: 'Hello' })`, `respond.deferReply({ ephemeral: true })`.
 */
export const respond: InteractionResponders = {
  pong: () => ({ type: PONG }),
  reply: (data) => ({ type: CHANNEL_MESSAGE, data }),
  deferReply: (options = {}) =>
    options.ephemeral
      ? { type: DEFERRED_CHANNEL_MESSAGE, data: { flags: EPHEMERAL } }
      : { type: DEFERRED_CHANNEL_MESSAGE },
  update: (data) => ({ type: UPDATE_MESSAGE, data }),
  deferUpdate: () => ({ type: DEFERRED_UPDATE }),
  modal: (data) => ({ type: MODAL, data }),
  autocomplete: (choices) => ({ type: AUTOCOMPLETE_RESULT, data: { choices: [...choices] } }),
};
