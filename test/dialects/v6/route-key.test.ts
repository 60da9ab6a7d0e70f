import { describe, expect, it } from 'vitest';
import { catalog } from '../../../catalog/routes.ts';
import { routeKeyOf } from '../../../src/index.ts';
import { buildPath, snowflakeText } from '../../../src/paths/path.ts';

const C = '81384788765712384';
const G = '41771983423143937';
const ID = '334385199974967042';

/**
 * Every path shape of the catalog with its key: the spec's keys (and routes-v6.md's shapes) with
 * the bucket key each must get, and v10's own routes, which the v6 dialect classifies as None.
 */
const SHAPES: [method: string, path: string, bucketKey: string][] = [
  ['GET', `/channels/${C}`, `ChannelsId:${C}`],
  ['GET', `/channels/${C}/invites`, `ChannelsIdInvites:${C}`],
  ['POST', `/channels/${C}/messages`, `ChannelsIdMessages:${C}`],
  ['POST', `/channels/${C}/messages/bulk-delete`, `ChannelsIdMessagesBulkDelete:${C}`],
  ['POST', `/channels/${C}/messages/bulk_delete`, `ChannelsIdMessagesBulkDelete:${C}`],
  ['GET', `/channels/${C}/messages/${ID}`, `ChannelsIdMessagesId:GET:${C}`],
  ['PATCH', `/channels/${C}/messages/${ID}`, `ChannelsIdMessagesId:PATCH:${C}`],
  ['DELETE', `/channels/${C}/messages/${ID}`, `ChannelsIdMessagesId:DELETE:${C}`],
  ['delete', `/channels/${C}/messages/${ID}`, `ChannelsIdMessagesId:DELETE:${C}`],
  ['POST', `/channels/${C}/messages/${ID}/ack`, `ChannelsIdMessagesIdAck:${C}`],
  ['DELETE', `/channels/${C}/messages/${ID}/reactions`, `ChannelsIdMessagesIdReactions:${C}`],
  ['PUT', `/channels/${C}/messages/${ID}/reactions/%F0%9F%94%A5/@me`, `ChannelsIdMessagesIdReactionsUserIdType:${C}`],
  [
    'DELETE',
    `/channels/${C}/messages/${ID}/reactions/name%3A123/${ID}`,
    `ChannelsIdMessagesIdReactionsUserIdType:${C}`,
  ],
  ['GET', `/channels/${C}/messages/${ID}/reactions/%F0%9F%94%A5`, `ChannelsIdMessagesIdReactionsUserIdType:${C}`],
  ['PUT', `/channels/${C}/permissions/${ID}`, `ChannelsIdPermissionsOverwriteId:${C}`],
  ['GET', `/channels/${C}/pins`, `ChannelsIdPins:${C}`],
  ['PUT', `/channels/${C}/pins/${ID}`, `ChannelsIdPinsMessageId:${C}`],
  ['POST', `/channels/${C}/typing`, `ChannelsIdTyping:${C}`],
  ['GET', `/channels/${C}/webhooks`, `ChannelsIdWebhooks:${C}`],
  // v10 routes beyond the seed spec: their own keys under the same rules.
  ['POST', `/channels/${C}/messages/${ID}/crosspost`, `ChannelsIdMessagesIdCrosspost:${C}`],
  ['POST', `/channels/${C}/followers`, `ChannelsIdFollowers:${C}`],
  ['PUT', `/channels/${C}/recipients/${ID}`, `ChannelsIdRecipientsUserId:${C}`],
  ['GET', `/guilds/${G}/preview`, `GuildsIdPreview:${G}`],
  ['GET', `/guilds/${G}/vanity-url`, `GuildsIdVanityUrl:${G}`],
  ['GET', `/guilds/${G}/audit-logs?limit=5`, `GuildsIdAuditLogs:${G}`],
  ['GET', `/guilds/${G}/threads/active`, `GuildsIdThreadsActive:${G}`],
  ['GET', `/guilds/${G}/members/search`, `GuildsIdMembersSearch:${G}`],
  ['GET', `/guilds/${G}/widget`, `GuildsIdWidget:${G}`],
  ['GET', `/guilds/${G}/widget.json`, `GuildsIdWidgetJson:${G}`],
  ['POST', `/guilds/${G}/mfa`, `GuildsIdMfa:${G}`],
  ['POST', `/guilds/${G}/bulk-ban`, `GuildsIdBulkBan:${G}`],
  ['GET', `/guilds/${G}/roles/member-counts`, `GuildsIdRolesMemberCounts:${G}`],
  ['PATCH', `/guilds/${G}/voice-states/${ID}`, `GuildsIdVoiceStatesUserId:${G}`],
  ['GET', `/users/@me/guilds/${G}/member`, 'UsersMeGuildsIdMember'],
  ['POST', `/interactions/${ID}/a-token/callback`, 'InteractionsIdTokenCallback'],
  ['GET', `/channels/${C}/messages/pins`, `ChannelsIdMessagesPins:${C}`],
  ['PUT', `/channels/${C}/messages/pins/${ID}`, `ChannelsIdMessagesPinsMessageId:${C}`],
  ['PUT', `/channels/${C}/voice-status`, `ChannelsIdVoiceStatus:${C}`],
  ['POST', `/guilds/${G}/stickers`, `GuildsIdStickers:${G}`],
  ['PATCH', `/guilds/${G}/stickers/${ID}`, `GuildsIdStickersId:${G}`],
  ['GET', `/guilds/${G}/welcome-screen`, `GuildsIdWelcomeScreen:${G}`],
  ['GET', `/stickers/${ID}`, 'StickersId'],
  ['GET', '/sticker-packs', 'StickerPacks'],
  ['GET', `/sticker-packs/${ID}`, 'StickerPacksId'],
  ['PUT', `/channels/${C}/thread-members/${ID}`, `ChannelsIdThreadMembersUserId:${C}`],
  ['GET', `/channels/${C}/polls/${ID}/answers/1`, `ChannelsIdPollsIdAnswersId:${C}`],
  ['POST', `/channels/${C}/polls/${ID}/expire`, `ChannelsIdPollsIdExpire:${C}`],
  ['POST', `/channels/${C}/send-soundboard-sound`, `ChannelsIdSendSoundboardSound:${C}`],
  ['GET', `/applications/${ID}/emojis`, 'ApplicationsIdEmojis'],
  ['PATCH', `/applications/${ID}/emojis/${ID}`, 'ApplicationsIdEmojisId'],
  ['POST', '/stage-instances', 'StageInstances'],
  ['GET', `/stage-instances/${C}`, `StageInstancesChannelId:${C}`],
  ['GET', '/soundboard-default-sounds', 'SoundboardDefaultSounds'],
  ['GET', `/guilds/${G}/templates`, `GuildsIdTemplates:${G}`],
  ['PUT', `/guilds/${G}/templates/abc`, `GuildsIdTemplatesCode:${G}`],
  ['GET', '/guilds/templates/abc', 'GuildsTemplatesCode'],
  ['POST', `/webhooks/${ID}/a-token/slack`, 'WebhooksIdTokenPlatform'],
  ['PUT', `/guilds/${G}/onboarding`, `GuildsIdOnboarding:${G}`],
  ['PUT', `/guilds/${G}/incident-actions`, `GuildsIdIncidentActions:${G}`],
  ['GET', `/guilds/${G}/member-verification`, `GuildsIdMemberVerification:${G}`],
  ['GET', `/applications/${ID}/skus`, 'ApplicationsIdSkus'],
  ['GET', `/skus/${ID}/subscriptions`, 'SkusIdSubscriptions'],
  ['GET', `/skus/${ID}/subscriptions/${ID}`, 'SkusIdSubscriptionsId'],
  ['POST', `/channels/${C}/messages/${ID}/threads`, `ChannelsIdMessagesIdThreads:${C}`],
  ['GET', `/guilds/${G}/scheduled-events`, `GuildsIdScheduledEvents:${G}`],
  ['PATCH', `/guilds/${G}/scheduled-events/${ID}`, `GuildsIdScheduledEventsId:${G}`],
  ['GET', `/guilds/${G}/scheduled-events/${ID}/users`, `GuildsIdScheduledEventsIdUsers:${G}`],
  ['POST', `/guilds/${G}/auto-moderation/rules`, `GuildsIdAutoModerationRules:${G}`],
  ['DELETE', `/guilds/${G}/auto-moderation/rules/${ID}`, `GuildsIdAutoModerationRulesId:${G}`],
  ['GET', `/channels/${C}/threads/archived/public`, `ChannelsIdThreadsArchived:${C}`],
  ['GET', `/channels/${C}/users/@me/threads/archived/private`, `ChannelsIdUsersMeThreadsArchivedPrivate:${C}`],
  ['POST', `/guilds/${G}/soundboard-sounds`, `GuildsIdSoundboardSounds:${G}`],
  ['DELETE', `/guilds/${G}/soundboard-sounds/${ID}`, `GuildsIdSoundboardSoundsId:${G}`],
  ['PUT', `/users/@me/applications/${ID}/role-connection`, 'UsersMeApplicationsIdRoleConnection'],
  ['PATCH', `/guilds/${G}/members/@me`, `GuildsIdMembersMe:${G}`],
  ['GET', `/channels/${C}/thread-members?with_member=true`, `ChannelsIdThreadMembers:${C}`],
  ['PUT', `/channels/${C}/thread-members/@me`, `ChannelsIdThreadMembersUserId:${C}`],
  ['POST', `/channels/${C}/threads`, `ChannelsIdThreads:${C}`],
  ['GET', `/guilds/${G}/widget.png?style=banner1`, `GuildsIdWidgetPng:${G}`],
  ['PATCH', `/guilds/${G}/voice-states/@me`, `GuildsIdVoiceStatesUserId:${G}`],
  ['PUT', '/invites/0vCdhLbwjZZTWZLD/target-users', 'InvitesCodeTargetUsers'],
  ['GET', '/invites/0vCdhLbwjZZTWZLD/target-users/job-status', 'InvitesCodeTargetUsersJobStatus'],
  ['PATCH', '/applications/@me', 'ApplicationsMe'],
  ['GET', `/applications/${ID}/activity-instances/i-1234`, 'ApplicationsIdActivityInstancesId'],
  ['GET', `/applications/${ID}/application-identities/steam/7656`, 'ApplicationsIdApplicationIdentitiesTypeId'],
  ['PATCH', `/applications/${ID}/users/${ID}/identities/acct-7/profile`, 'ApplicationsIdUsersIdIdentitiesIdProfile'],
  ['GET', `/users/${ID}/application-identities/${ID}`, 'UsersIdApplicationIdentitiesId'],
  ['POST', `/users/${ID}/application-identities/${ID}/steam/7656/delete`, 'UsersIdApplicationIdentitiesIdTypeIdDelete'],
  ['GET', '/oauth2/applications/@me', 'Oauth2ApplicationsMe'],
  ['GET', '/oauth2/@me', 'Oauth2Me'],
  ['GET', '/oauth2/authorize?client_id=1', 'Oauth2Authorize'],
  ['POST', '/oauth2/token', 'Oauth2Token'],
  ['POST', '/oauth2/token/revoke', 'Oauth2TokenRevoke'],
  ['GET', `/applications/${ID}/entitlements`, 'ApplicationsIdEntitlements'],
  ['DELETE', `/applications/${ID}/entitlements/${ID}`, 'ApplicationsIdEntitlementsId'],
  ['POST', `/applications/${ID}/entitlements/${ID}/consume`, 'ApplicationsIdEntitlementsIdConsume'],
  ['PUT', `/applications/${ID}/role-connections/metadata`, 'ApplicationsIdRoleConnectionsMetadata'],
  ['GET', `/applications/${ID}/guilds/${G}/commands/permissions`, `ApplicationsIdGuildsIdCommandsPermissions:${G}`],
  ['PUT', `/applications/${ID}/guilds/${G}/commands/${ID}/permissions`, `ApplicationsIdGuildsIdCommandsIdPermissions:${G}`],
  ['PATCH', `/webhooks/${ID}/a-token/messages/${ID}`, 'WebhooksIdTokenMessagesId'],
  ['GET', `/applications/${ID}/commands`, 'ApplicationsIdCommands'],
  ['DELETE', `/applications/${ID}/commands/${ID}`, 'ApplicationsIdCommandsId'],
  ['PUT', `/applications/${ID}/guilds/${G}/commands`, `ApplicationsIdGuildsIdCommands:${G}`],
  ['PATCH', `/applications/${ID}/guilds/${G}/commands/${ID}`, `ApplicationsIdGuildsIdCommandsId:${G}`],
  ['GET', `/channels/${C}/messages/search?content=hi`, `ChannelsIdMessagesSearch:${C}`],
  ['GET', `/guilds/${G}`, `GuildsId:${G}`],
  ['GET', `/guilds/${G}/bans`, `GuildsIdBans:${G}`],
  ['PUT', `/guilds/${G}/bans/${ID}`, `GuildsIdBansUserId:${G}`],
  ['PATCH', `/guilds/${G}/channels/${C}`, `GuildsIdChannels:${G}`],
  ['GET', `/guilds/${G}/channels`, `GuildsIdChannels:${G}`],
  ['GET', `/guilds/${G}/embed`, `GuildsIdEmbed:${G}`],
  ['GET', `/guilds/${G}/emojis`, `GuildsIdEmojis:${G}`],
  ['GET', `/guilds/${G}/emojis/${ID}`, `GuildsIdEmojisId:${G}`],
  ['GET', `/guilds/${G}/integrations`, `GuildsIdIntegrations:${G}`],
  ['PATCH', `/guilds/${G}/integrations/${ID}`, `GuildsIdIntegrationsId:${G}`],
  ['POST', `/guilds/${G}/integrations/${ID}/sync`, `GuildsIdIntegrationsIdSync:${G}`],
  ['GET', `/guilds/${G}/invites`, `GuildsIdInvites:${G}`],
  ['GET', `/guilds/${G}/members`, `GuildsIdMembers:${G}`],
  ['GET', `/guilds/${G}/members/${ID}`, `GuildsIdMembersId:${G}`],
  ['PUT', `/guilds/${G}/members/${ID}/roles/${ID}`, `GuildsIdMembersIdRolesId:${G}`],
  ['PATCH', `/guilds/${G}/members/@me/nick`, `GuildsIdMembersMeNick:${G}`],
  ['GET', `/guilds/${G}/messages/search`, `GuildsIdMessagesSearch:${G}`],
  ['GET', `/guilds/${G}/prune?days=7`, `GuildsIdPrune:${G}`],
  ['GET', `/guilds/${G}/regions`, `GuildsIdRegions:${G}`],
  ['GET', `/guilds/${G}/roles`, `GuildsIdRoles:${G}`],
  ['PATCH', `/guilds/${G}/roles/${ID}`, `GuildsIdRolesId:${G}`],
  ['GET', `/guilds/${G}/webhooks`, `GuildsIdWebhooks:${G}`],
  ['GET', '/gateway', 'Gateway'],
  ['GET', '/gateway/bot', 'GatewayBot'],
  ['POST', '/guilds', 'Guilds'],
  ['GET', '/invites/0vCdhLbwjZZTWZLD', 'InvitesCode'],
  ['GET', `/users/${ID}`, 'UsersId'],
  ['GET', '/users/@me', 'UsersMe'],
  ['GET', '/users/@me/channels', 'UsersMeChannels'],
  ['GET', '/users/@me/connections', 'UsersMeConnections'],
  ['GET', '/users/@me/guilds', 'UsersMeGuilds'],
  ['DELETE', `/users/@me/guilds/${G}`, 'UsersMeGuildsId'],
  ['GET', '/voice/regions', 'VoiceRegions'],
  ['GET', `/webhooks/${ID}`, 'WebhooksId'],
  ['POST', `/webhooks/${ID}/s3cr3t-t0ken`, 'WebhooksId'],
  // v10 routes drafted from Discord's OpenAPI document (catalog:sync): None under v6.
  ['GET', `/channels/${C}/threads/archived/private`, 'ChannelsIdThreadsArchivedPrivate'],
  ['GET', `/channels/${C}/threads/archived/public`, 'ChannelsIdThreadsArchivedPublic'],
  ['GET', `/channels/${C}/threads/search`, 'ChannelsIdThreadsSearch'],
  ['GET', `/guilds/${G}/new-member-welcome`, 'GuildsIdNewMemberWelcome'],
  ['POST', `/webhooks/${ID}/s3cr3t-t0ken/github`, 'WebhooksIdTokenGithub'],
  ['POST', `/webhooks/${ID}/s3cr3t-t0ken/slack`, 'WebhooksIdTokenSlack'],
  ['GET', `/applications/${ID}`, 'ApplicationsId'],
  ['POST', `/applications/${ID}/attachment`, 'ApplicationsIdAttachment'],
  ['GET', `/users/@me/applications/${ID}/entitlements`, 'UsersMeApplicationsIdEntitlements'],
  ['GET', '/oauth2/keys', 'Oauth2Keys'],
  ['GET', '/oauth2/userinfo', 'Oauth2Userinfo'],
  ['POST', '/lobbies', 'Lobbies'],
  ['GET', `/lobbies/${ID}`, 'LobbiesId'],
  ['PATCH', `/lobbies/${ID}/channel-linking`, 'LobbiesIdChannelLinking'],
  ['DELETE', `/lobbies/${ID}/members/@me`, 'LobbiesIdMembersMe'],
  ['POST', `/lobbies/${ID}/members/@me/invites`, 'LobbiesIdMembersMeInvites'],
  ['POST', `/lobbies/${ID}/members/bulk`, 'LobbiesIdMembersBulk'],
  ['PUT', `/lobbies/${ID}/members/${ID}`, 'LobbiesIdMembersId'],
  ['POST', `/lobbies/${ID}/members/${ID}/invites`, 'LobbiesIdMembersIdInvites'],
  ['GET', `/lobbies/${ID}/messages`, 'LobbiesIdMessages'],
  ['PUT', `/lobbies/${ID}/messages/${ID}/moderation-metadata`, 'LobbiesIdMessagesIdModerationMetadata'],
  ['PUT', `/partner-sdk/dms/${ID}/${ID}/messages/${ID}/moderation-metadata`, 'PartnerSdkDmsIdIdMessagesIdModerationMetadata'],
  ['POST', '/partner-sdk/provisional-accounts/unmerge', 'PartnerSdkProvisionalAccountsUnmerge'],
  ['POST', '/partner-sdk/provisional-accounts/unmerge/bot', 'PartnerSdkProvisionalAccountsUnmergeBot'],
  ['POST', '/partner-sdk/token', 'PartnerSdkToken'],
  ['POST', '/partner-sdk/token/bot', 'PartnerSdkTokenBot'],
];

const V10_ONLY = new Set(catalog.routes.filter((route) => route.v10Only).map((route) => route.key));

describe('routeKeyOf', () => {
  it.each(SHAPES)('%s %s → %s (None when a v10 route)', (method, path, bucketKey) => {
    expect(routeKeyOf(method, path)).toBe(V10_ONLY.has(bucketKey.split(':')[0]!) ? 'None' : bucketKey);
  });

  it('covers every route key of the catalog; the route table holds the spec\'s keys alone', async () => {
    const { routeTable } = await import('../../../generated/index.ts');
    const covered = new Set(SHAPES.map(([, , key]) => key.split(':')[0]));
    expect(catalog.routes.map((route) => route.key).filter((key) => !covered.has(key))).toEqual([]);
    expect(routeTable.map((route) => route.key)).toEqual(
      catalog.routes.filter((route) => !route.v10Only).map((route) => route.key),
    );
  });

  it('routes-v6.md: group DM recipients and the current application are None under v6', () => {
    expect(routeKeyOf('PUT', `/channels/${C}/recipients/${ID}`)).toBe('None');
    expect(routeKeyOf('GET', '/oauth2/applications/@me')).toBe('None');
  });

  it('different major ids are different buckets; other ids are not', () => {
    expect(routeKeyOf('GET', `/channels/${C}/messages/1`)).toBe(routeKeyOf('GET', `/channels/${C}/messages/2`));
    expect(routeKeyOf('GET', `/channels/${C}/messages`)).not.toBe(routeKeyOf('GET', `/channels/${G}/messages`));
    expect(routeKeyOf('GET', '/users/1')).toBe(routeKeyOf('GET', '/users/2'));
  });

  it('accepts the API prefix, a trailing slash, a query and a fragment', () => {
    expect(routeKeyOf('GET', `/api/v6/channels/${C}`)).toBe(`ChannelsId:${C}`);
    expect(routeKeyOf('GET', `/api/channels/${C}/`)).toBe(`ChannelsId:${C}`);
    expect(routeKeyOf('GET', `/v6/gateway#x`)).toBe('Gateway');
    expect(routeKeyOf('GET', 'gateway')).toBe('Gateway');
  });

  it('canonicalises ids, so a leading zero is the same bucket', () => {
    expect(routeKeyOf('GET', `/channels/0${C}`)).toBe(`ChannelsId:${C}`);
  });

  it.each([
    '/oauth2/applications/you',
    `/guilds/${G}/widget.gif`,
    `/guilds/${G}/members/@me/roles`,
    '/channels/not-an-id',
    '/channels/18446744073709551616',
    `/channels/${C}/messages/${ID}/extra/deep`,
    '/',
    '',
    '/gateway/bot/x',
    '/users/@me/settings',
    '/webhooks/abc',
    `/webhooks/${ID}/token/slack/extra`,
    '/invites/',
    '/CHANNELS/1',
  ])('unlisted path %j → None', (path) => {
    expect(routeKeyOf('GET', path)).toBe('None');
  });

  it('odd text never throws; a value that is not a string is a clear argument error', () => {
    expect(() => routeKeyOf('GET', undefined as unknown as string)).toThrow('routeKeyOf: path must be a string');
    expect(() => routeKeyOf(undefined as unknown as string, '/gateway')).toThrow('routeKeyOf: method must be a string');
    expect(routeKeyOf('GET', '/%%%/../..')).toBe('None');
  });
});

describe('path parameters: one encoding boundary', () => {
  const messagePath = [
    'channels',
    { name: 'channel_id', kind: 'snowflake' },
    'messages',
    { name: 'message_id', kind: 'snowflake' },
  ] as const;

  it('ids: decimal strings and bigints, canonical', () => {
    expect(buildPath(messagePath, [C, 5n]).path).toBe(`/channels/${C}/messages/5`);
    expect(snowflakeText('18446744073709551615', 'id')).toBe('18446744073709551615');
    expect(snowflakeText('000', 'id')).toBe('0');
  });

  it.each([
    ['a number', 123],
    ['negative bigint', -1n],
    ['too large', '18446744073709551616'],
    ['too large bigint', 2n ** 64n],
    ['empty', ''],
    ['dot-dot', '..'],
    ['a slash', '1/2'],
    ['a sign', '+1'],
    ['spaces', ' 1'],
    ['hex', '0x10'],
    ['undefined', undefined],
  ])('rejects an id that is %s before any request', (_, value) => {
    expect(() => buildPath(messagePath, [value, '1'])).toThrow(/channelId/);
  });

  it('rejects too few or too many arguments', () => {
    expect(() => buildPath(messagePath, [C])).toThrow(/messageId/);
    expect(() => buildPath(messagePath, [C, '1', '2'])).toThrow(/expected 2 path argument/);
  });

  const invitePath = ['invites', { name: 'code', kind: 'code' }] as const;
  const reactionPath = ['reactions', { name: 'emoji', kind: 'emoji' }, '@me'] as const;
  const tokenPath = ['webhooks', { name: 'webhook_token', kind: 'secret' }] as const;

  it('percent-encodes invite codes and reaction emoji', () => {
    expect(buildPath(invitePath, ['a b?c#d']).path).toBe('/invites/a%20b%3Fc%23d');
    expect(buildPath(reactionPath, ['🔥']).path).toBe('/reactions/%F0%9F%94%A5/@me');
    expect(buildPath(reactionPath, ['custom:41771983429993937']).path).toBe(
      '/reactions/custom%3A41771983429993937/@me',
    );
    expect(buildPath(invitePath, ['%2e%2e']).path).toBe('/invites/%252e%252e');
  });

  it.each(['', '.', '..', 'a/b', 'a\\b', '\ud800'])('rejects the text parameter %j', (value) => {
    expect(() => buildPath(invitePath, [value])).toThrow(/code/);
  });

  it('never echoes a secret parameter in its error', () => {
    expect(() => buildPath(tokenPath, ['s3cret/../x'])).toThrow(
      /webhookToken must not contain a slash: got \(hidden\)/,
    );
  });
});
