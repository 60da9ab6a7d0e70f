/**
 * Small OpenAPI documents and a small catalog for the sync's tests: each document is built from
 * a few operations, with the shapes Discord's own uses (SnowflakeType ids, BotToken and OAuth2
 * security, JSON and multipart bodies, 204 answers).
 */
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalog as realCatalog } from '../../catalog/routes.ts';
import { parseCatalog, type Catalog } from '../../catalog/schema.ts';
import type { SyncRunOptions } from '../../scripts/sync/run.ts';

const ID = { $ref: '#/components/schemas/SnowflakeType' };
export const BOT = [{ BotToken: [] }];
export const OPEN = [{}, { BotToken: [] }];

export interface FixtureOperation {
  readonly operationId: string;
  readonly query?: readonly (string | { name: string; required: boolean })[];
  readonly body?: Record<string, unknown>;
  readonly responses?: Record<string, unknown>;
  readonly security?: readonly unknown[];
  readonly summary?: string;
}

export const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
export const ok = (schema: unknown = { type: 'object', properties: { id: ID } }) => ({
  200: { description: 'ok', ...json(schema) },
});
export const noContent = { 204: { description: 'empty' } };

/** A document of the given operations: `{ 'GET /lobbies/{lobby_id}': { operationId: 'get_lobby' } }`. */
export function openApiDocument(
  operations: Readonly<Record<string, FixtureOperation>>,
  { version = '10', openapi = '3.1.0', stringParameters = [] as readonly string[] } = {},
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, operation] of Object.entries(operations)) {
    const [method, path] = key.split(' ') as [string, string];
    const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const item = (paths[path] ??= {
      parameters: placeholders.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: stringParameters.includes(name) ? { type: 'string' } : ID,
      })),
    });
    item[method.toLowerCase()] = {
      operationId: operation.operationId,
      ...(operation.summary && { summary: operation.summary }),
      ...(operation.query && {
        parameters: operation.query.map((parameter) => {
          const { name, required } = typeof parameter === 'string' ? { name: parameter, required: false } : parameter;
          return { name, in: 'query', required, schema: { type: 'integer' } };
        }),
      }),
      ...(operation.body && { requestBody: operation.body }),
      responses: operation.responses ?? ok(),
      security: operation.security ?? BOT,
    };
  }
  return {
    openapi,
    info: { title: 'Fixture', version },
    paths,
    components: {
      schemas: {
        SnowflakeType: { type: 'string', pattern: '^(0|[1-9][0-9]*)$' },
        MessageAttachmentRequest: { type: 'object', properties: { id: ID, filename: { type: 'string' } } },
        MessageCreateRequest: {
          type: 'object',
          properties: {
            content: { type: 'string' },
            attachments: { type: 'array', items: { $ref: '#/components/schemas/MessageAttachmentRequest' } },
          },
        },
      },
      securitySchemes: {
        BotToken: { type: 'apiKey', name: 'Authorization', in: 'header' },
        OAuth2: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: 'x', scopes: { identify: '', openid: '' } } },
        },
      },
    },
  };
}

/** The catalog the sync tests start from, as a person would write it (comments and all). */
export const FIXTURE_CATALOG = `/** A small catalog for the sync's tests. */
import { cdnCatalog } from './cdn.ts';
import type { Catalog } from './schema.ts';

export const catalog: Catalog = {
  parameters: {
    channel_id: 'snowflake',
    guild_id: 'snowflake',
    webhook_id: 'snowflake',
    webhook_token: 'secret',
  },
  routes: [
    // ── Channels ──────────────────────────────────────────────────────────────
    {
      key: 'ChannelsIdMessages',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages',
      pathSource: 'spec',
      operations: [
        // The history, newest first.
        { name: 'channels.messages.list', method: 'GET', summary: 'Get Channel Messages', query: ['limit', 'before'] },
        {
          name: 'channels.messages.create',
          method: 'POST',
          summary: 'Create Message',
          body: 'required',
          encoding: 'json+files',
        },
      ],
    },
    // ── Guilds ────────────────────────────────────────────────────────────────
    {
      key: 'GuildsId',
      major: 'guild_id',
      path: '/guilds/{guild_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.get', method: 'GET', summary: 'Get Guild', operationId: 'get_guild' },
        { name: 'guilds.delete', method: 'DELETE', summary: 'Delete Guild', operationId: 'delete_guild' },
        { name: 'guilds.edit', method: 'PATCH', summary: 'Modify Guild', body: 'optional', operationId: 'update_guild', keep: { body: 'Every field is optional.' } },
      ],
    },
    {
      key: 'GuildsIdEmbed',
      major: 'guild_id',
      path: '/guilds/{guild_id}/embed',
      pathSource: 'spec',
      operations: [{ name: 'guilds.embed.get', types: { from: 'v6', result: 'RESTGetAPIGuildWidgetSettingsResult' }, method: 'GET', summary: 'Get Guild Embed' }],
    },
    {
      key: 'GuildsIdSearch',
      major: 'guild_id',
      path: '/guilds/{guild_id}/search',
      pathSource: 'documented',
      operations: [{ name: 'guilds.messages.search', method: 'GET', summary: 'Search (old path)', userOnly: true }],
    },
    {
      key: 'WebhooksIdToken',
      major: null,
      path: '/webhooks/{webhook_id}/{webhook_token}',
      pathSource: 'spec',
      operations: [
        { name: 'webhooks.getWithToken', method: 'GET', summary: 'Get Webhook with Token', unauthenticated: true, auth: { bot: true, none: true } },
      ],
    },
  ],
  cdn: cdnCatalog,
};
`;

/**
 * What the fixture catalog says, as a document says it: the same methods, paths, queries, bodies,
 * encodings and auth. The catalog differs only in that three of its operations have no
 * operationId yet (channels.messages.list, channels.messages.create, webhooks.getWithToken).
 */
export const FOLLOWED: Record<string, FixtureOperation> = {
  'GET /channels/{channel_id}/messages': { operationId: 'list_messages', query: ['limit', 'before'] },
  'POST /channels/{channel_id}/messages': {
    operationId: 'create_message',
    body: { required: true, ...json({ $ref: '#/components/schemas/MessageCreateRequest' }) },
  },
  'GET /guilds/{guild_id}': { operationId: 'get_guild' },
  'DELETE /guilds/{guild_id}': { operationId: 'delete_guild' },
  'PATCH /guilds/{guild_id}': { operationId: 'update_guild', body: { required: false, ...json({ type: 'object' }) } },
  'GET /webhooks/{webhook_id}/{webhook_token}': { operationId: 'get_webhook_by_token', security: OPEN },
};

/** A folder with the fixture catalog (and the modules it imports) and a folder for the pinned document. */
export async function catalogFolder(
  source: string = FIXTURE_CATALOG,
): Promise<{ dir: string; catalogFile: string; pinnedDir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tollgate-sync-'));
  const root = join(import.meta.dirname, '..', '..');
  for (const file of ['schema.ts', 'cdn.ts', 'cdn-schema.ts'])
    await cp(join(root, 'catalog', file), join(dir, 'catalog', file));
  await writeFile(join(dir, 'catalog', 'routes.ts'), source);
  // The catalog's modules import zod; a link to the project's node_modules resolves it.
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
  const pinnedDir = join(dir, 'catalog', 'discord-openapi');
  await mkdir(pinnedDir);
  return {
    dir,
    catalogFile: join(dir, 'catalog', 'routes.ts'),
    pinnedDir,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Pins a document in a catalog folder as an earlier sync would have: `openapi.json` and `source.json`. */
export async function pinDocument(
  pinnedDir: string,
  operations: Readonly<Record<string, FixtureOperation>>,
  build = '300',
): Promise<void> {
  await writeFile(join(pinnedDir, 'openapi.json'), JSON.stringify(openApiDocument(operations)));
  await writeFile(join(pinnedDir, 'source.json'), `${JSON.stringify({ build })}\n`);
}

/** A sync of a catalog folder as the tests run it: writing, on a fixed day, `overrides` last. */
export const syncOptions = (
  folder: { readonly catalogFile: string; readonly pinnedDir: string },
  overrides: Partial<SyncRunOptions>,
): SyncRunOptions => ({
  catalogFile: folder.catalogFile,
  pinnedDir: folder.pinnedDir,
  check: false,
  prune: false,
  json: false,
  timeoutMs: 2000,
  today: '2026-11-25',
  ...overrides,
});

/**
 * The fixture catalog as data: its source evaluated the way the sync loads it (through a data:
 * URL, without its type-only import and annotation, with the real CDN catalog), validated.
 */
export async function loadFixture(source = FIXTURE_CATALOG): Promise<Catalog> {
  const text = source
    .replace("import { cdnCatalog } from './cdn.ts';", `const cdnCatalog = ${JSON.stringify(realCatalog.cdn)};`)
    .replace("import type { Catalog } from './schema.ts';", '')
    .replace('export const catalog: Catalog =', 'export const catalog =');
  const url = `data:text/javascript;base64,${Buffer.from(text).toString('base64')}`;
  return parseCatalog(((await import(url)) as { catalog: unknown }).catalog);
}
