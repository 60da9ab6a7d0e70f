/**
 * Coverage of the service's v10 API: every path shape of `Routes` in discord-api-types/v10, and
 * every method its documentation lists for that shape, is in the catalog. A discord-api-types
 * update that adds a route or a method fails here until the catalog has it.
 */
import { readFileSync } from 'node:fs';
import { Routes } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';

/** A path with every parameter as `{}`: `{guild_id}`, `{guild.id}`, `${string}` alike. */
const shape = (path: string) => path.replace(/\$?\{[^}]*\}/g, '{}');

const routeShapes = new Set(
  Object.values(Routes).map((route) =>
    (route as (...parameters: string[]) => string)('{}', '{}', '{}', '{}', '{}', '{}').replaceAll('%7B%7D', '{}'),
  ),
);
const catalogShapes = new Set(
  catalog.routes.flatMap((route) =>
    [route.path, ...(route.aliases ?? []), ...route.operations.map((op) => op.path ?? route.path)].map(shape),
  ),
);

/** The endpoints `Routes`' documentation lists: "- GET `/guilds/{guild.id}/widget.png`" (CDN routes aside). */
function documentedEndpoints(): { method: string; segments: string[] }[] {
  const declarations = readFileSync(
    new URL('../../node_modules/discord-api-types/_generated_/rest/v10/interfaces.d.ts', import.meta.url),
    'utf8',
  );
  const api = declarations.slice(0, declarations.indexOf('interface CDNRoutesDeclarations'));
  return [...api.matchAll(/^\s*\* - (GET|POST|PUT|PATCH|DELETE)\s+`([^`]+)`/gm)].map(([, method, path]) => ({
    method: method!,
    segments: shape(path!).split('/'),
  }));
}

/**
 * The catalog operation that sends a documented endpoint: same method, and each segment the
 * same word, or a parameter. A literal the documentation writes out (`@me`, `@original`,
 * `public`, `github`) fits a text parameter, never an id.
 */
function operationFor({ method, segments }: { method: string; segments: string[] }): string | undefined {
  for (const route of catalog.routes) {
    for (const op of route.operations) {
      if (op.method !== method) continue;
      const pattern = (op.path ?? route.path).split('/');
      const fits =
        pattern.length === segments.length &&
        pattern.every((part, index) => {
          const segment = segments[index]!;
          const parameter = /^\{(.+)\}$/.exec(part)?.[1];
          if (parameter === undefined) return part === segment;
          return segment === '{}' || catalog.parameters[parameter] !== 'snowflake';
        });
      if (fits) return op.name;
    }
  }
  return undefined;
}

it('every v10 route shape is in the catalog', () => {
  expect([...routeShapes].filter((path) => !catalogShapes.has(path)).sort()).toEqual([]);
  expect(routeShapes.size).toBeGreaterThanOrEqual(124);
});

it('every method documented for a v10 route is an operation of the catalog', () => {
  const documented = documentedEndpoints();
  expect(documented.length).toBeGreaterThanOrEqual(200);
  const missing = documented.filter((endpoint) => operationFor(endpoint) === undefined);
  expect(missing.map(({ method, segments }) => `${method} ${segments.join('/')}`).sort()).toEqual([]);
});
