/**
 * scripts/sync/draft.ts through diffCatalog: what a drafted entry holds and where it goes, the
 * cases sync.test.ts's "added" ones do not show.
 */
import { describe, expect, it } from 'vitest';
import { diffCatalog } from '../../scripts/sync/diff.ts';
import { readSpec } from '../../scripts/sync/openapi.ts';
import type { CatalogEdit } from '../../scripts/sync/types.ts';
import {
  FIXTURE_CATALOG,
  FOLLOWED,
  type FixtureOperation,
  json,
  loadFixture,
  noContent,
  OPEN,
  openApiDocument,
} from '../support/openapi-fixture.ts';

const diff = async (operations: Record<string, FixtureOperation>, source = FIXTURE_CATALOG) =>
  diffCatalog(await loadFixture(source), readSpec(openApiDocument({ ...FOLLOWED, ...operations })), {
    build: '300',
    prune: false,
  });
const routesAdded = (edits: readonly CatalogEdit[]) =>
  edits.flatMap((edit) => (edit.kind === 'add-route' ? [edit] : []));

describe('a drafted entry', () => {
  it("a new route goes after the catalog's last route of its family, or at the end for a new family", async () => {
    const result = await diff({
      'GET /guilds/{guild_id}/roles': { operationId: 'list_guild_roles', responses: { 200: json({ type: 'array' }) } },
      'GET /lobbies/{lobby_id}': { operationId: 'get_lobby' },
      'GET /guilds/{guild_id}/roles/{role_id}': { operationId: 'get_guild_role' },
    });
    expect(
      routesAdded(result.edits).map(({ route, afterKey }) => ({ key: route.key, afterKey, major: route.major })),
    ).toEqual([
      { key: 'GuildsIdRoles', afterKey: 'GuildsIdSearch', major: 'guild_id' },
      { key: 'LobbiesId', afterKey: undefined, major: null },
      // After the catalog's last of the family too: the edits place them in document order.
      { key: 'GuildsIdRolesId', afterKey: 'GuildsIdSearch', major: 'guild_id' },
    ]);
    expect(routesAdded(result.edits)[0]!.route).toMatchObject({
      v10Only: true,
      pathSource: 'openapi',
      path: '/guilds/{guild_id}/roles',
    });
  });

  it("a route key already taken by another path's route is numbered", async () => {
    const result = await diff({
      'GET /guilds-id/embed': { operationId: 'odd' },
      'POST /guilds-id/embed': { operationId: 'odd_create' },
    });
    expect(result.added.map(({ name, routeKey, newRoute }) => ({ name, routeKey, newRoute }))).toEqual([
      { name: 'guildsId.embed.get', routeKey: 'GuildsIdEmbed2', newRoute: true },
      { name: 'guildsId.embed.create', routeKey: 'GuildsIdEmbed2', newRoute: false },
    ]);
    // The second operation joins the route drafted for the first: one add-route edit holding both.
    const [route] = routesAdded(result.edits);
    expect(route!.route.operations.map((operation) => operation.name)).toEqual([
      'guildsId.embed.get',
      'guildsId.embed.create',
    ]);
    expect(result.edits.filter((edit) => edit.kind === 'add-operation')).toEqual([]);
  });

  it("beside an existing route, in that route's placeholders: the path written only where it differs", async () => {
    const result = await diff({
      'POST /guilds/{guild_id}/embed': { operationId: 'create_embed', body: { required: true, ...json({}) } },
      'PUT /webhooks/{id}/{token}': { operationId: 'put_webhook' },
    });
    const added = result.edits.flatMap((edit) => (edit.kind === 'add-operation' ? [edit] : []));
    expect(added.map(({ routeKey, operation }) => ({ routeKey, path: operation.path }))).toEqual([
      { routeKey: 'GuildsIdEmbed', path: undefined },
      { routeKey: 'WebhooksIdToken', path: undefined },
    ]);
    expect(result.newParameters).toEqual({});
  });

  it('a token in the path and no token needed: unauthenticated; no token needed otherwise: a note for a person', async () => {
    const result = await diff({
      'POST /webhooks/{webhook_id}/{webhook_token}/slack': {
        operationId: 'execute_slack_compatible_webhook',
        security: OPEN,
      },
      'GET /gateway': { operationId: 'get_gateway', security: OPEN },
    });
    const operation = (name: string) =>
      routesAdded(result.edits).find((edit) => edit.route.operations[0]!.name === name)!.route.operations[0]!;
    expect(operation('webhooks.slack.execute')).toMatchObject({
      unauthenticated: true,
      auth: { bot: true, none: true },
    });
    expect(operation('gateway.get').unauthenticated).toBeUndefined();
    expect(result.added.map(({ name, notes }) => ({ name, notes }))).toEqual([
      { name: 'webhooks.slack.execute', notes: [] },
      {
        name: 'gateway.get',
        notes: ['callable without a token: if the body carries its own credential, mark it unauthenticated'],
      },
    ]);
  });

  it("every fact the document gives, in the catalog's order; 204 as an undefined result; paging proposed with its note", async () => {
    const result = await diff({
      'GET /lobbies/{lobby_id}/messages': {
        operationId: 'list_lobby_messages',
        query: [{ name: 'limit', required: true }, 'after'],
        responses: { 200: json({ type: 'array' }) },
      },
      'POST /lobbies/{lobby_id}/messages': {
        operationId: 'create_lobby_message',
        body: { required: true, ...json({ $ref: '#/components/schemas/MessageCreateRequest' }) },
        responses: noContent,
        security: [{ BotToken: [] }, { OAuth2: ['identify'] }],
        summary: 'Send a lobby message.',
      },
    });
    const [route] = routesAdded(result.edits);
    const [list, create] = route!.route.operations;
    expect(list).toEqual({
      name: 'lobbies.messages.list',
      method: 'GET',
      summary: 'List Lobby Messages',
      query: ['limit', 'after'],
      queryRequired: true,
      operationId: 'list_lobby_messages',
    });
    expect(Object.keys(create!)).toEqual([
      'name',
      'types',
      'method',
      'summary',
      'body',
      'encoding',
      'operationId',
      'auth',
    ]);
    expect(create).toMatchObject({
      types: { result: 'undefined' },
      summary: 'Send a lobby message',
      encoding: 'json+files',
    });
    expect(result.added[0]!.notes).toEqual([]); // limit has no maximum here: nothing to propose
  });

  it('an id the catalog does not list becomes a new parameter, its edit first', async () => {
    const result = await diff({ 'GET /guilds/{guild_id}/members/{user_id}': { operationId: 'get_member' } });
    expect(result.newParameters).toEqual({ user_id: 'snowflake' });
    expect(result.edits[0]).toEqual({ kind: 'add-parameter', name: 'user_id', parameterKind: 'snowflake' });
  });

  it('no free name near a taken top-level one is bad input, naming the operation', async () => {
    await expect(
      diff({
        'POST /guilds/{guild_id}/delete': { operationId: 'delete_x' },
        'DELETE /guilds': { operationId: 'delete_guilds' },
      }),
    ).rejects.toThrow(
      /^DELETE \/guilds: no free name near "guilds.delete" \("guilds.delete" is already an operation\); name it in the catalog by hand$/,
    );
  });
});

describe('a drafted entry, at the edges of each rule', () => {
  it('a route key taken twice is numbered on: 2, then 3', async () => {
    const result = await diff({
      'GET /guilds-id/embed': { operationId: 'a' },
      'GET /guildsId/embed': { operationId: 'b' },
    });
    expect(result.added.map(({ routeKey }) => routeKey)).toEqual(['GuildsIdEmbed2', 'GuildsIdEmbed3']);
  });

  it('two operations of one natural name: the second is proposed another', async () => {
    const result = await diff({
      'GET /lobbies/{lobby_id}/things': { operationId: 'a' },
      'GET /lobbies/{lobby_id}/things/{thing_id}': { operationId: 'b' },
    });
    expect(result.added.map(({ name, collision }) => ({ name, collision }))).toEqual([
      { name: 'lobbies.things.get', collision: undefined },
      {
        name: 'lobbies.things2.get',
        collision: '"lobbies.things.get" is already an operation; proposed "lobbies.things2.get"',
      },
    ]);
  });

  it('unauthenticated only with a token in the path and no token needed', async () => {
    const result = await diff({
      'GET /lobbies/{lobby_id}': { operationId: 'open_lobby', security: OPEN },
      'POST /webhooks/{webhook_id}/{webhook_token}/slack': { operationId: 'execute_slack' },
    });
    const drafted = routesAdded(result.edits).map(({ route }) => route.operations[0]!);
    expect(drafted.map(({ name, unauthenticated }) => ({ name, unauthenticated }))).toEqual([
      { name: 'lobbies.get', unauthenticated: undefined },
      { name: 'webhooks.slack.execute', unauthenticated: undefined },
    ]);
  });

  it("beside a route matched by its alias: the document's path in the route's placeholders, written on the operation; its name's collision reported", async () => {
    const source = FIXTURE_CATALOG.replace(
      "path: '/guilds/{guild_id}/search',",
      "path: '/guilds/{guild_id}/search',\n      aliases: ['/guilds/{guild_id}/messages/search'],",
    );
    const result = await diff({ 'GET /guilds/{id}/messages/search': { operationId: 'search_guild_messages' } }, source);
    expect(result.added).toEqual([
      expect.objectContaining({
        name: 'guilds.messages2.search',
        routeKey: 'GuildsIdSearch',
        newRoute: false,
        collision: '"guilds.messages.search" is already an operation; proposed "guilds.messages2.search"',
      }),
    ]);
    expect(result.edits.filter((edit) => edit.kind === 'add-operation')).toEqual([
      {
        kind: 'add-operation',
        routeKey: 'GuildsIdSearch',
        operation: expect.objectContaining({
          name: 'guilds.messages2.search',
          path: '/guilds/{guild_id}/messages/search',
        }),
      },
    ]);
  });

  it("a message's holder, its allowed_mentions and bytes are facts a draft writes", async () => {
    const result = await diff({
      'POST /lobbies/{lobby_id}/callback': {
        operationId: 'lobby_callback',
        body: {
          ...json({
            properties: {
              data: {
                properties: {
                  attachments: { type: 'array', items: { $ref: '#/components/schemas/MessageAttachmentRequest' } },
                  allowed_mentions: {},
                },
              },
            },
          }),
        },
        responses: { 200: { content: { 'image/png': {} } } },
      },
    });
    const [route] = routesAdded(result.edits);
    expect(route!.route.operations[0]).toMatchObject({
      body: 'optional',
      encoding: 'json+files',
      attachmentsIn: 'data',
      allowedMentionsIn: 'data',
      binaryResult: true,
    });
  });
});
