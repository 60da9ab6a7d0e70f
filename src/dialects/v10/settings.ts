/**
 * The v10 dialect's settings: the client options it reads (V8's margin, V13's global limit and
 * its margin, V15's guard) and what a token's view runs on, with the rules' defaults.
 */
import type { Reservation } from '../../contracts/store.ts';
import { botIdOf } from '../../tokens.ts';
import type { V10Options } from './options.ts';
import {
  DEFAULT_GLOBAL_LIMIT,
  DEFAULT_GLOBAL_MARGIN_MS,
  DEFAULT_INVALID_REQUEST_LIMIT,
  DEFAULT_RESET_MARGIN_MS,
} from './rules.ts';

/** What a token's v10 view runs on. */
export interface V10Settings {
  /** V13: requests per second per token. */
  readonly globalLimit: number;
  /** V8: margin after a window's end. */
  readonly resetMarginMs: number;
  /** V13: margin on the 1 s global window (each request counts from its answer, see GlobalPace). */
  readonly globalMarginMs: number;
  /** V15: invalid requests in 10 minutes at which nothing more is sent. */
  readonly invalidRequestLimit: number;
}

/**
 * The settings `token`'s view runs on, from `createClient`'s options and V8/V13/V15's defaults.
 * Its global limit is its bot's own where `botGlobalLimits` names the bot, else the default: so
 * every lane of a token, in any client, relay or replica with the same options, paces it alike.
 */
export const v10Settings = (options: V10Options, token?: string): V10Settings => ({
  globalLimit: globalLimitOf(options, token),
  resetMarginMs: options.resetMargin ?? DEFAULT_RESET_MARGIN_MS,
  globalMarginMs: options.globalMargin ?? DEFAULT_GLOBAL_MARGIN_MS,
  invalidRequestLimit: options.invalidRequestLimit ?? DEFAULT_INVALID_REQUEST_LIMIT,
});

/** V13: the bot's own limit, if the options name its bot; else the default. */
function globalLimitOf(options: V10Options, token: string | undefined): number {
  const fallback = options.globalLimit ?? DEFAULT_GLOBAL_LIMIT;
  // Most clients name no bot: then no token is read.
  if (options.botGlobalLimits === undefined) return fallback;
  const id = botIdOf(token);
  return id !== undefined && Object.hasOwn(options.botGlobalLimits, id) ? options.botGlobalLimits[id]! : fallback;
}

/** A v10 view's reservation: which bucket it counted in, and whether it is a route's first contact. */
export interface V10Reservation extends Reservation {
  /** The bucket (hash and resource, or the local key) it was counted in. */
  readonly bucket?: string;
  /** The first request of a route on a resource, whose hash is not known yet. */
  readonly firstContact?: boolean;
}
