/**
 * catalog:sync's pure parts: reading a document, the naming rules, the diff (added, removed,
 * changed, kept, conflicts) and the edits written into the catalog's source.
 */
import { describe, expect, it } from 'vitest';
import { catalog as realCatalog } from '../../catalog/routes.ts';
import { shapeOf } from '../../catalog/schema.ts';
import { draftRouteKey, majorOf, nameOf, proposeName } from '../../scripts/sync/derive.ts';
import { applyEdits } from '../../scripts/sync/edits.ts';
import { readSpec, SpecInputError } from '../../scripts/sync/openapi.ts';
import { isBehind, diffCatalog } from '../../scripts/sync/diff.ts';
import { reportJson, reportText } from '../../scripts/sync/report.ts';
import {
  FIXTURE_CATALOG,
  type FixtureOperation,
  json,
  loadFixture,
  noContent,
  ok,
  OPEN,
  openApiDocument,
} from '../support/openapi-fixture.ts';

const MESSAGES: Record<string, FixtureOperation> = {
  'GET /channels/{channel_id}/messages': {
    operationId: 'list_messages',
    query: ['around', 'before', 'after', 'limit'],
    responses: ok({ type: 'array', items: { type: 'object' } }),
  },
  'POST /channels/{channel_id}/messages': {
    operationId: 'create_message',
    body: { required: true, ...json({ $ref: '#/components/schemas/MessageCreateRequest' }) },
  },
};
const GUILD: Record<string, FixtureOperation> = {
  'GET /guilds/{guild_id}': { operationId: 'get_guild' },
  'PATCH /guilds/{guild_id}': { operationId: 'update_guild', body: { required: true, ...json({ type: 'object' }) } },
};
const WEBHOOK = {
  'GET /webhooks/{webhook_id}/{webhook_token}': { operationId: 'get_webhook_by_token', security: OPEN },
};
const CURRENT = { ...MESSAGES, ...GUILD, ...WEBHOOK, 'DELETE /guilds/{guild_id}': { operationId: 'delete_guild' } };

const diff = async (operations: Record<string, FixtureOperation>, prune = false, source = FIXTURE_CATALOG) =>
  diffCatalog(await loadFixture(source), readSpec(openApiDocument(operations)), { build: '300', prune });

describe('readSpec: what the catalog reads of a document', () => {
  it('reads method, path, query in order, body, encoding, result and auth', () => {
    const [list, create] = readSpec(openApiDocument(MESSAGES)).operations;
    expect(list).toMatchObject({
      operationId: 'list_messages',
      method: 'GET',
      path: '/channels/{channel_id}/messages',
      summary: 'List Messages',
      pathParameters: [{ name: 'channel_id', snowflake: true }],
      query: ['around', 'before', 'after', 'limit'].map((name) => ({ name, required: false })),
      body: 'none',
      arrayResult: true,
      emptyResult: false,
      auth: { bot: true },
    });
    // A message body whose attachments are files' metadata: JSON, or multipart with files.
    expect(create).toMatchObject({ body: 'required', encoding: 'json+files', attachmentsIn: null });
  });

  it.each([
    ['a form alone', { 'multipart/form-data': { schema: { type: 'object' } } }, 'form-data'],
    ['a urlencoded form alone', { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } }, 'urlencoded'],
    [
      'JSON beside a form of files[n]',
      {
        'application/json': { schema: { type: 'object' } },
        'multipart/form-data': {
          schema: { type: 'object', properties: { 'files[0]': { type: 'string', contentEncoding: 'binary' } } },
        },
      },
      'json+files',
    ],
    [
      'JSON beside a form of a named file',
      {
        'application/json': { schema: { type: 'object' } },
        'multipart/form-data': {
          schema: { type: 'object', properties: { target_users_file: { type: 'string', contentEncoding: 'binary' } } },
        },
      },
      'json',
    ],
    [
      'JSON whose attachments are not files (Slack)',
      {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              attachments: { type: 'array', items: { type: 'object', properties: { color: { type: 'string' } } } },
            },
          },
        },
      },
      'json',
    ],
  ])('encoding from the content types: %s → %s', (_, content, encoding) => {
    const [operation] = readSpec(
      openApiDocument({ 'POST /x': { operationId: 'x', body: { required: false, content } } }),
    ).operations;
    expect(operation).toMatchObject({ encoding, body: 'optional' });
  });

  it("reads attachments held by a member (an interaction callback's data) as json+files there", () => {
    const schema = { type: 'object', properties: { data: { $ref: '#/components/schemas/MessageCreateRequest' } } };
    const [operation] = readSpec(
      openApiDocument({ 'POST /x': { operationId: 'x', body: { required: true, ...json(schema) } } }),
    ).operations;
    expect(operation).toMatchObject({ encoding: 'json+files', attachmentsIn: 'data' });
  });

  it.each([
    ['the body itself', { allowed_mentions: { type: 'object' } }, 'body'],
    [
      "an interaction response's data",
      { data: { type: 'object', properties: { allowed_mentions: { type: 'object' } } } },
      'data',
    ],
    [
      "a forum post's message",
      { message: { type: 'object', properties: { allowed_mentions: { type: 'object' } } } },
      'message',
    ],
    ['nowhere', { content: { type: 'string' } }, null],
  ])('reads where a body takes allowed_mentions: %s', (_, properties, allowedMentionsIn) => {
    const schema = { type: 'object', properties };
    const [operation] = readSpec(
      openApiDocument({ 'POST /x': { operationId: 'x', body: { required: true, ...json(schema) } } }),
    ).operations;
    expect(operation!.allowedMentionsIn).toBe(allowedMentionsIn);
  });

  it('reads binary and empty results, and who may call it', () => {
    const operations = readSpec(
      openApiDocument({
        'GET /png': {
          operationId: 'png',
          responses: { 200: { content: { 'image/png': { schema: { type: 'string' } } } } },
        },
        'DELETE /x': { operationId: 'x', responses: noContent },
        'GET /me': { operationId: 'me', security: [{ BotToken: [] }, { OAuth2: ['identify'] }] },
        'GET /any': { operationId: 'any', security: [{ OAuth2: ['identify', 'openid'] }] },
        'GET /open': { operationId: 'open', security: OPEN },
      }),
    ).operations;
    expect(operations.map(({ binaryResult, emptyResult, auth }) => ({ binaryResult, emptyResult, auth }))).toEqual([
      { binaryResult: true, emptyResult: false, auth: { bot: true } },
      { binaryResult: false, emptyResult: true, auth: { bot: true } },
      { binaryResult: false, emptyResult: false, auth: { bot: true, oauth2: ['identify'] } },
      // Every scope the scheme names is "any scope".
      { binaryResult: false, emptyResult: false, auth: { bot: false, oauth2: [] } },
      { binaryResult: false, emptyResult: false, auth: { bot: true, none: true } },
    ]);
  });

  it.each([
    ['a Swagger 2 file', { swagger: '2.0', info: { version: '10' }, paths: {} }, /no "openapi" version field/],
    ['OpenAPI 2', { openapi: '2.0', info: { version: '10' }, paths: {} }, /OpenAPI 2\.0 is not supported/],
    [
      'another API version',
      openApiDocument({}, { version: '9' }),
      /describes API version 9; the catalog follows version 10/,
    ],
    ['no paths', { openapi: '3.1.0', info: { version: '10' } }, /no "paths" object/],
    [
      'an operation without operationId',
      { openapi: '3.0.3', info: { version: '10' }, paths: { '/x': { get: { responses: {} } } } },
      /GET \/x: the operation has no operationId/,
    ],
    [
      'a dangling $ref',
      {
        openapi: '3.0.3',
        info: { version: '10' },
        paths: { '/x': { get: { operationId: 'x', requestBody: { $ref: '#/components/requestBodies/Nope' } } } },
      },
      /points at nothing/,
    ],
    ['a string', 'openapi: 3.1.0', /not an OpenAPI document/],
  ])('refuses %s with one line', (_, input, message) => {
    expect(() => readSpec(input)).toThrow(SpecInputError);
    expect(() => readSpec(input)).toThrow(message);
    try {
      readSpec(input);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('the naming rules (derive.ts)', () => {
  const name = (method: string, path: string, operationId = 'x', arrayResult = false, methodsAtPath: string[] = []) =>
    nameOf({ method: method as 'GET', path, operationId, arrayResult }, methodsAtPath);

  it.each([
    ['GET', '/channels/{channel_id}/messages', 'list_messages', true, [], 'channels.messages.list'],
    ['GET', '/channels/{channel_id}/messages/{message_id}', 'get_message', false, [], 'channels.messages.get'],
    [
      'GET',
      '/channels/{channel_id}/threads/archived/public',
      'list_public_archived_threads',
      false,
      [],
      'channels.threads.archived.public.list',
    ],
    ['GET', '/guilds/{guild_id}/widget.json', 'get_guild_widget', false, [], 'guilds.widgetJson.get'],
    ['POST', '/lobbies', 'create_lobby', false, [], 'lobbies.create'],
    ['PATCH', '/lobbies/{lobby_id}', 'edit_lobby', false, [], 'lobbies.edit'],
    [
      'PUT',
      '/lobbies/{lobby_id}/members/{user_id}',
      'add_lobby_member',
      false,
      ['PUT', 'DELETE'],
      'lobbies.members.add',
    ],
    [
      'DELETE',
      '/lobbies/{lobby_id}/members/{user_id}',
      'delete_lobby_member',
      false,
      ['PUT', 'DELETE'],
      'lobbies.members.remove',
    ],
    [
      'DELETE',
      '/guilds/{guild_id}/emojis/{emoji_id}',
      'delete_guild_emoji',
      false,
      ['GET', 'PATCH', 'DELETE'],
      'guilds.emojis.delete',
    ],
    ['DELETE', '/lobbies/{lobby_id}/members/@me', 'leave_lobby', false, [], 'lobbies.members.me.leave'],
    ['PUT', '/channels/{channel_id}/thread-members/@me', 'join_thread', false, [], 'channels.threadMembers.me.join'],
    [
      'PUT',
      '/applications/{application_id}/commands',
      'bulk_set_application_commands',
      false,
      [],
      'applications.commands.replace',
    ],
    [
      'POST',
      '/channels/{channel_id}/messages/{message_id}/crosspost',
      'crosspost_message',
      false,
      [],
      'channels.messages.crosspost',
    ],
    [
      'POST',
      '/channels/{channel_id}/messages/bulk-delete',
      'bulk_delete_messages',
      false,
      [],
      'channels.messages.bulkDelete',
    ],
    ['GET', '/channels/{channel_id}/threads/search', 'thread_search', false, [], 'channels.threads.search'],
    [
      'POST',
      '/webhooks/{webhook_id}/{webhook_token}/github',
      'execute_github_compatible_webhook',
      false,
      [],
      'webhooks.github.execute',
    ],
    ['POST', '/channels/{channel_id}/typing', 'trigger_typing_indicator', false, [], 'channels.typing.trigger'],
  ])(
    '%s %s (%s, an array: %s, methods there: %j) → %s',
    (method, path, operationId, arrayResult, methods, expected) => {
      expect(name(method, path, operationId, arrayResult, methods)).toBe(expected);
    },
  );

  it('proposes a free name when the natural one is taken: two namespace words joined, else numbered', () => {
    const taken = new Set(['guilds.messages.search', 'channels.threads.archived']);
    expect(proposeName('guilds.messages.search', taken)).toBe('guilds.messages2.search');
    expect(proposeName('channels.threads.archived.public.list', taken)).toBe('channels.threads.archivedPublic.list');
    expect(proposeName('lobbies.get', new Set(['lobbies.get']))).toBeUndefined();
  });

  it('a new route: key from the path (ids as Id, tokens as Token), major from its top-level resource', () => {
    const kinds = { lobby_id: 'snowflake', webhook_id: 'snowflake', webhook_token: 'secret', code: 'code' } as const;
    expect(draftRouteKey('/lobbies/{lobby_id}/members/@me', kinds)).toBe('LobbiesIdMembersMe');
    expect(draftRouteKey('/webhooks/{webhook_id}/{webhook_token}/github', kinds)).toBe('WebhooksIdTokenGithub');
    expect(draftRouteKey('/invites/{code}/target-users', kinds)).toBe('InvitesCodeTargetUsers');
    expect(majorOf('/channels/{channel_id}/threads/search')).toBe('channel_id');
    expect(majorOf('/guilds/{guild_id}/new-member-welcome')).toBe('guild_id');
    expect(majorOf('/applications/{application_id}/guilds/{guild_id}/commands')).toBeNull();
    expect(majorOf('/lobbies/{lobby_id}')).toBeNull();
    expect(shapeOf('/a/{x}/b/{y}')).toBe('/a/{}/b/{}');
  });

  it('names every operation of the catalog that follows the document as the rules would, or says which it does not', async () => {
    // Not a rule to meet (names are stable API): a record of where the maintainers chose otherwise.
    const spec = readSpec(
      (await import('../../catalog/discord-openapi/openapi.json', { with: { type: 'json' } })).default,
    );
    const byId = new Map(spec.operations.map((operation) => [operation.operationId, operation]));
    const methodsAt = Map.groupBy(spec.operations, (operation) => operation.path);
    const operations = realCatalog.routes
      .flatMap((route) => route.operations)
      .filter((op) => byId.has(op.operationId ?? ''));
    const same = operations.filter((op) => {
      const document = byId.get(op.operationId!)!;
      return (
        nameOf(
          document,
          (methodsAt.get(document.path) ?? []).map((o) => o.method),
        ) === op.name
      );
    });
    // Most names follow the rules; the rest are the documentation's own (guilds.bans.create for a PUT).
    expect(same.length / operations.length).toBeGreaterThan(0.75);
  });
});

describe('diffCatalog: the catalog against a document', () => {
  it('a catalog that follows the document: nothing to do', async () => {
    const linked = await diff(CURRENT);
    const again = diffCatalog(
      await loadFixture(applyEdits(FIXTURE_CATALOG, linked.edits)),
      readSpec(openApiDocument(CURRENT)),
      { build: '300', prune: false },
    );
    expect(isBehind(again)).toBe(false);
    expect(again.edits).toEqual([]);
    expect(reportText(again, 'check')).toContain('The catalog follows the document.');
  });

  it('links operations matched by method and path to their operationId', async () => {
    const result = await diff(CURRENT);
    expect(result.linked).toEqual([
      { name: 'channels.messages.list', operationId: 'list_messages' },
      { name: 'channels.messages.create', operationId: 'create_message' },
      { name: 'webhooks.getWithToken', operationId: 'get_webhook_by_token' },
    ]);
  });

  it('added: a drafted entry with its name, route, parameters, query, body, encoding and auth', async () => {
    const result = await diff({
      ...CURRENT,
      'GET /lobbies/{lobby_id}/messages': {
        operationId: 'get_lobby_messages',
        query: [{ name: 'limit', required: false }],
        responses: ok({ type: 'array', items: {} }),
      },
      'PUT /lobbies/{lobby_id}/members/{user_id}': {
        operationId: 'add_lobby_member',
        body: { required: true, ...json({ type: 'object' }) },
      },
      'DELETE /lobbies/{lobby_id}/members/{user_id}': { operationId: 'delete_lobby_member', responses: noContent },
      'POST /webhooks/{webhook_id}/{webhook_token}/github': {
        operationId: 'execute_github_compatible_webhook',
        security: OPEN,
        responses: noContent,
        body: { required: true, ...json({ type: 'object' }) },
      },
      'GET /oauth2/userinfo': {
        operationId: 'get_openid_connect_userinfo',
        security: [{ BotToken: [] }, { OAuth2: ['openid'] }],
      },
    });
    expect(result.added.map(({ name, routeKey, newRoute }) => ({ name, routeKey, newRoute }))).toEqual([
      { name: 'lobbies.messages.list', routeKey: 'LobbiesIdMessages', newRoute: true },
      { name: 'lobbies.members.add', routeKey: 'LobbiesIdMembersId', newRoute: true },
      { name: 'lobbies.members.remove', routeKey: 'LobbiesIdMembersId', newRoute: false },
      { name: 'webhooks.github.execute', routeKey: 'WebhooksIdTokenGithub', newRoute: true },
      { name: 'oauth2.userinfo.get', routeKey: 'Oauth2Userinfo', newRoute: true },
    ]);
    expect(result.newParameters).toEqual({ lobby_id: 'snowflake', user_id: 'snowflake' });
    const written = await loadFixture(applyEdits(FIXTURE_CATALOG, result.edits));
    const route = (key: string) => written.routes.find((r) => r.key === key)!;
    expect(route('LobbiesIdMembersId')).toEqual({
      key: 'LobbiesIdMembersId',
      v10Only: true,
      major: null,
      path: '/lobbies/{lobby_id}/members/{user_id}',
      pathSource: 'openapi',
      operations: [
        {
          name: 'lobbies.members.add',
          method: 'PUT',
          summary: 'Add Lobby Member',
          body: 'required',
          operationId: 'add_lobby_member',
        },
        {
          name: 'lobbies.members.remove',
          types: { result: 'undefined' },
          method: 'DELETE',
          summary: 'Delete Lobby Member',
          operationId: 'delete_lobby_member',
        },
      ],
    });
    expect(route('LobbiesIdMessages').operations[0]).toMatchObject({ query: ['limit'] });
    // A token in the path is the credential: sent without Authorization.
    expect(route('WebhooksIdTokenGithub').operations[0]).toMatchObject({
      unauthenticated: true,
      auth: { bot: true, none: true },
    });
    expect(route('Oauth2Userinfo').operations[0]).toMatchObject({ auth: { bot: true, oauth2: ['openid'] } });
  });

  it('added beside an existing route of the same path shape, in its placeholders', async () => {
    const result = await diff({
      ...CURRENT,
      'POST /guilds/{id}': { operationId: 'clone_guild', body: { required: true, ...json({}) } },
    });
    expect(result.added).toMatchObject([{ name: 'guilds.create', routeKey: 'GuildsId', newRoute: false }]);
    const written = await loadFixture(applyEdits(FIXTURE_CATALOG, result.edits));
    const guilds = written.routes.find((route) => route.key === 'GuildsId')!;
    expect(guilds.operations.at(-1)).toMatchObject({ name: 'guilds.create', method: 'POST' });
    expect(guilds.operations.at(-1)!.path).toBeUndefined(); // the route's own path, {guild_id}
  });

  it('a taken name is reported with the proposal it drafted', async () => {
    const result = await diff({
      ...CURRENT,
      'GET /guilds/{guild_id}/messages/search': { operationId: 'guild_search' },
    });
    expect(result.added).toMatchObject([
      {
        name: 'guilds.messages2.search',
        collision: '"guilds.messages.search" is already an operation; proposed "guilds.messages2.search"',
      },
    ]);
    expect(reportText(result, 'write')).toContain('name collision: "guilds.messages.search" is already an operation');
  });

  it('a path parameter the catalog cannot classify (not an id, not listed) is bad input', async () => {
    const operations = { ...CURRENT, 'GET /quests/{quest_code}': { operationId: 'get_quest' } };
    const spec = readSpec(openApiDocument(operations, { stringParameters: ['quest_code'] }));
    await expect(async () => diffCatalog(await loadFixture(), spec, { build: '300', prune: false })).rejects.toThrow(
      'GET /quests/{quest_code}: the catalog cannot classify path parameter {quest_code} (not an id)',
    );
  });

  it('removed: deprecated with the build, still callable; --prune deletes it; back again: restored', async () => {
    const operations = Object.fromEntries(
      Object.entries(CURRENT).filter(([key]) => key !== 'DELETE /guilds/{guild_id}'),
    );
    const removed = await diff(operations);
    expect(removed.removed).toEqual([
      {
        name: 'guilds.delete',
        operationId: 'delete_guild',
        method: 'DELETE',
        path: '/guilds/{guild_id}',
        action: 'deprecated',
      },
    ]);
    const marked = applyEdits(FIXTURE_CATALOG, removed.edits);
    const op = (await loadFixture(marked)).routes
      .flatMap((route) => route.operations)
      .find((o) => o.name === 'guilds.delete');
    expect(op).toMatchObject({ removedIn: '300', method: 'DELETE' });

    const again = diffCatalog(await loadFixture(marked), readSpec(openApiDocument(operations)), {
      build: '301',
      prune: false,
    });
    expect(again.removed).toMatchObject([{ name: 'guilds.delete', action: 'still removed' }]);
    expect(isBehind(again)).toBe(false);

    const pruned = diffCatalog(await loadFixture(marked), readSpec(openApiDocument(operations)), {
      build: '301',
      prune: true,
    });
    expect(pruned.removed).toMatchObject([{ name: 'guilds.delete', action: 'pruned' }]);
    const names = (await loadFixture(applyEdits(marked, pruned.edits))).routes.flatMap((r) =>
      r.operations.map((o) => o.name),
    );
    expect(names).not.toContain('guilds.delete');
    expect(names).toContain('guilds.embed.get'); // the seed's v6-only operations are never touched

    const restored = diffCatalog(await loadFixture(marked), readSpec(openApiDocument(CURRENT)), {
      build: '302',
      prune: false,
    });
    expect(restored.restored).toEqual([{ name: 'guilds.delete', operationId: 'delete_guild' }]);
    const back = (await loadFixture(applyEdits(marked, restored.edits))).routes
      .flatMap((r) => r.operations)
      .find((o) => o.name === 'guilds.delete');
    expect(back?.removedIn).toBeUndefined();
  });

  it('changed: query parameters added and removed, a body that became required, a new encoding; applied and reported', async () => {
    const result = await diff({
      ...CURRENT,
      'GET /channels/{channel_id}/messages': {
        operationId: 'list_messages',
        query: ['after', 'limit'],
        responses: ok({ type: 'array' }),
      },
      'POST /channels/{channel_id}/messages': {
        operationId: 'create_message',
        body: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } },
      },
      'GET /guilds/{guild_id}': { operationId: 'get_guild', query: [{ name: 'with_counts', required: true }] },
    });
    expect(result.changed).toEqual([
      {
        name: 'channels.messages.list',
        operationId: 'list_messages',
        changes: [{ fact: 'query', from: 'limit, before', to: 'after, limit' }],
      },
      {
        name: 'channels.messages.create',
        operationId: 'create_message',
        changes: [{ fact: 'encoding', from: 'json+files', to: 'form-data' }],
      },
      {
        name: 'guilds.get',
        operationId: 'get_guild',
        changes: [
          { fact: 'query', from: '(none)', to: 'with_counts' },
          { fact: 'queryRequired', from: 'optional', to: 'required' },
        ],
      },
    ]);
    const ops = (await loadFixture(applyEdits(FIXTURE_CATALOG, result.edits))).routes.flatMap(
      (route) => route.operations,
    );
    expect(ops.find((op) => op.name === 'channels.messages.list')).toMatchObject({ query: ['after', 'limit'] });
    expect(ops.find((op) => op.name === 'channels.messages.create')).toMatchObject({ encoding: 'form-data' });
    expect(ops.find((op) => op.name === 'guilds.get')).toMatchObject({ query: ['with_counts'], queryRequired: true });
  });

  it('a fact kept by hand is reported, not changed; a hand fact the document contradicts is a conflict', async () => {
    const result = await diff({
      ...CURRENT,
      'GET /webhooks/{webhook_id}/{webhook_token}': { operationId: 'get_webhook_by_token' }, // now needs a bot token
    });
    expect(result.kept).toEqual([
      {
        name: 'guilds.edit',
        fact: 'body',
        reason: 'Every field is optional.',
        catalog: 'optional',
        document: 'required',
      },
    ]);
    expect(result.changed.map((changed) => changed.name)).not.toContain('guilds.edit');
    expect(result.conflicts).toEqual([
      'webhooks.getWithToken: sent without Authorization (unauthenticated), but GET /webhooks/{webhook_id}/{webhook_token} needs a token',
    ]);
    expect(isBehind(result)).toBe(true);
    expect(reportText(result, 'check')).toContain('A person must settle the conflicts above');
  });

  it('the report as JSON lists the same, with the number of edits', async () => {
    const result = await diff({ ...CURRENT, 'GET /oauth2/keys': { operationId: 'get_public_keys', security: OPEN } });
    const report = JSON.parse(reportJson(result, 'check')) as Record<string, unknown>;
    expect(report).toMatchObject({ mode: 'check', build: '300', documentOperations: 7, edits: result.edits.length });
    expect(report.added).toMatchObject([
      { name: 'oauth2.keys.get', notes: [expect.stringContaining('callable without a token')] },
    ]);
  });
});

describe('pagination facts proposed for a new list', () => {
  const limitTo = (maximum: number) => ({
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', maximum },
  });
  const cursor = (name: string, schema: unknown = { $ref: '#/components/schemas/SnowflakeType' }) => ({
    name,
    in: 'query',
    required: false,
    schema,
  });
  const draftOf = async (parameters: unknown[], result: unknown) => {
    const document = openApiDocument({
      'GET /quests/{quest_id}/players': { operationId: 'list_quest_players', responses: ok(result) },
    });
    const item = (document.paths as Record<string, Record<string, Record<string, unknown>>>)[
      '/quests/{quest_id}/players'
    ]!;
    item.get!.parameters = parameters;
    // A document of one new list: every operation of the fixture is gone from it.
    const result_ = diffCatalog(await loadFixture(), readSpec(document), {
      build: '300',
      prune: false,
      allowRemovals: true,
    });
    const route = (await loadFixture(applyEdits(FIXTURE_CATALOG, result_.edits))).routes.find(
      (r) => r.key === 'QuestsIdPlayers',
    )!;
    return { added: result_.added[0]!, operation: route.operations[0]! };
  };

  it("id cursors on a list: before and after walk oldest-first by default, the largest page from limit's maximum", async () => {
    const { added, operation } = await draftOf([limitTo(200), cursor('before'), cursor('after')], {
      type: 'array',
      items: {},
    });
    expect(operation.paginate).toEqual({
      cursor: 'id',
      parameters: ['before', 'after'],
      order: 'oldest-first',
      pageOrder: 'ascending',
      limit: 200,
      cursorFrom: 'id',
    });
    expect(added.notes).toEqual([
      expect.stringContaining('pagination proposed (id cursors before, after, 200 a page)'),
    ]);
  });

  it('before alone walks newest-first; a wrapper with one list and has_more is read from it', async () => {
    const wrapper = {
      type: 'object',
      properties: { players: { type: 'array', items: {} }, has_more: { type: 'boolean' } },
    };
    const { operation } = await draftOf([cursor('before'), limitTo(50)], wrapper);
    expect(operation.paginate).toEqual({
      cursor: 'id',
      parameters: ['before'],
      order: 'newest-first',
      pageOrder: 'descending',
      limit: 50,
      items: 'players',
      cursorFrom: 'id',
      hasMore: 'has_more',
    });
  });

  it('offsets with their maxima', async () => {
    const wrapper = { type: 'object', properties: { hits: { type: 'array' }, total_results: { type: 'integer' } } };
    const { operation } = await draftOf(
      [limitTo(25), { name: 'offset', in: 'query', schema: { type: 'integer', maximum: 9975 } }],
      wrapper,
    );
    expect(operation.paginate).toMatchObject({
      cursor: 'offset',
      limit: 25,
      maxOffset: 9975,
      items: 'hits',
      total: 'total_results',
    });
  });

  it('left for a person: a timestamp cursor, or a wrapper with several lists', async () => {
    const stamp = await draftOf([cursor('before', { type: 'string', format: 'date-time' }), limitTo(50)], {
      type: 'array',
    });
    expect(stamp.operation.paginate).toBeUndefined();
    expect(stamp.added.notes).toEqual([expect.stringContaining('a list paged by timestamp: add paginate by hand')]);
    const two = await draftOf([cursor('after'), limitTo(50)], {
      type: 'object',
      properties: { a: { type: 'array' }, b: { type: 'array' } },
    });
    expect(two.operation.paginate).toBeUndefined();
    expect(two.added.notes).toEqual([expect.stringContaining('does not single out (a, b)')]);
  });
});

describe('applyEdits: the catalog stays a file a person edits', () => {
  it('keeps comments, order and layout where nothing changed', async () => {
    const result = await diff({ ...CURRENT, 'GET /lobbies/{lobby_id}': { operationId: 'get_lobby' } });
    const written = applyEdits(FIXTURE_CATALOG, result.edits);
    for (const line of [
      '    // ── Channels ──────────────────────────────────────────────────────────────',
      '        // The history, newest first.',
      "      operations: [{ name: 'guilds.embed.get', types: { from: 'v6', result: 'RESTGetAPIGuildWidgetSettingsResult' }, method: 'GET', summary: 'Get Guild Embed' }],",
    ]) {
      expect(written).toContain(line);
    }
    // One-line entries stay on their line; a multi-line one gains a line.
    expect(written).toContain(
      "{ name: 'channels.messages.list', method: 'GET', summary: 'Get Channel Messages', query: ['around', 'before', 'after', 'limit'], operationId: 'list_messages' },",
    );
    expect(written).toContain(
      "          encoding: 'json+files',\n          operationId: 'create_message',\n        },",
    );
    // The new route comes last (its family is new), the new parameter after the others.
    expect(written.indexOf("key: 'LobbiesId'")).toBeGreaterThan(written.indexOf("key: 'WebhooksIdToken'"));
    expect(written).toContain("    webhook_token: 'secret',\n    lobby_id: 'snowflake',\n  },");
  });

  it('writes nothing for no edits', () => {
    expect(applyEdits(FIXTURE_CATALOG, [])).toBe(FIXTURE_CATALOG);
  });
});
