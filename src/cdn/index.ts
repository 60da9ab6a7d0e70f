/**
 * The CDN URL helpers' options and checks: `cdn` on the service's CDN, `createCdn({ baseUrl })`
 * on another (a mock CDN, a proxy). The helpers themselves are generated from the catalog
 * (`generated/cdn.ts`) and composed with these in `src/index.ts`; they build URLs and send
 * nothing, so they need no client, token or limiter.
 */
import { z } from 'zod';
import { TollgateArgumentError } from '../errors.ts';
import { checkedOptions } from '../option-shapes.ts';
import { snowflakeText } from '../paths/path.ts';
import type { Snowflake } from '../contracts/catalog.ts';
import { CDN_BASE_URL, MEDIA_BASE_URL, type CdnBases, type DefaultAvatarIndex } from './url.ts';

export { CDN_BASE_URL, CDN_SIZES, MEDIA_BASE_URL } from './url.ts';
export type {
  CdnAnimatedImageOptions,
  CdnEndpoint,
  CdnFormatOptions,
  CdnImageOptions,
  CdnImageSize,
  DefaultAvatarIndex,
} from './url.ts';

/** Where `createCdn` and a client's `cdn` build their URLs. */
export interface CdnOptions {
  /** The CDN's base URL, e.g. `http://127.0.0.1:8081/cdn` for a mock. Default: `https://cdn.discordapp.com`. */
  readonly baseUrl?: string;
  /**
   * Where sticker GIFs are served. Default: `baseUrl` when one is given (a mock CDN serves
   * everything), else the service's media proxy, `https://media.discordapp.net`.
   */
  readonly mediaBaseUrl?: string;
}

/** An absolute http(s) URL without query, fragment or credentials; its trailing slashes dropped. */
const baseUrl = (what: string) =>
  z
    .string({ error: `${what} must be an absolute http(s) URL` })
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
      message: `${what} must be an absolute http(s) URL`,
      abort: true,
    })
    .refine((value) => {
      const url = new URL(value);
      return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    }, `${what} must not have a query, a fragment or credentials`)
    .transform((value) => {
      const url = new URL(value);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    });

/**
 * `createCdn`'s options, checked (`createClient` can check its `cdn` option with it):
 * unknown keys and malformed URLs are refused.
 */
export const cdnOptionsSchema = z.strictObject(
  { baseUrl: baseUrl('baseUrl').optional(), mediaBaseUrl: baseUrl('mediaBaseUrl').optional() },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown option(s) ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; the options are baseUrl, mediaBaseUrl`
        : 'options must be an object { baseUrl?, mediaBaseUrl? }',
  },
);

/** `createCdn`'s options, checked, as the base URLs the generated helpers build on. */
export function cdnBasesOf(options: CdnOptions = {}): CdnBases {
  const { baseUrl: cdnBase, mediaBaseUrl } = checkedOptions(cdnOptionsSchema, options, 'createCdn');
  return { cdn: cdnBase ?? CDN_BASE_URL, media: mediaBaseUrl ?? cdnBase ?? MEDIA_BASE_URL };
}

/**
 * A user's default avatar index, for `cdn.defaultUserAvatar`: `(user_id >> 22) % 6`, or
 * `discriminator % 5` for a user not yet migrated to unique usernames (a discriminator other than "0").
 */
export function defaultAvatarIndex(userId: Snowflake, discriminator?: string): DefaultAvatarIndex {
  if (discriminator !== undefined && discriminator !== '0') {
    if (typeof discriminator !== 'string' || !/^[0-9]{1,4}$/.test(discriminator)) {
      throw new TollgateArgumentError(
        `defaultAvatarIndex: discriminator must be 1 to 4 digits, got ${typeof discriminator === 'string' ? JSON.stringify(discriminator.slice(0, 10)) : typeof discriminator}`,
      );
    }
    return (Number(discriminator) % 5) as DefaultAvatarIndex;
  }
  return Number((BigInt(snowflakeText(userId, 'defaultAvatarIndex: userId')) >> 22n) % 6n) as DefaultAvatarIndex;
}
