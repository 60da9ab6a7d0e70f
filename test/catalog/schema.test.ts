import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import { CatalogError, parseCatalog, type Catalog } from '../../catalog/schema.ts';

/** The spec's route keys, table by table (rate-limit-spec.md, "Endpoints"). */
const SPEC_KEYS = {
  channel: [
    'ChannelsId',
    'ChannelsIdInvites',
    'ChannelsIdMessages',
    'ChannelsIdMessagesBulkDelete',
    'ChannelsIdMessagesId',
    'ChannelsIdMessagesIdAck',
    'ChannelsIdMessagesIdReactions',
    'ChannelsIdMessagesIdReactionsUserIdType',
    'ChannelsIdPermissionsOverwriteId',
    'ChannelsIdPins',
    'ChannelsIdPinsMessageId',
    'ChannelsIdTyping',
    'ChannelsIdWebhooks',
    'ChannelsIdMessagesSearch',
  ],
  guild: [
    'GuildsId',
    'GuildsIdBans',
    'GuildsIdBansUserId',
    'GuildsIdChannels',
    'GuildsIdEmbed',
    'GuildsIdEmojis',
    'GuildsIdEmojisId',
    'GuildsIdIntegrations',
    'GuildsIdIntegrationsId',
    'GuildsIdIntegrationsIdSync',
    'GuildsIdInvites',
    'GuildsIdMembers',
    'GuildsIdMembersId',
    'GuildsIdMembersIdRolesId',
    'GuildsIdMembersMeNick',
    'GuildsIdMessagesSearch',
    'GuildsIdPrune',
    'GuildsIdRegions',
    'GuildsIdRoles',
    'GuildsIdRolesId',
    'GuildsIdWebhooks',
  ],
  none: [
    'Gateway',
    'GatewayBot',
    'Guilds',
    'InvitesCode',
    'UsersId',
    'UsersMe',
    'UsersMeChannels',
    'UsersMeConnections',
    'UsersMeGuilds',
    'UsersMeGuildsId',
    'VoiceRegions',
    'WebhooksId',
  ],
};

const clone = (): Catalog => structuredClone(catalog);
const problemsOf = (mutate: (draft: Catalog) => void): string[] => {
  const draft = clone();
  mutate(draft);
  try {
    parseCatalog(draft);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return [...(error as CatalogError).problems];
  }
  throw new Error('the catalog was accepted');
};
const route = (draft: Catalog, key: string) => draft.routes.find((entry) => entry.key === key)!;

describe('the catalog', () => {
  it('is valid', () => {
    expect(() => parseCatalog(catalog)).not.toThrow();
  });

  it("lists exactly the spec's route keys, each with the spec's major parameter", () => {
    const seed = catalog.routes.filter((entry) => !entry.v10Only);
    const byMajor = (major: string | null) => seed.filter((entry) => entry.major === major).map((entry) => entry.key);
    expect(byMajor('channel_id')).toEqual(SPEC_KEYS.channel);
    expect(byMajor('guild_id')).toEqual(SPEC_KEYS.guild);
    expect(byMajor(null)).toEqual(SPEC_KEYS.none);
    expect(seed).toHaveLength(47);
  });

  it('only the message-by-id key holds the method in its bucket key', () => {
    expect(catalog.routes.filter((entry) => entry.bucketHoldsMethod).map((entry) => entry.key)).toEqual([
      'ChannelsIdMessagesId',
    ]);
  });

  it('marks the three paths the spec does not show as documented', () => {
    const documented = catalog.routes.filter((entry) => entry.pathSource === 'documented' && !entry.v10Only);
    expect(Object.fromEntries(documented.map((entry) => [entry.key, entry.path]))).toEqual({
      ChannelsIdMessagesSearch: '/channels/{channel_id}/messages/search',
      GuildsIdMessagesSearch: '/guilds/{guild_id}/messages/search',
      UsersMeConnections: '/users/@me/connections',
    });
  });

  it('has the operation names the design fixes', () => {
    const names = new Set(catalog.routes.flatMap((entry) => entry.operations.map((op) => op.name)));
    for (const name of [
      'channels.get',
      'channels.messages.list',
      'channels.messages.create',
      'channels.messages.get',
      'channels.messages.edit',
      'channels.messages.delete',
      'channels.typing.trigger',
      'guilds.get',
      'guilds.members.list',
      'users.get',
      'users.me.get',
      'gateway.get',
      'invites.get',
      'voice.regions.list',
    ]) {
      expect(names, name).toContain(name);
    }
  });
});

describe('catalog validation: every rule rejects a crafted bad catalog, naming the entry', () => {
  it('unknown fields are refused', () => {
    const problems = problemsOf((draft) => Object.assign(route(draft, 'Gateway'), { limit: 5 }));
    expect(problems.join()).toMatch(/route "Gateway" \(routes\[\d+\]\).*limit/);
  });

  it('route keys are unique', () => {
    const problems = problemsOf((draft) => draft.routes.push({ ...route(draft, 'Gateway'), operations: [] }));
    expect(problems.join()).toMatch(/route "Gateway".*duplicate route key, first listed at routes\[\d+\]/);
  });

  it('operation names are unique', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'GatewayBot').operations[0]!.name = 'gateway.get';
    });
    expect(problems.join()).toMatch(
      /route "GatewayBot".*"gateway.get": duplicate operation name, first used by route "Gateway"/,
    );
  });

  it('verbs come from the agreed vocabulary', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').operations[0]!.name = 'gateway.fetch';
    });
    expect(problems.join()).toMatch(/route "Gateway".*verb "fetch" is not in the vocabulary/);
  });

  it('methods come from the HTTP vocabulary', () => {
    const problems = problemsOf((draft) => {
      (route(draft, 'Gateway').operations[0] as { method: string }).method = 'FETCH';
    });
    expect(problems.join()).toMatch(/route "Gateway" \(routes\[\d+\]\)\.operations\[0\]\.method/);
  });

  it('path parameters are well formed', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'UsersId').path = '/users/{User Id}';
    });
    expect(problems.join()).toMatch(/route "UsersId".*malformed segment "\{User Id\}"/);
  });

  it('path parameters are declared', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'UsersId').path = '/users/{member_id}';
      route(draft, 'UsersId').operations[0]!.path = '/users/{member_id}';
    });
    expect(problems.join()).toMatch(/route "UsersId".*unknown parameter \{member_id\}/);
  });

  it('paths start with a slash and use no parameter twice', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'VoiceRegions').path = 'voice/regions';
      route(draft, 'UsersId').aliases = ['/users/{user_id}/{user_id}'];
    });
    expect(problems.join()).toMatch(/route "VoiceRegions".*must start with "\/"/);
    expect(problems.join()).toMatch(/route "UsersId".*uses \{user_id\} twice/);
  });

  it('the major parameter is present in every path of its key', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'GuildsIdChannels').aliases = ['/guild-channels'];
    });
    expect(problems.join()).toMatch(
      /route "GuildsIdChannels".*"\/guild-channels" lacks the major parameter \{guild_id\}/,
    );
  });

  it('a path shape belongs to one key only', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'UsersId').aliases = ['/users/@me'];
    });
    expect(problems.join()).toMatch(
      /route "UsersId".*"\/users\/@me" is already classified under route "UsersMe"|route "UsersMe".*already classified under route "UsersId"/,
    );
  });

  it('a namespace cannot also be a method', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'GatewayBot').operations[0]!.name = 'gateway.get.list';
    });
    expect(problems.join()).toMatch(/operation "gateway.get" is also the namespace of "gateway.get.list"/);
  });

  it('None is implicit and cannot be listed', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').key = 'None';
    });
    expect(problems.join()).toMatch(/"None" is implicit/);
  });

  it('a GET takes no body, an encoding needs a body', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').operations[0]!.body = 'required';
      route(draft, 'GatewayBot').operations[0]!.encoding = 'form-data';
    });
    expect(problems.join()).toMatch(/"gateway.get": a GET request has no body/);
    expect(problems.join()).toMatch(/"gateway.bot.get": encoding needs a body/);
    const misplaced = problemsOf((draft) => {
      route(draft, 'ChannelsIdMessages').operations[1]!.attachmentsIn = 'data';
      route(draft, 'ChannelsIdMessages').operations[1]!.encoding = 'form-data';
    });
    expect(misplaced.join()).toMatch(/"channels.messages.create": attachmentsIn needs encoding 'json\+files'/);
  });

  it('a link is a GET with a query, no body and no binary result', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').operations[0]!.link = true; // no query
      const authorize = route(draft, 'Oauth2Authorize').operations[0]!;
      authorize.binaryResult = true;
    });
    expect(problems.join()).toMatch(/"gateway.get": a link is a GET with documented query parameters/);
    expect(problems.join()).toMatch(/"oauth2.authorization.url": a link is a GET with documented query parameters/);
  });

  it('type names are discord-api-types names, a union of them, or undefined for no content', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').operations[0]!.types = { result: 'APIGateway' };
      route(draft, 'GatewayBot').operations[0]!.types = { result: 'RESTGetAPIGatewayBotResult |' };
    });
    expect(problems.join()).toMatch(/route "Gateway".*types\.result/);
    expect(problems.join()).toMatch(/route "GatewayBot".*types\.result/);
    const draft = clone();
    route(draft, 'Gateway').operations[0]!.types = { result: 'undefined' };
    route(draft, 'GatewayBot').operations[0]!.types = {
      result: 'RESTGetAPIGatewayBotResult | RESTGetAPIGatewayResult',
    };
    expect(() => parseCatalog(draft)).not.toThrow();
  });

  it('a twin (sameAs) takes what is sent from the operation it names, and nothing of the document', () => {
    const parsed = parseCatalog(catalog);
    const followup = route(parsed, 'WebhooksId').operations.find((op) => op.name === 'interactions.followups.create')!;
    const execute = route(parsed, 'WebhooksId').operations.find((op) => op.name === 'webhooks.execute')!;
    for (const fact of ['body', 'encoding', 'query', 'unauthenticated', 'auth', 'allowedMentionsIn'] as const) {
      expect(followup[fact], fact).toEqual(execute[fact]);
    }
    expect(followup.operationId).toBeUndefined();
    expect(followup.path).toBe('/webhooks/{application_id}/{interaction_token}');
    // Parsed once, it parses the same again.
    expect(parseCatalog(parsed)).toEqual(parsed);
  });

  it('a twin names an operation of the same method that is no twin, and sets no fact of its own', () => {
    const problems = problemsOf((draft) => {
      const operations = route(draft, 'WebhooksId').operations;
      const twin = (name: string) => operations.find((op) => op.name === name)!;
      twin('interactions.followups.create').body = 'optional';
      twin('interactions.followups.create').operationId = 'execute_webhook';
      operations.push({
        ...twin('interactions.followups.create'),
        name: 'interactions.followups.nowhere',
        sameAs: 'no.such',
        body: undefined,
        operationId: undefined,
      });
      operations.push({
        ...twin('interactions.followups.create'),
        name: 'interactions.followups.chain',
        sameAs: 'interactions.followups.create',
        body: undefined,
        operationId: undefined,
        path: '/webhooks/{application_id}/{interaction_token}/chain',
      });
    });
    expect(problems.join('\n')).toMatch(/"interactions.followups.create": body, operationId come from its twin/);
    expect(problems.join('\n')).toMatch(/"interactions.followups.nowhere": sameAs names no operation \("no.such"\)/);
    expect(problems.join('\n')).toMatch(
      /"interactions.followups.chain": its twin "interactions.followups.create" is itself the twin of another/,
    );
    const method = problemsOf((draft) => {
      route(draft, 'WebhooksId').operations.find((op) => op.name === 'interactions.followups.create')!.sameAs =
        'webhooks.get';
    });
    expect(method.join('\n')).toMatch(/its twin "webhooks.get" is a GET/);
  });

  it('a required query needs documented query parameters and no body', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').operations[0]!.queryRequired = true;
    });
    expect(problems.join()).toMatch(/"gateway.get": queryRequired needs documented query parameters/);
  });

  it('the method-in-key flag needs a major parameter', () => {
    const problems = problemsOf((draft) => {
      route(draft, 'Gateway').bucketHoldsMethod = true;
    });
    expect(problems.join()).toMatch(/route "Gateway".*bucketHoldsMethod needs a major parameter/);
  });

  it('a catalog that is not an object fails with a clear message', () => {
    expect(() => parseCatalog(null)).toThrow(CatalogError);
    expect(() => parseCatalog({ parameters: {}, routes: [] })).toThrow(/routes/);
  });
});
