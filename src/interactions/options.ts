/**
 * What `createInteractionHandler` is given, and its check: a handler is closed by default, so one
 * made without a public key it can verify with fails when it is made, not by answering 401 to
 * every interaction (or, worse, by trusting them).
 */
import type { APIInteraction, APIInteractionResponse, APIPingInteraction } from 'discord-api-types/v10';
import { TollgateArgumentError } from '../errors.ts';
import { PUBLIC_KEY_BYTES } from './public-keys.ts';

/** Every interaction the handler hands to `handle`: all but Discord's PING, which it answers itself. */
export type ReceivedInteraction = Exclude<APIInteraction, APIPingInteraction>;

/** What an interaction is named by in `onError`: never its token. */
export interface InteractionSummary {
  /** The interaction's id (a snowflake). */
  readonly id: string;
  /** Its `InteractionType`: 2 a command, 3 a component, 4 autocomplete, 5 a modal's submission. */
  readonly type: number;
}

/** Options of `createInteractionHandler`; `Context` is what each call of `fetch` or `node` passes on to `handle`. */
export interface InteractionHandlerOptions<Context = void> {
  /** The application's public key, 64 hex digits (the developer portal's General Information page). */
  readonly publicKey: string;
  /**
   * Answers one verified interaction with the callback body (`respond.*`), within Discord's 3 s:
   * work that takes longer is deferred (`respond.deferReply()`) and finished through the client.
   * What it throws is answered 500, with nothing of the error in the answer.
   */
  readonly handle: (
    interaction: ReceivedInteraction,
    context: Context,
  ) => APIInteractionResponse | Promise<APIInteractionResponse>;
  /**
   * Told what `handle` threw (or what kept it from answering), with the interaction's token
   * replaced by `[token]` in the error's message and stack; `interaction` is undefined when the
   * failure came before there was one (a body already read by someone else). Default:
   * `console.error`, one line naming the interaction by id and type, then the error.
   */
  readonly onError?: (error: unknown, interaction: InteractionSummary | undefined) => void;
}

/** The options, checked. */
export interface CheckedHandlerOptions<Context> {
  readonly publicKey: string;
  readonly handle: InteractionHandlerOptions<Context>['handle'];
  readonly onError: NonNullable<InteractionHandlerOptions<Context>['onError']>;
}

const logFailure = (error: unknown, interaction: InteractionSummary | undefined): void =>
  console.error(
    interaction
      ? `tollgate/interactions: interaction ${interaction.id} (type ${interaction.type}) failed:`
      : 'tollgate/interactions: a request failed:',
    error,
  );

/** What a value is, without showing it: a public key option may hold a bot token by mistake. */
const described = (value: unknown): string =>
  typeof value === 'string' ? `a string of ${value.length} characters` : value === null ? 'null' : typeof value;

/** The options, or a TollgateArgumentError naming the one at fault. */
export function checkHandlerOptions<Context>(
  options: InteractionHandlerOptions<Context>,
): CheckedHandlerOptions<Context> {
  if (typeof options !== 'object' || options === null) {
    throw new TollgateArgumentError(
      `createInteractionHandler: options must be an object ({ publicKey, handle }); got ${described(options)}`,
    );
  }
  const { publicKey, handle, onError } = options;
  if (typeof publicKey !== 'string' || !new RegExp(`^[0-9a-fA-F]{${2 * PUBLIC_KEY_BYTES}}$`).test(publicKey)) {
    throw new TollgateArgumentError(
      `createInteractionHandler: publicKey must be the application's public key, ${2 * PUBLIC_KEY_BYTES} hex digits (the developer portal's General Information page); got ${described(publicKey)}`,
    );
  }
  if (typeof handle !== 'function') {
    throw new TollgateArgumentError(`createInteractionHandler: handle must be a function; got ${described(handle)}`);
  }
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TollgateArgumentError(`createInteractionHandler: onError must be a function; got ${described(onError)}`);
  }
  return { publicKey, handle, onError: onError ?? logFailure };
}
