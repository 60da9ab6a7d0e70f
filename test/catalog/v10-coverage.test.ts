/**
 * Coverage of the service's v10 API: every path shape of `Routes` in discord-api-types/v10 is
 * either in the catalog or listed below as not covered yet (issue 12's remaining work). The
 * list must shrink as the catalog grows: a listed shape that the catalog now has fails, and so
 * does a shape in neither (a new route in a discord-api-types update).
 */
import { Routes } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';

/** Path shapes of v10 the catalog does not cover yet ({} for every parameter). */
const NOT_COVERED_YET = [
  '/applications/@me',
  '/applications/{}/activity-instances/{}',
  '/applications/{}/application-identities/{}/{}',
  '/applications/{}/users/{}/identities/{}/profile',
  '/guilds/{}/widget.png',
  '/invites/{}/target-users',
  '/invites/{}/target-users/job-status',
  '/oauth2/@me',
  '/oauth2/applications/@me',
  '/oauth2/authorize',
  '/oauth2/token',
  '/oauth2/token/revoke',
  '/users/{}/application-identities/{}',
  '/users/{}/application-identities/{}/{}/{}/delete',
];

const shape = (path: string) => path.replace(/\{[a-z_]+\}/g, '{}');
const routeShapes = new Set(
  Object.values(Routes).map((route) =>
    (route as (...parameters: string[]) => string)('{}', '{}', '{}', '{}', '{}', '{}').replaceAll('%7B%7D', '{}'),
  ),
);
const catalogShapes = new Set(
  catalog.routes
    .flatMap((route) => [route.path, ...(route.aliases ?? []), ...route.operations.map((op) => op.path ?? route.path)])
    .map(shape),
);

it('every v10 route shape is in the catalog or listed as not covered yet', () => {
  const missing = [...routeShapes].filter((path) => !catalogShapes.has(path)).sort();
  expect(missing).toEqual([...NOT_COVERED_YET].sort());
});

it('reports the coverage', () => {
  const covered = [...routeShapes].filter((path) => catalogShapes.has(path)).length;
  expect(covered + NOT_COVERED_YET.length).toBe(routeShapes.size);
  expect(covered).toBeGreaterThanOrEqual(110);
});
