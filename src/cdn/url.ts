/**
 * The building blocks of the generated CDN URL helpers (`generated/cdn.ts`): an endpoint's
 * definition, the options a helper takes, and `cdnUrl`, which checks every argument and option
 * (for JavaScript callers too) before it builds an absolute URL. Nothing is sent.
 *
 * Animation (reference#image-formatting): an image that may be animated is asked for as animated
 * WebP, `.webp?animated=true`, which the service serves whatever format it was uploaded in. A hash
 * starting `a_` marks an animated image where the endpoint says so (`animated: 'hash'`); a custom
 * emoji's id does not tell, so there the caller passes `{ animated: true }`. `{ animated: false }`
 * asks for a still image; an explicit extension is always used as given (`gif`: the GIF; `png`,
 * `jpeg`: a still image; `webp`: animated WebP when the image is animated).
 */
import { TollgateArgumentError } from '../errors.ts';
import { camelCase, segmentText, snowflakeText } from '../paths/path.ts';

/** The service's CDN, where every image endpoint lives. */
export const CDN_BASE_URL = 'https://cdn.discordapp.com';
/** The service's media proxy, which serves sticker GIFs. */
export const MEDIA_BASE_URL = 'https://media.discordapp.net';

/** Sizes the CDN serves: any power of two from 16 to 4096 (`?size=`). */
export const CDN_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;
/** A size the CDN serves (`CDN_SIZES`). */
export type CdnImageSize = (typeof CDN_SIZES)[number];

/** A default avatar's index: `(user_id >> 22) % 6`, or `discriminator % 5` for a legacy username. */
export type DefaultAvatarIndex = 0 | 1 | 2 | 3 | 4 | 5;

/** How a path parameter of the CDN is checked and encoded (catalog/cdn-schema.ts). */
export type CdnParameterKind = 'snowflake' | 'hash' | 'index';
export type CdnSegment = string | { readonly name: string; readonly kind: CdnParameterKind };

/** One CDN endpoint, as the generator writes it from the catalog. */
export interface CdnEndpoint {
  /** The helper's name, `cdn.<name>`. */
  readonly name: string;
  /** The path's segments: literals and parameters, in path order. */
  readonly path: readonly CdnSegment[];
  /** The extensions served, the default first; empty for a file without one. */
  readonly extensions: readonly string[];
  /** Whether the image may be animated, and what tells: the hash's `a_`, or the caller. */
  readonly animated: 'hash' | 'option' | null;
  /** Whether `?size=` means anything here. */
  readonly sized: boolean;
  /** Extensions served from the media proxy instead of the CDN. */
  readonly mediaProxy: readonly string[];
}

/** Where the URLs point: the CDN, and the media proxy (sticker GIFs). No trailing slash. */
export interface CdnBases {
  readonly cdn: string;
  readonly media: string;
}

/** Options of an endpoint whose image size is ignored by the service: the extension alone. */
export interface CdnFormatOptions<Extension extends string> {
  /** The file format; default: the endpoint's first (see its documentation). */
  readonly extension?: Extension;
}

/** Options of a still image. */
export interface CdnImageOptions<Extension extends string> extends CdnFormatOptions<Extension> {
  /** Width and height in pixels, a power of two from 16 to 4096. Default: the image's own size. */
  readonly size?: CdnImageSize;
}

/** Options of an image that may be animated. */
export interface CdnAnimatedImageOptions<Extension extends string> extends CdnImageOptions<Extension> {
  /**
   * `false`: a still image even of an animated hash. `true`: the animated image (`.webp?animated=true`,
   * or `.gif` with `extension: 'gif'`). Default: whether the hash starts with `a_` (a custom
   * emoji: `false`; pass `emoji.animated`).
   */
  readonly animated?: boolean;
}

type AnyOptions = CdnAnimatedImageOptions<string>;

/** Builds the absolute URL of `endpoint` for `args` (path parameters in path order) and `options`. */
export function cdnUrl(bases: CdnBases, endpoint: CdnEndpoint, args: readonly unknown[], options?: AnyOptions): string {
  const label = `cdn.${endpoint.name}`;
  const checked = checkOptions(label, endpoint, options);
  let path = '';
  let hash: string | undefined;
  let index = 0;
  for (const segment of endpoint.path) {
    if (typeof segment === 'string') {
      path += `/${segment}`;
      continue;
    }
    const value = args[index++];
    const name = `${label}: ${camelCase(segment.name)}`;
    if (segment.kind === 'hash') hash = typeof value === 'string' ? value : undefined;
    path += `/${encodeSegment(value, name, segment.kind)}`;
  }
  if (endpoint.extensions.length === 0) return `${bases.cdn}${path}`;

  const animated = checked.animated ?? (endpoint.animated === 'hash' && hash !== undefined && hash.startsWith('a_'));
  const extension = checked.extension ?? (animated ? 'webp' : endpoint.extensions[0]!);
  if (checked.animated === true && extension !== 'webp' && extension !== 'gif') {
    throw new TollgateArgumentError(`${label}: an animated image is served as webp or gif, not ${extension}`);
  }
  if (checked.animated === false && extension === 'gif') {
    throw new TollgateArgumentError(`${label}: animated: false asks for a still image; gif is the animated format`);
  }
  const query = new URLSearchParams();
  if (checked.size !== undefined) query.set('size', String(checked.size));
  if (animated && extension === 'webp') query.set('animated', 'true');
  const base = endpoint.mediaProxy.includes(extension) ? bases.media : bases.cdn;
  const search = query.size > 0 ? `?${query}` : '';
  return `${base}${path}.${extension}${search}`;
}

function encodeSegment(value: unknown, name: string, kind: CdnParameterKind): string {
  if (kind === 'snowflake') return snowflakeText(value, name);
  if (kind === 'hash') return segmentText(value, name, 'code');
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 5) return String(value);
  throw new TollgateArgumentError(
    `${name} must be a default avatar index, a whole number from 0 to 5, got ${show(value)}`,
  );
}

interface CheckedOptions {
  readonly extension: string | undefined;
  readonly size: number | undefined;
  readonly animated: boolean | undefined;
}

/** The options an endpoint takes, checked: known keys, a served extension, an allowed size. */
function checkOptions(label: string, endpoint: CdnEndpoint, options: unknown): CheckedOptions {
  if (options === undefined) return { extension: undefined, size: undefined, animated: undefined };
  const known = [
    ...(endpoint.extensions.length > 0 ? ['extension'] : []),
    ...(endpoint.sized ? ['size'] : []),
    ...(endpoint.animated ? ['animated'] : []),
  ];
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TollgateArgumentError(
      `${label}: options must be an object (${known.join(', ') || 'none taken'}), got ${show(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const allowed = known.length > 0 ? `it takes ${known.join(', ')}` : 'it takes no options';
      const why = key === 'size' && !endpoint.sized ? ' (the service ignores the size of this file)' : '';
      throw new TollgateArgumentError(`${label}: unknown option "${key}"${why}; ${allowed}`);
    }
  }
  const { extension, size, animated } = options as Record<string, unknown>;
  if (extension !== undefined && !(typeof extension === 'string' && endpoint.extensions.includes(extension))) {
    throw new TollgateArgumentError(
      `${label}: extension must be one of ${endpoint.extensions.join(', ')}, got ${show(extension)}`,
    );
  }
  if (size !== undefined && !(CDN_SIZES as readonly unknown[]).includes(size)) {
    throw new TollgateArgumentError(
      `${label}: size must be a power of two from 16 to 4096 (${CDN_SIZES.join(', ')}), got ${show(size)}`,
    );
  }
  if (animated !== undefined && typeof animated !== 'boolean') {
    throw new TollgateArgumentError(`${label}: animated must be true or false, got ${show(animated)}`);
  }
  return { extension, size, animated } as CheckedOptions;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
