/**
 * Coverage of the service's CDN: every route of `CDNRoutes` in discord-api-types/v10 is an
 * endpoint of the catalog's CDN section, under the same name, with the same path shape and the
 * extensions its documentation allows. A discord-api-types update that adds a CDN route, or an
 * extension to one, fails here until the catalog has it.
 */
import { readFileSync } from 'node:fs';
import { CDNRoutes } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';

/** A path with every parameter as `{}`. */
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/** The documented names of `ImageFormat`, as extensions. */
const EXTENSION_OF: Record<string, string> = { PNG: 'png', JPEG: 'jpeg', WebP: 'webp', GIF: 'gif', Lottie: 'json' };

/** `CDNRoutes`' routes, by name: the path shape (extension apart) and the extensions documented for it. */
function cdnRoutes(): Map<string, { path: string; extensions: string[] }> {
  const declarations = readFileSync(
    new URL('../../node_modules/discord-api-types/_generated_/rest/v10/interfaces.d.ts', import.meta.url),
    'utf8',
  );
  const cdnPart = declarations.slice(declarations.indexOf('interface CDNRoutesDeclarations'));
  // "This route supports the extension(s): PNG, JPEG, WebP, GIF", then the member's declaration.
  const documented = new Map<string, string[]>();
  for (const [, list, name] of cdnPart.matchAll(/supports the extensions?: ([A-Za-z, ]+)\n[\s\S]*?\*\/\s+(\w+)[<(]/g)) {
    documented.set(
      name!,
      list!.split(',').map((word) => EXTENSION_OF[word.trim()] ?? `unknown format ${word.trim()}`),
    );
  }
  const routes = new Map<string, { path: string; extensions: string[] }>();
  for (const [name, route] of Object.entries(CDNRoutes)) {
    const full = (route as (...parameters: string[]) => string)('{}', '{}', '{}', '{}', '{}').replaceAll(
      '%7B%7D',
      '{}',
    );
    const path = shape(full.replace(/\.(\{\}|[a-z]+)$/, ''));
    routes.set(name, { path, extensions: [...(documented.get(name) ?? [])].sort() });
  }
  return routes;
}

const routes = cdnRoutes();
const endpoints = new Map(catalog.cdn.endpoints.map((endpoint) => [endpoint.name, endpoint]));

it('CDNRoutes is read whole: every route, and the extensions of every route that has some', () => {
  expect(routes.size).toBeGreaterThanOrEqual(24);
  // The soundboard sound is the one file without an extension.
  expect([...routes].filter(([, route]) => route.extensions.length === 0).map(([name]) => name)).toEqual([
    'soundboardSound',
  ]);
});

it('every CDNRoutes route is a catalog endpoint of the same name and path shape', () => {
  const missing = [...routes.keys()].filter((name) => !endpoints.has(name));
  expect(missing).toEqual([]);
  const shapes = [...routes.keys()].map((name) => [name, shape(endpoints.get(name)?.path ?? '')]);
  expect(Object.fromEntries(shapes)).toEqual(
    Object.fromEntries([...routes].map(([name, route]) => [name, route.path])),
  );
});

it('every catalog endpoint serves exactly the extensions discord-api-types allows for it', () => {
  const catalogExtensions = [...routes.keys()].map((name) => [
    name,
    [...(endpoints.get(name)?.extensions ?? [])].sort(),
  ]);
  expect(Object.fromEntries(catalogExtensions)).toEqual(
    Object.fromEntries([...routes].map(([name, route]) => [name, route.extensions])),
  );
});

it('the catalog lists no CDN endpoint that discord-api-types does not know', () => {
  expect([...endpoints.keys()].filter((name) => !routes.has(name))).toEqual([]);
});

it('the endpoints marked animated are those that serve GIF (the a_ hash, or the emoji the caller names)', () => {
  const gif = [...routes].filter(([name, route]) => route.extensions.includes('gif') && name !== 'sticker');
  const animated = catalog.cdn.endpoints.filter((endpoint) => endpoint.animated !== undefined);
  expect(animated.map((endpoint) => endpoint.name).sort()).toEqual(gif.map(([name]) => name).sort());
  expect(animated.filter((endpoint) => endpoint.animated === 'option').map((endpoint) => endpoint.name)).toEqual([
    'emoji',
  ]);
});
