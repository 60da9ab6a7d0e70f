/**
 * The client's `allowedMentions` default: filled into a body that can mention and names none of
 * its own, where the catalog says the body takes it (`allowedMentionsIn`, from Discord's OpenAPI
 * document: a message's body, an interaction response's `data`, a forum post's `message`); and
 * its check, made when the client is.
 */
import { z } from 'zod';
import type { OperationDefinition } from '../contracts/catalog.ts';

/** Which mentions a message may ping: Discord's `allowed_mentions` object. */
export interface AllowedMentions {
  /** The kinds of mention parsed from the content: `'users'`, `'roles'`, `'everyone'` (@everyone and @here). */
  readonly parse?: readonly ('users' | 'roles' | 'everyone')[];
  /** Users that may be pinged (at most 100); not with `parse: ['users']`. */
  readonly users?: readonly string[];
  /** Roles that may be pinged (at most 100); not with `parse: ['roles']`. */
  readonly roles?: readonly string[];
  /** Whether a reply pings the author of the message it replies to. */
  readonly replied_user?: boolean;
}

/** At most this many users or roles in `allowed_mentions` (Discord's bound). */
const MAX_MENTIONED = 100;
const mentionedIds = (name: 'users' | 'roles') =>
  z
    .array(z.string().regex(/^\d{1,20}$/, `allowedMentions.${name} must be a list of ids (decimal strings)`), {
      error: `allowedMentions.${name} must be a list of ids (decimal strings)`,
    })
    .max(MAX_MENTIONED, `allowedMentions.${name} may name at most ${MAX_MENTIONED}`)
    .readonly()
    .optional();

/** Discord's `allowed_mentions`, checked before any call: Discord refuses a kind both parsed and listed. */
export const allowedMentionsSchema = z
  .strictObject(
    {
      parse: z
        .array(z.enum(['users', 'roles', 'everyone']), {
          error: "allowedMentions.parse must be a list of 'users', 'roles' and 'everyone'",
        })
        .readonly()
        .optional(),
      users: mentionedIds('users'),
      roles: mentionedIds('roles'),
      replied_user: z.boolean({ error: 'allowedMentions.replied_user must be a boolean' }).optional(),
    },
    { error: 'allowedMentions must be an object of parse, users, roles and replied_user' },
  )
  .refine(
    (mentions) => !(mentions.parse?.includes('users') && mentions.users),
    "allowedMentions: parse 'users' and a list of users exclude each other",
  )
  .refine(
    (mentions) => !(mentions.parse?.includes('roles') && mentions.roles),
    "allowedMentions: parse 'roles' and a list of roles exclude each other",
  );

/**
 * Interaction responses whose `data` is a message (CHANNEL_MESSAGE_WITH_SOURCE 4, UPDATE_MESSAGE
 * 7): a modal's or an autocomplete's `data` is not, and takes no `allowed_mentions`.
 */
const MESSAGE_RESPONSE_TYPES: ReadonlySet<unknown> = new Set([4, 7]);

const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * `body` with `defaults` as its `allowed_mentions` where the operation takes one and the body
 * names none (a body's own, `null` included, wins). Anything else, a FormData body among it, is
 * returned as it is; the caller's object is never changed.
 */
export function withDefaultMentions(
  operation: Pick<OperationDefinition, 'allowedMentionsIn'>,
  body: unknown,
  defaults: AllowedMentions | undefined,
): unknown {
  const holderName = operation.allowedMentionsIn;
  if (defaults === undefined || holderName === undefined || !isPlainObject(body)) return body;
  if (holderName === 'body')
    return body.allowed_mentions === undefined ? { ...body, allowed_mentions: defaults } : body;
  const holder = body[holderName];
  if (!isPlainObject(holder) || holder.allowed_mentions !== undefined) return body;
  if (holderName === 'data' && !MESSAGE_RESPONSE_TYPES.has(body.type)) return body;
  return { ...body, [holderName]: { ...holder, allowed_mentions: defaults } };
}
