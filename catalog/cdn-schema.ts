/**
 * The schema of the catalog's CDN section: the image endpoints of the service's CDN
 * (reference#image-formatting), from which the generator writes the URL helpers (`cdn.userAvatar`).
 *
 * Shape rules live in the zod objects, rules that span entries in `checkCdnCatalog`; every
 * message names the endpoint it is about (`cdn endpoint "userAvatar" (cdn.endpoints[7])`).
 */
import { z } from 'zod';

/**
 * How a CDN path parameter is checked and encoded:
 * - `snowflake`: an unsigned 64-bit id, decimal string or bigint (as an API path id);
 * - `hash`: an asset hash or asset id, text without slashes (`a_…` for an animated image), percent-encoded;
 * - `index`: a default avatar's index, a whole number from 0 to 5.
 */
export const CDN_PARAMETER_KINDS = ['snowflake', 'hash', 'index'] as const;
export type CdnParameterKind = (typeof CDN_PARAMETER_KINDS)[number];

/** The file extensions the CDN serves (discord-api-types' `ImageFormat`; `json` is a Lottie sticker). */
export const CDN_EXTENSIONS = ['webp', 'png', 'jpeg', 'gif', 'json'] as const;
export type CdnExtension = (typeof CDN_EXTENSIONS)[number];

export const cdnEndpointSchema = z.strictObject({
  /** The helper's name: `cdn.<name>(…)`, as discord-api-types' `CDNRoutes` names the route. */
  name: z.string().regex(/^[a-z][A-Za-z0-9]*$/, 'CDN endpoint names are camelCase identifiers such as "userAvatar"'),
  /** The name the service's documentation gives the image ("User Avatar"). */
  summary: z.string().min(1),
  /** The path without its extension: `/avatars/{user_id}/{avatar_hash}`. */
  path: z.string(),
  /** The extensions served, the default first; empty for a file without one (a soundboard sound). */
  extensions: z.array(z.enum(CDN_EXTENSIONS)),
  /**
   * The image may be animated (the endpoint serves GIF):
   * - `hash`: the path's last parameter is a hash, and `a_…` marks an animated image;
   * - `option`: nothing in the path tells (a custom emoji's id); the caller says `{ animated: true }`.
   */
  animated: z.enum(['hash', 'option']).optional(),
  /** The service ignores `?size=` here (default avatars, stickers, sounds): the helper takes no size. */
  sizeIgnored: z.literal(true).optional(),
  /** Extensions served from the media proxy instead of the CDN (sticker GIFs). */
  mediaProxy: z.array(z.enum(CDN_EXTENSIONS)).nonempty().optional(),
  /** Why the endpoint is deprecated and what to use instead. */
  deprecated: z.string().min(1).optional(),
  /** A line for the helper's documentation. */
  note: z.string().min(1).optional(),
});

export const cdnCatalogSchema = z.strictObject({
  /** Every placeholder a CDN path may use, with how it is checked and encoded. */
  parameters: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.enum(CDN_PARAMETER_KINDS)),
  endpoints: z.array(cdnEndpointSchema).nonempty(),
});

export type CdnCatalog = z.infer<typeof cdnCatalogSchema>;
export type CdnCatalogEndpoint = CdnCatalog['endpoints'][number];

/** Names the CDN entry an issue path (below `cdn`) points into. */
export function describeCdnPath(cdn: unknown, path: readonly PropertyKey[]): string {
  const rest = (parts: readonly PropertyKey[]) =>
    parts.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  if (path[0] === 'endpoints' && typeof path[1] === 'number') {
    const endpoints = (cdn as { endpoints?: unknown[] } | undefined)?.endpoints;
    const name = (endpoints?.[path[1]] as { name?: unknown } | undefined)?.name;
    const index = `cdn.endpoints[${path[1]}]`;
    return `${typeof name === 'string' ? `cdn endpoint "${name}" (${index})` : index}${rest(path.slice(2))}`;
  }
  return `cdn${rest(path)}`;
}

const PLACEHOLDER = /^\{([a-z][a-z0-9_]*)\}$/;
const LITERAL = /^[A-Za-z0-9._-]+$/;

/** The rules that span CDN entries. Returns every problem, each naming its endpoint. */
export function checkCdnCatalog(cdn: CdnCatalog): string[] {
  const problems: string[] = [];
  const names = new Map<string, number>();
  cdn.endpoints.forEach((endpoint, index) => {
    const where = `cdn endpoint "${endpoint.name}" (cdn.endpoints[${index}])`;
    const first = names.get(endpoint.name);
    if (first !== undefined) problems.push(`${where}: duplicate name, first listed at cdn.endpoints[${first}]`);
    else names.set(endpoint.name, index);

    const kinds: CdnParameterKind[] = [];
    if (!endpoint.path.startsWith('/')) problems.push(`${where}: path "${endpoint.path}" must start with "/"`);
    const seen = new Set<string>();
    for (const segment of endpoint.path.split('/').slice(1)) {
      const name = PLACEHOLDER.exec(segment)?.[1];
      if (name === undefined) {
        if (!LITERAL.test(segment))
          problems.push(`${where}: path "${endpoint.path}" has a malformed segment "${segment}"`);
        continue;
      }
      if (seen.has(name)) problems.push(`${where}: path "${endpoint.path}" uses {${name}} twice`);
      seen.add(name);
      const kind = cdn.parameters[name];
      if (kind === undefined) problems.push(`${where}: path "${endpoint.path}" uses unknown parameter {${name}}`);
      else kinds.push(kind);
    }
    if (/\.[a-z]+$/.test(endpoint.path)) {
      problems.push(`${where}: path "${endpoint.path}" must not end in an extension; list it in extensions`);
    }

    const extensions = endpoint.extensions;
    const repeated = extensions.filter((extension, at) => extensions.indexOf(extension) !== at);
    if (repeated.length > 0) problems.push(`${where}: extension(s) listed twice: ${repeated.join(', ')}`);
    for (const extension of endpoint.mediaProxy ?? []) {
      if (!extensions.includes(extension))
        problems.push(`${where}: mediaProxy names "${extension}", not an extension of the endpoint`);
    }
    if (endpoint.animated !== undefined && !(extensions.includes('gif') && extensions.includes('webp'))) {
      problems.push(`${where}: an animated endpoint serves gif and webp (animated WebP)`);
    }
    if (endpoint.animated === 'hash' && kinds.at(-1) !== 'hash') {
      problems.push(`${where}: animated 'hash' needs a hash as the path's last parameter`);
    }
    if (extensions.length === 0 && !endpoint.sizeIgnored) {
      problems.push(`${where}: a file without an extension is not an image: mark it sizeIgnored`);
    }
  });
  return problems;
}
