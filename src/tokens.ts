/**
 * What a token says of itself, whatever the dialect: its kind, and a bot's id. Discord's bot tokens
 * open with the bot's user id in base64 (the part before the first `.`), which is public, so the
 * id is read without asking Discord: the proxy's logs name a bot by it, and a bot's own global
 * limit (`botGlobalLimits`) is found by it. An OAuth2 token (`Bearer …`) carries no bot's id.
 */
import type { TokenKind } from './contracts/catalog.ts';
import { parseSnowflake } from './paths/path.ts';

/** The kind of a token, by its prefix: `Bearer …` is an OAuth2 access token, anything else a bot's. */
export const tokenKindOf = (token: string | undefined): TokenKind | undefined =>
  token === undefined ? undefined : /^bearer\s/i.test(token) ? 'bearer' : 'bot';

/**
 * Whether `text` is a bot's id as Discord writes it: a snowflake in canonical decimal. Every bot
 * was made more than a day after Discord's epoch (2015), so its id has 15 digits or more: a
 * shorter number is a chance decoding of some other token, not an id.
 */
export const isBotId = (text: string): boolean => /^[1-9]\d{14,19}$/.test(text) && parseSnowflake(text) === text;

/** What a token's first part may be: base64 of 15 to 20 digits (letters and digits alone), padded or not. */
const ENCODED_ID = /^[A-Za-z0-9]{20,27}={0,2}$/;

/** The bot id `Bot <token>` opens with; undefined for any other Authorization, or a token whose id cannot be read. */
export function botIdOf(authorization: string | undefined): string | undefined {
  const [scheme = '', credential = ''] = authorization?.trim().split(/\s+/, 2) ?? [];
  if (!/^bot$/i.test(scheme)) return undefined;
  const first = credential.split('.', 1)[0]!;
  if (!ENCODED_ID.test(first)) return undefined;
  let decoded: string;
  try {
    // atob, not Buffer: the dialects run on Workers too. Discord leaves the padding out; atob does without.
    decoded = atob(first);
  } catch {
    return undefined;
  }
  return isBotId(decoded) ? decoded : undefined;
}
