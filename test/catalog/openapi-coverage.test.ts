/**
 * Coverage of Discord's OpenAPI document (the pinned build): every operation it has is a method
 * of the client, matched by its exact method and path (placeholders compared as `{}`, a literal
 * only by itself), and follows that operation (`operationId`). Operations the document no longer
 * has are still methods, deprecated with the build they left in.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import { shapeOf } from '../../catalog/schema.ts';
import { operations } from '../../generated/routes.ts';
import { readSpec } from '../../scripts/sync/openapi.ts';

const document = JSON.parse(
  await readFile(new URL('../../catalog/discord-openapi/openapi.json', import.meta.url), 'utf8'),
);
const source = JSON.parse(
  await readFile(new URL('../../catalog/discord-openapi/source.json', import.meta.url), 'utf8'),
) as { build: string };
const spec = readSpec(document);
const pathText = (path: readonly (string | { name: string })[]) =>
  `/${path.map((segment) => (typeof segment === 'string' ? segment : `{${segment.name}}`)).join('/')}`;
const methods = Object.values(operations).map((operation) => ({
  ...operation,
  shape: shapeOf(pathText(operation.path)),
}));
const sources = new Map(catalog.routes.flatMap((route) => route.operations.map((op) => [op.name, op] as const)));

describe(`Discord's OpenAPI document, build ${source.build}`, () => {
  it('holds 231 operations', () => {
    expect(spec.operations).toHaveLength(231);
  });

  it.each(spec.operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s is a method of the client',
    (_, op) => {
      const method = methods.find(
        (candidate) => candidate.method === op.method && candidate.shape === shapeOf(op.path),
      );
      expect(method, `${op.method} ${op.path} (${op.operationId}) has no method`).toBeDefined();
      expect(sources.get(method!.name)?.operationId).toBe(op.operationId);
      expect(sources.get(method!.name)?.removedIn).toBeUndefined();
    },
  );

  it('operations it no longer has stay callable, deprecated with the build they left in', () => {
    const ids = new Set(spec.operations.map((op) => op.operationId));
    const removed = [...sources.values()].filter((op) => op.operationId !== undefined && !ids.has(op.operationId));
    expect(removed.map((op) => [op.name, op.removedIn])).toEqual([
      ['guilds.delete', '212061'],
      ['guilds.mfa.edit', '212061'],
      ['guilds.create', '212061'],
      ['guildTemplates.guilds.create', '212061'],
    ]);
    for (const op of removed) expect(operations[op.name as keyof typeof operations]).toBeDefined();
  });

  it("a removed operation's method is @deprecated, naming the build, so editors strike it through", async () => {
    const guilds = await readFile(new URL('../../generated/guilds.ts', import.meta.url), 'utf8');
    const doc = (method: string) =>
      guilds
        .slice(0, guilds.indexOf(`  ${method}<`))
        .split('/**')
        .at(-1)!;
    expect(doc('create')).toContain(
      "@deprecated The service no longer lets apps create guilds. Not in Discord's OpenAPI document since build 212061; still callable while the service answers.",
    );
    const lobbies = await readFile(new URL('../../generated/lobbies.ts', import.meta.url), 'utf8');
    expect(lobbies).not.toContain('@deprecated');
  });
});
