/**
 * How the sync writes into catalog/routes.ts (scripts/sync/edits.ts), to the byte: each kind of
 * edit in each layout the catalog uses (an entry on one line, one property a line), what it
 * leaves alone (comments, order, hand formatting), and what it refuses. The writer's promise is
 * the layout, so the whole text is compared.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, CatalogSourceError, literal } from '../../scripts/sync/edits.ts';
import type { CatalogEdit } from '../../scripts/sync/diff.ts';
import type { CatalogOperation, CatalogRoute } from '../../catalog/schema.ts';

const SOURCE = `// the catalog
export const catalog = {
  parameters: { guild_id: 'snowflake' },
  routes: [
    {
      key: 'Guilds',
      path: '/guilds/{guild_id}',
      operations: [
        { name: 'guilds.get', method: 'GET', path: '/guilds/{guild_id}', operationId: 'get_guild' },
        {
          name: 'guilds.edit',
          method: 'PATCH',
          path: '/guilds/{guild_id}',
          // written by hand
          summary: 'Edits a guild',
          operationId: 'edit_guild',
        },
      ],
    },
    {
      key: 'Users',
      path: '/users',
      operations: [],
    },
  ],
};
`;

const set = (operationName: string, properties: Record<string, unknown>): CatalogEdit => ({
  kind: 'set',
  operationName,
  properties,
});

/** The source with `from` replaced by `to`, once, where it must be. */
function replaced(from: string, to: string, source = SOURCE): string {
  expect(source.split(from)).toHaveLength(2);
  return source.replace(from, to);
}

describe('an operation on one line', () => {
  it('is written again from its properties: one set in place, one removed, one added at its end', () => {
    expect(applyEdits(SOURCE, [set('guilds.get', { method: 'PUT', path: undefined, query: ['with_counts'] })])).toBe(
      replaced(
        `{ name: 'guilds.get', method: 'GET', path: '/guilds/{guild_id}', operationId: 'get_guild' }`,
        `{ name: 'guilds.get', method: 'PUT', operationId: 'get_guild', query: ['with_counts'] }`,
      ),
    );
  });

  it('stays on its one line however long it grows', () => {
    const summary = 'x'.repeat(200);
    const written = applyEdits(SOURCE, [set('guilds.get', { summary })]);
    expect(written).toContain(`operationId: 'get_guild', summary: '${summary}' },\n`);
  });

  it('is taken out with its own line when removed', () => {
    expect(applyEdits(SOURCE, [{ kind: 'remove-operation', operationName: 'guilds.get' }])).toBe(
      replaced(
        `        { name: 'guilds.get', method: 'GET', path: '/guilds/{guild_id}', operationId: 'get_guild' },\n`,
        '',
      ),
    );
  });
});

describe('an operation written one property a line', () => {
  it('keeps its comments: a value set in place, a property removed with its line, new ones added at its end', () => {
    expect(
      applyEdits(SOURCE, [
        set('guilds.edit', { summary: 'Edits it', operationId: undefined }),
        set('guilds.edit', { deprecated: true, auth: 'bot' }),
      ]),
    ).toBe(
      replaced(
        `          // written by hand
          summary: 'Edits a guild',
          operationId: 'edit_guild',
        },`,
        `          // written by hand
          summary: 'Edits it',
          deprecated: true,
          auth: 'bot',
        },`,
      ),
    );
  });

  it('its last property without a comma gets one before what is added', () => {
    const bare = replaced(
      `          operationId: 'edit_guild',\n        },`,
      `          operationId: 'edit_guild'\n        },`,
    );
    expect(applyEdits(bare, [set('guilds.edit', { auth: 'bot' })])).toBe(
      replaced(
        `          operationId: 'edit_guild',\n        },`,
        `          operationId: 'edit_guild',\n          auth: 'bot',\n        },`,
      ),
    );
  });

  it('removing a property it does not have changes nothing', () => {
    expect(applyEdits(SOURCE, [set('guilds.edit', { removedIn: undefined })])).toBe(SOURCE);
  });
});

describe('what the sync adds', () => {
  const operation: CatalogOperation = {
    name: 'users.list',
    method: 'GET',
    path: '/users',
    operationId: 'list_users',
  } as CatalogOperation;

  it('a parameter joins a one-line object on its line, in the order given', () => {
    expect(
      applyEdits(SOURCE, [
        { kind: 'add-parameter', name: 'user_id', parameterKind: 'snowflake' },
        { kind: 'add-parameter', name: 'token', parameterKind: 'secret' },
      ]),
    ).toBe(
      replaced(
        `parameters: { guild_id: 'snowflake' },`,
        `parameters: { guild_id: 'snowflake', user_id: 'snowflake', token: 'secret' },`,
      ),
    );
  });

  it('a one-line object too long for one line becomes one entry a line', () => {
    const many = Array.from({ length: 8 }, (_, index): CatalogEdit => ({
      kind: 'add-parameter',
      name: `parameter_number_${index}`,
      parameterKind: 'snowflake',
    }));
    expect(applyEdits(SOURCE, many)).toBe(
      replaced(
        `  parameters: { guild_id: 'snowflake' },`,
        [
          '  parameters: {',
          "    guild_id: 'snowflake',",
          ...many.map((_, index) => `    parameter_number_${index}: 'snowflake',`),
          '  },',
        ].join('\n'),
      ),
    );
  });

  it('an operation goes into an empty list on its line, and after the last of a list one a line', () => {
    expect(applyEdits(SOURCE, [{ kind: 'add-operation', routeKey: 'Users', operation }])).toBe(
      replaced(
        `      operations: [],`,
        `      operations: [{ name: 'users.list', method: 'GET', path: '/users', operationId: 'list_users' }],`,
      ),
    );
    expect(
      applyEdits(SOURCE, [
        { kind: 'add-operation', routeKey: 'Guilds', operation: { ...operation, name: 'guilds.x' } },
      ]),
    ).toBe(
      replaced(
        `          operationId: 'edit_guild',
        },
      ],`,
        `          operationId: 'edit_guild',
        },
        { name: 'guilds.x', method: 'GET', path: '/users', operationId: 'list_users' },
      ],`,
      ),
    );
  });

  it("an operation too long for its line is written one property a line, in the catalog's order", () => {
    const long = {
      operationId: 'list_users',
      summary: 'y'.repeat(120),
      path: '/users',
      method: 'GET',
      name: 'users.list',
    } as CatalogOperation;
    expect(applyEdits(SOURCE, [{ kind: 'add-operation', routeKey: 'Guilds', operation: long }])).toContain(
      `        },
        {
          name: 'users.list',
          method: 'GET',
          path: '/users',
          summary: '${'y'.repeat(120)}',
          operationId: 'list_users',
        },
      ],`,
    );
  });

  it("a route after the one named, or at the end, its properties in the catalog's order, one operation a line", () => {
    const route = {
      operations: [operation],
      path: '/users/@me',
      key: 'UsersMe',
      v10Only: true,
    } as unknown as CatalogRoute;
    const text = `    {
      key: 'UsersMe',
      v10Only: true,
      path: '/users/@me',
      operations: [
        { name: 'users.list', method: 'GET', path: '/users', operationId: 'list_users' },
      ],
    },`;
    expect(applyEdits(SOURCE, [{ kind: 'add-route', route, afterKey: 'Guilds' }])).toBe(
      replaced(`      ],\n    },\n    {\n      key: 'Users',`, `      ],\n    },\n${text}\n    {\n      key: 'Users',`),
    );
    expect(applyEdits(SOURCE, [{ kind: 'add-route', route, afterKey: undefined }])).toBe(
      replaced(`      operations: [],\n    },\n  ],`, `      operations: [],\n    },\n${text}\n  ],`),
    );
  });

  it('changes and additions together, each where it goes', () => {
    const written = applyEdits(SOURCE, [
      { kind: 'add-operation', routeKey: 'Guilds', operation: { ...operation, name: 'guilds.y' } },
      set('guilds.get', { deprecated: true }),
      { kind: 'add-parameter', name: 'user_id', parameterKind: 'snowflake' },
    ]);
    expect(written).toContain(`operationId: 'get_guild', deprecated: true }`);
    expect(written).toContain(
      `{ name: 'guilds.y', method: 'GET', path: '/users', operationId: 'list_users' },\n      ],`,
    );
    expect(written).toContain(`parameters: { guild_id: 'snowflake', user_id: 'snowflake' },`);
  });

  it('no edits: the source as it was', () => {
    expect(applyEdits(SOURCE, [])).toBe(SOURCE);
  });
});

describe('what the writer refuses', () => {
  const refused = (source: string, edits: CatalogEdit[], message: string) => {
    expect(() => applyEdits(source, edits)).toThrow(CatalogSourceError);
    expect(() => applyEdits(source, edits)).toThrow(message);
  };

  it('a source without the catalog, or with a list where it is not a literal', () => {
    refused('export const other = {};', [set('a', {})], 'catalog/routes.ts has no `export const catalog = { … }`');
    refused(
      'export const catalog = { parameters: {}, routes: ROUTES };',
      [set('a', {})],
      'catalog/routes.ts: "routes" is not a literal where the sync expects one',
    );
  });

  it('an operation, a route or a route to follow that the catalog lacks', () => {
    refused(SOURCE, [set('guilds.nope', { a: 1 })], 'no operation "guilds.nope" in catalog/routes.ts');
    refused(
      SOURCE,
      [{ kind: 'add-operation', routeKey: 'Nope', operation: {} as CatalogOperation }],
      'no route "Nope" in catalog/routes.ts',
    );
    refused(
      SOURCE,
      [{ kind: 'add-route', route: { key: 'X', operations: [] } as unknown as CatalogRoute, afterKey: 'Nope' }],
      'no route "Nope" to insert after',
    );
  });

  it('a property that is not a plain one, and two edits of the same text', () => {
    const shorthand = replaced(`          operationId: 'edit_guild',`, `          operationId,`);
    refused(shorthand, [set('guilds.edit', { operationId: 'x' })], 'guilds.edit.operationId is not a plain property');
    refused(
      SOURCE,
      [{ kind: 'remove-operation', operationName: 'guilds.edit' }, set('guilds.edit', { summary: 'x' })],
      'two edits of the catalog overlap',
    );
  });
});

describe('a value as the catalog writes it', () => {
  it('single quotes, bare keys where they may be, nothing undefined', () => {
    expect(literal("it's a \\ \n \r")).toBe("'it\\'s a \\\\ \\n \\r'");
    expect(literal('\ud800')).toBe("'\\ud800'");
    expect(literal([1, true, null, 'a'])).toBe("[1, true, null, 'a']");
    expect(literal({ a: 1, 'b-c': { d: [] }, e: undefined })).toBe("{ a: 1, 'b-c': { d: [] } }");
    expect(literal({ e: undefined })).toBe('{}');
    expect(() => literal(() => 1)).toThrow('cannot write function into the catalog');
  });
});
