/**
 * The operations synced from Discord's OpenAPI document, on the limits side and against the
 * reference service: each new route's v10 bucket identity (the top-level resource its path has,
 * or none), who may call it (a bot token, an OAuth2 Bearer token, no token), and every new
 * operation served by `tollgate/testing`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import { classifyV10 } from '../../src/dialects/v10/route.ts';
import { createClient, HttpError, type TollgateClient } from '../../src/index.ts';
import { ReferenceService } from '../../src/testing/index.ts';

const ID = '175928847299117063';
const NOW = Date.UTC(2026, 10, 25);

/** The operations whose route came from the document (pathSource 'openapi'), with their paths. */
const synced = catalog.routes
  .filter((route) => route.pathSource === 'openapi')
  .flatMap((route) => route.operations.map((operation) => ({ route, operation, path: operation.path ?? route.path })));

describe('v10 bucket identity of the new routes (docs/spec/v10-rate-limits.md §4)', () => {
  it.each([
    ['GET', `/lobbies/${ID}`, 'GET /lobbies/:id', ''],
    ['PUT', `/lobbies/${ID}/members/${ID}`, 'PUT /lobbies/:id/members/:id', ''],
    ['DELETE', `/lobbies/${ID}/members/@me`, 'DELETE /lobbies/:id/members/@me', ''],
    ['POST', `/lobbies/${ID}/messages`, 'POST /lobbies/:id/messages', ''],
    ['POST', '/partner-sdk/token', 'POST /partner-sdk/token', ''],
    [
      'PUT',
      `/partner-sdk/dms/${ID}/${ID}/messages/${ID}/moderation-metadata`,
      'PUT /partner-sdk/dms/:id/:id/messages/:id/moderation-metadata',
      '',
    ],
    ['GET', '/oauth2/userinfo', 'GET /oauth2/userinfo', ''],
    ['GET', `/channels/${ID}/threads/search`, 'GET /channels/:id/threads/search', `channels/${ID}`],
    ['GET', `/channels/${ID}/threads/archived/public`, 'GET /channels/:id/threads/archived/public', `channels/${ID}`],
    ['GET', `/guilds/${ID}/new-member-welcome`, 'GET /guilds/:id/new-member-welcome', `guilds/${ID}`],
    ['POST', `/webhooks/${ID}/t0ken/github`, 'POST /webhooks/:id/:token/github', `webhooks/${ID}/token`],
  ])('%s %s → route %s, resource %j', (method, path, route, resource) => {
    expect(classifyV10(method, path, NOW)).toMatchObject({ route, resource });
  });

  it('the catalog gives each new route the top-level resource of its path as major parameter, or none', () => {
    for (const { route } of synced) {
      const resource = classifyV10('GET', route.path.replace(/\{[^}]+\}/g, ID), NOW).resource;
      const expected = resource.startsWith('channels/')
        ? 'channel_id'
        : resource.startsWith('guilds/')
          ? 'guild_id'
          : null;
      expect(route.major, route.key).toBe(expected);
    }
  });

  it('exempt from the global limit exactly where v10 says (webhooks with their token, interaction callbacks)', () => {
    const exempt = synced.filter(
      ({ operation, path }) => classifyV10(operation.method, path.replace(/\{[^}]+\}/g, ID), NOW).exempt,
    );
    expect(exempt.map(({ operation }) => operation.name).sort()).toEqual([
      'webhooks.github.execute',
      'webhooks.slack.execute',
    ]);
  });

  it('sent without Authorization only where the document lets it go without a token', () => {
    for (const operation of catalog.routes.flatMap((route) => route.operations)) {
      if (operation.unauthenticated && operation.operationId) expect(operation.auth?.none, operation.name).toBe(true);
    }
  });
});

describe('against the reference service (v10)', () => {
  let service: ReferenceService;
  const clients: TollgateClient[] = [];
  const sent: { url: string; authorization: string | null }[] = [];
  const client = (token?: string) => {
    const made = createClient({
      baseUrl: service.baseUrl,
      ...(token && { token }),
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push({ url: request.url, authorization: request.headers.get('authorization') });
        return fetch(request);
      },
    });
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    service = await new ReferenceService({ api: 'v10' }).start();
  });
  afterAll(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await service.stop();
  });

  /** Calls an operation by its dotted name with sample arguments. */
  const call = (made: TollgateClient, name: string, parameters: number, body: boolean) => {
    const parts = name.split('.');
    let target: unknown = made;
    for (const part of parts.slice(0, -1)) target = (target as Record<string, unknown>)[part];
    const method = (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[parts.at(-1)!]!;
    const args: unknown[] = Array.from({ length: parameters }, () => ID);
    if (body) args.push({});
    return method.call(target, ...args);
  };

  it.each(synced.map(({ operation, path }) => [operation.name, operation, path] as const))(
    'serves %s',
    async (_, operation, path) => {
      // OAuth2-only operations take a Bearer token; the others a bot token (or none at all).
      const made = client(operation.auth?.bot === false ? 'Bearer user-token' : 'Bot reference');
      const parameters = [...path.matchAll(/\{[^}]+\}/g)].length;
      await call(made, operation.name, parameters, operation.body !== undefined); // rejects on a non-2xx answer
      const last = service.requests.at(-1)!;
      expect(last.method).toBe(operation.method);
      expect(last.status).toBeLessThan(300);
    },
  );

  it("the partner SDK's token endpoint is called without a bot token; its /bot twin needs one", async () => {
    const anonymous = client();
    sent.length = 0;
    await expect(
      anonymous.partnerSdk.token.create({
        client_id: ID,
        client_secret: 's',
        external_auth_type: 'OIDC',
        external_auth_token: 't',
      } as never),
    ).resolves.toBeDefined();
    expect(sent.at(-1)).toEqual({ url: `${service.baseUrl}/partner-sdk/token`, authorization: null });
    await expect(anonymous.partnerSdk.token.bot.create({ external_user_id: 'u' } as never)).rejects.toMatchObject({
      status: 401,
    });

    // A bot client still sends none there: the body carries the app's credentials.
    const bot = client('Bot reference');
    await bot.partnerSdk.token.create({ client_id: ID } as never);
    expect(sent.at(-1)?.authorization).toBeNull();
    await bot.partnerSdk.token.bot.create({ external_user_id: 'u' } as never);
    expect(sent.at(-1)?.authorization).toBe('Bot reference');
  });

  it("OAuth2's userinfo takes a Bearer token; an OAuth2-only operation refuses a bot token", async () => {
    const user = client('Bearer user-token');
    sent.length = 0;
    await expect(user.oauth2.userinfo.get()).resolves.toBeDefined();
    expect(sent.at(-1)?.authorization).toBe('Bearer user-token');
    await expect(user.users.me.applications.entitlements.list(ID)).resolves.toBeDefined();

    const bot = client('Bot reference');
    const refused = await bot.users.me.applications.entitlements.list(ID).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 401 });
    // A Bearer token where only a bot token will do is refused too.
    await expect(user.lobbies.create({})).rejects.toMatchObject({ status: 401 });
  });

  it('a lobby call is counted per route, with no resource: one lobby does not share a bucket with the top-level resource of another family', async () => {
    const bot = client('Bot reference');
    await bot.lobbies.get(ID);
    await bot.lobbies.get('175928847299117064');
    const lobbyGets = service.requests.filter((request) => request.routeKey === 'GET /lobbies/:id');
    expect(new Set(lobbyGets.map((request) => request.bucketKey)).size).toBe(1);
    expect(lobbyGets.at(-1)!.bucketKey.endsWith(' -')).toBe(true);
  });
});
