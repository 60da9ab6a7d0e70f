/**
 * The route-key catalog: every route key of the rate-limit spec (45, plus the implicit `None` for
 * any path not listed here) and v10 routes beyond them (marked below; the rest of v10 is listed in
 * test/catalog/v10-coverage.test.ts), the path shapes classified under each, its major parameter,
 * and the endpoints behind it with one operation name per method. Data only: `scripts/generate.ts`
 * validates it with `schema.ts` and turns it into `generated/`.
 *
 * Sources: `docs/spec/rate-limit-spec.md` (keys, path shapes, major parameters) and
 * `docs/spec/routes-v6.md` (methods, documented names, query parameters).
 *
 * To add a route: add an entry (or an operation to an entry) and run `npm run generate`.
 */
import type { Catalog } from './schema.ts';

export const catalog: Catalog = {
  parameters: {
    channel_id: 'snowflake',
    guild_id: 'snowflake',
    message_id: 'snowflake',
    overwrite_id: 'snowflake',
    user_id: 'snowflake',
    emoji_id: 'snowflake',
    integration_id: 'snowflake',
    role_id: 'snowflake',
    webhook_id: 'snowflake',
    emoji: 'emoji',
    code: 'code',
    webhook_token: 'secret',
  },
  routes: [
    // ── Channel id as major parameter ────────────────────────────────────────────────────────
    {
      key: 'ChannelsId',
      major: 'channel_id',
      path: '/channels/{channel_id}',
      pathSource: 'spec',
      operations: [
        { name: 'channels.get', types: { result: 'RESTGetAPIChannelResult' }, method: 'GET', summary: 'Get Channel' },
        { name: 'channels.edit', auditLogReason: true, types: { body: 'RESTPatchAPIChannelJSONBody', result: 'RESTPatchAPIChannelResult' }, method: 'PATCH', summary: 'Modify Channel', body: 'required' },
        {
          name: 'channels.replace', auditLogReason: true, types: { body: 'RESTPatchAPIChannelJSONBody', result: 'RESTPatchAPIChannelResult' },
          method: 'PUT',
          summary: 'Modify Channel (PUT form)',
          body: 'required',
          deprecated: 'The service documents PATCH for Modify Channel; use `channels.edit`.',
        },
        { name: 'channels.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIChannelResult' }, method: 'DELETE', summary: 'Delete/Close Channel' },
      ],
    },
    {
      key: 'ChannelsIdInvites',
      major: 'channel_id',
      path: '/channels/{channel_id}/invites',
      pathSource: 'spec',
      operations: [
        { name: 'channels.invites.list', types: { result: 'RESTGetAPIChannelInvitesResult' }, method: 'GET', summary: 'Get Channel Invites' },
        { name: 'channels.invites.create', auditLogReason: true, types: { body: 'RESTPostAPIChannelInviteJSONBody', result: 'RESTPostAPIChannelInviteResult' }, method: 'POST', summary: 'Create Channel Invite', body: 'optional' },
      ],
    },
    {
      key: 'ChannelsIdMessages',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages',
      pathSource: 'spec',
      operations: [
        {
          name: 'channels.messages.list', types: { query: 'RESTGetAPIChannelMessagesQuery', result: 'RESTGetAPIChannelMessagesResult' },
          method: 'GET',
          summary: 'Get Channel Messages',
          query: ['limit', 'around', 'before', 'after'],
        },
        {
          name: 'channels.messages.create', types: { body: 'RESTPostAPIChannelMessageJSONBody', result: 'RESTPostAPIChannelMessageResult' },
          method: 'POST',
          summary: 'Create Message',
          body: 'required',
          multipart: true,
        },
      ],
    },
    {
      key: 'ChannelsIdMessagesBulkDelete',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages/bulk-delete',
      pathSource: 'spec',
      aliases: ['/channels/{channel_id}/messages/bulk_delete'],
      note: 'The service also accepts the older alias `bulk_delete`; both share the bucket.',
      operations: [
        { name: 'channels.messages.bulkDelete', auditLogReason: true, types: { body: 'RESTPostAPIChannelMessagesBulkDeleteJSONBody', result: 'RESTPostAPIChannelMessagesBulkDeleteResult' }, method: 'POST', summary: 'Bulk Delete Messages', body: 'required' },
      ],
    },
    {
      key: 'ChannelsIdMessagesId',
      major: 'channel_id',
      bucketHoldsMethod: true,
      path: '/channels/{channel_id}/messages/{message_id}',
      pathSource: 'spec',
      note: 'The bucket key holds the method: deleting a message has its own, higher limit.',
      operations: [
        { name: 'channels.messages.get', types: { result: 'RESTGetAPIChannelMessageResult' }, method: 'GET', summary: 'Get Channel Message' },
        { name: 'channels.messages.edit', types: { body: 'RESTPatchAPIChannelMessageJSONBody', result: 'RESTPatchAPIChannelMessageResult' }, method: 'PATCH', summary: 'Edit Message', body: 'required', multipart: true },
        { name: 'channels.messages.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIChannelMessageResult' }, method: 'DELETE', summary: 'Delete Message' },
      ],
    },
    {
      key: 'ChannelsIdMessagesIdAck',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages/{message_id}/ack',
      pathSource: 'spec',
      operations: [
        { name: 'channels.messages.ack', method: 'POST', summary: 'Ack Message', userOnly: true },
      ],
    },
    {
      key: 'ChannelsIdMessagesIdReactions',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages/{message_id}/reactions',
      pathSource: 'spec',
      operations: [
        { name: 'channels.messages.reactions.deleteAll', types: { result: 'RESTDeleteAPIChannelAllMessageReactionsResult' }, method: 'DELETE', summary: 'Delete All Reactions' },
      ],
    },
    {
      key: 'ChannelsIdMessagesIdReactionsUserIdType',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me',
      pathSource: 'spec',
      note: 'One key covers four paths, including the list path that has no user segment.',
      operations: [
        { name: 'channels.messages.reactions.create', types: { result: 'RESTPutAPIChannelMessageReactionResult' }, method: 'PUT', summary: 'Create Reaction' },
        { name: 'channels.messages.reactions.deleteOwn', types: { result: 'RESTDeleteAPIChannelMessageOwnReactionResult' }, method: 'DELETE', summary: 'Delete Own Reaction' },
        {
          name: 'channels.messages.reactions.deleteUser', types: { result: 'RESTDeleteAPIChannelMessageUserReactionResult' },
          method: 'DELETE',
          path: '/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}',
          summary: 'Delete User Reaction',
        },
        {
          name: 'channels.messages.reactions.list', types: { query: 'RESTGetAPIChannelMessageReactionUsersQuery', result: 'RESTGetAPIChannelMessageReactionUsersResult' },
          method: 'GET',
          path: '/channels/{channel_id}/messages/{message_id}/reactions/{emoji}',
          summary: 'Get Reactions',
          query: ['limit', 'before', 'after'],
        },
      ],
    },
    {
      key: 'ChannelsIdPermissionsOverwriteId',
      major: 'channel_id',
      path: '/channels/{channel_id}/permissions/{overwrite_id}',
      pathSource: 'spec',
      operations: [
        { name: 'channels.permissions.edit', auditLogReason: true, types: { body: 'RESTPutAPIChannelPermissionJSONBody', result: 'RESTPutAPIChannelPermissionResult' }, method: 'PUT', summary: 'Edit Channel Permissions', body: 'required' },
        { name: 'channels.permissions.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIChannelPermissionResult' }, method: 'DELETE', summary: 'Delete Channel Permission' },
      ],
    },
    {
      key: 'ChannelsIdPins',
      major: 'channel_id',
      path: '/channels/{channel_id}/pins',
      pathSource: 'spec',
      operations: [{ name: 'channels.pins.list', types: { result: 'RESTGetAPIChannelPinsResult' }, method: 'GET', summary: 'Get Pinned Messages' }],
    },
    {
      key: 'ChannelsIdPinsMessageId',
      major: 'channel_id',
      path: '/channels/{channel_id}/pins/{message_id}',
      pathSource: 'spec',
      operations: [
        { name: 'channels.pins.add', auditLogReason: true, types: { result: 'RESTPutAPIChannelPinResult' }, method: 'PUT', summary: 'Add Pinned Channel Message' },
        { name: 'channels.pins.remove', auditLogReason: true, types: { result: 'RESTDeleteAPIChannelPinResult' }, method: 'DELETE', summary: 'Delete Pinned Channel Message' },
      ],
    },
    {
      key: 'ChannelsIdTyping',
      major: 'channel_id',
      path: '/channels/{channel_id}/typing',
      pathSource: 'spec',
      operations: [{ name: 'channels.typing.trigger', types: { result: 'RESTPostAPIChannelTypingResult' }, method: 'POST', summary: 'Trigger Typing Indicator' }],
    },
    {
      key: 'ChannelsIdWebhooks',
      major: 'channel_id',
      path: '/channels/{channel_id}/webhooks',
      pathSource: 'spec',
      operations: [
        { name: 'channels.webhooks.list', types: { result: 'RESTGetAPIChannelWebhooksResult' }, method: 'GET', summary: 'Get Channel Webhooks' },
        { name: 'channels.webhooks.create', auditLogReason: true, types: { body: 'RESTPostAPIChannelWebhookJSONBody', result: 'RESTPostAPIChannelWebhookResult' }, method: 'POST', summary: 'Create Webhook', body: 'required' },
      ],
    },
    {
      key: 'ChannelsIdMessagesSearch',
      major: 'channel_id',
      path: '/channels/{channel_id}/messages/search',
      pathSource: 'documented',
      note: 'The spec does not show this path; it is the one the service used. Never documented.',
      operations: [
        {
          name: 'channels.messages.search',
          method: 'GET',
          summary: 'Search Channel Messages',
          query: ['content', 'author_id', 'mentions', 'has', 'max_id', 'min_id', 'offset', 'limit'],
          userOnly: true,
        },
      ],
    },

    // ── Guild id as major parameter ──────────────────────────────────────────────────────────
    {
      key: 'GuildsId',
      major: 'guild_id',
      path: '/guilds/{guild_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.get', types: { result: 'RESTGetAPIGuildResult' }, method: 'GET', summary: 'Get Guild' },
        { name: 'guilds.edit', auditLogReason: true, types: { body: 'RESTPatchAPIGuildJSONBody', result: 'RESTPatchAPIGuildResult' }, method: 'PATCH', summary: 'Modify Guild', body: 'required' },
        { name: 'guilds.delete', types: { result: 'RESTDeleteAPIGuildResult' }, method: 'DELETE', summary: 'Delete Guild' },
      ],
    },
    {
      key: 'GuildsIdBans',
      major: 'guild_id',
      path: '/guilds/{guild_id}/bans',
      pathSource: 'spec',
      operations: [{ name: 'guilds.bans.list', types: { result: 'RESTGetAPIGuildBansResult' }, method: 'GET', summary: 'Get Guild Bans' }],
    },
    {
      key: 'GuildsIdBansUserId',
      major: 'guild_id',
      path: '/guilds/{guild_id}/bans/{user_id}',
      pathSource: 'spec',
      operations: [
        {
          name: 'guilds.bans.create', auditLogReason: true, types: { result: 'RESTPutAPIGuildBanResult' },
          method: 'PUT',
          summary: 'Create Guild Ban',
          query: ['delete-message-days', 'reason'],
        },
        { name: 'guilds.bans.remove', auditLogReason: true, types: { result: 'RESTDeleteAPIGuildBanResult' }, method: 'DELETE', summary: 'Remove Guild Ban' },
      ],
    },
    {
      key: 'GuildsIdChannels',
      major: 'guild_id',
      path: '/guilds/{guild_id}/channels/{channel_id}',
      pathSource: 'spec',
      aliases: ['/guilds/{guild_id}/channels'],
      note: "The spec's shape is never sent; the real endpoints are on /guilds/{guild_id}/channels. Both share one bucket per guild.",
      operations: [
        { name: 'guilds.channels.list', types: { result: 'RESTGetAPIGuildChannelsResult' }, method: 'GET', path: '/guilds/{guild_id}/channels', summary: 'Get Guild Channels' },
        {
          name: 'guilds.channels.create', auditLogReason: true, types: { body: 'RESTPostAPIGuildChannelJSONBody', result: 'RESTPostAPIGuildChannelResult' },
          method: 'POST',
          path: '/guilds/{guild_id}/channels',
          summary: 'Create Guild Channel',
          body: 'required',
        },
        {
          name: 'guilds.channels.editPositions', types: { body: 'RESTPatchAPIGuildChannelPositionsJSONBody', result: 'RESTPatchAPIGuildChannelPositionsResult' },
          method: 'PATCH',
          path: '/guilds/{guild_id}/channels',
          summary: 'Modify Guild Channel Positions',
          body: 'required',
        },
      ],
    },
    {
      key: 'GuildsIdEmbed',
      major: 'guild_id',
      path: '/guilds/{guild_id}/embed',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.embed.get', types: { from: 'v6', result: 'RESTGetAPIGuildWidgetResult' }, method: 'GET', summary: 'Get Guild Embed' },
        { name: 'guilds.embed.edit', types: { from: 'v6', body: 'RESTPatchAPIGuildWidgetJSONBody', result: 'RESTPatchAPIGuildWidgetResult' }, method: 'PATCH', summary: 'Modify Guild Embed', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdEmojis',
      major: 'guild_id',
      path: '/guilds/{guild_id}/emojis',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.emojis.list', types: { result: 'RESTGetAPIGuildEmojisResult' }, method: 'GET', summary: 'List Guild Emojis' },
        { name: 'guilds.emojis.create', auditLogReason: true, types: { body: 'RESTPostAPIGuildEmojiJSONBody', result: 'RESTPostAPIGuildEmojiResult' }, method: 'POST', summary: 'Create Guild Emoji', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdEmojisId',
      major: 'guild_id',
      path: '/guilds/{guild_id}/emojis/{emoji_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.emojis.get', types: { result: 'RESTGetAPIGuildEmojiResult' }, method: 'GET', summary: 'Get Guild Emoji' },
        { name: 'guilds.emojis.edit', auditLogReason: true, types: { body: 'RESTPatchAPIGuildEmojiJSONBody', result: 'RESTPatchAPIGuildEmojiResult' }, method: 'PATCH', summary: 'Modify Guild Emoji', body: 'required' },
        { name: 'guilds.emojis.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIGuildEmojiResult' }, method: 'DELETE', summary: 'Delete Guild Emoji' },
      ],
    },
    {
      key: 'GuildsIdIntegrations',
      major: 'guild_id',
      path: '/guilds/{guild_id}/integrations',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.integrations.list', types: { result: 'RESTGetAPIGuildIntegrationsResult' }, method: 'GET', summary: 'Get Guild Integrations' },
        { name: 'guilds.integrations.create', types: { from: 'v6', body: 'RESTPostAPIGuildIntegrationJSONBody', result: 'RESTPostAPIGuildIntegrationResult' }, method: 'POST', summary: 'Create Guild Integration', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdIntegrationsId',
      major: 'guild_id',
      path: '/guilds/{guild_id}/integrations/{integration_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.integrations.edit', types: { from: 'v6', body: 'RESTPatchAPIGuildIntegrationJSONBody', result: 'RESTPatchAPIGuildIntegrationResult' }, method: 'PATCH', summary: 'Modify Guild Integration', body: 'required' },
        { name: 'guilds.integrations.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIGuildIntegrationResult' }, method: 'DELETE', summary: 'Delete Guild Integration' },
      ],
    },
    {
      key: 'GuildsIdIntegrationsIdSync',
      major: 'guild_id',
      path: '/guilds/{guild_id}/integrations/{integration_id}/sync',
      pathSource: 'spec',
      operations: [{ name: 'guilds.integrations.sync', types: { from: 'v6', result: 'RESTPostAPIGuildIntegrationSyncResult' }, method: 'POST', summary: 'Sync Guild Integration' }],
    },
    {
      key: 'GuildsIdInvites',
      major: 'guild_id',
      path: '/guilds/{guild_id}/invites',
      pathSource: 'spec',
      operations: [{ name: 'guilds.invites.list', types: { result: 'RESTGetAPIGuildInvitesResult' }, method: 'GET', summary: 'Get Guild Invites' }],
    },
    {
      key: 'GuildsIdMembers',
      major: 'guild_id',
      path: '/guilds/{guild_id}/members',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.members.list', types: { query: 'RESTGetAPIGuildMembersQuery', result: 'RESTGetAPIGuildMembersResult' }, method: 'GET', summary: 'List Guild Members', query: ['limit', 'after'] },
      ],
    },
    {
      key: 'GuildsIdMembersId',
      major: 'guild_id',
      path: '/guilds/{guild_id}/members/{user_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.members.get', types: { result: 'RESTGetAPIGuildMemberResult' }, method: 'GET', summary: 'Get Guild Member' },
        { name: 'guilds.members.add', types: { body: 'RESTPutAPIGuildMemberJSONBody', result: 'RESTPutAPIGuildMemberResult' }, method: 'PUT', summary: 'Add Guild Member', body: 'required' },
        { name: 'guilds.members.edit', auditLogReason: true, types: { body: 'RESTPatchAPIGuildMemberJSONBody', result: 'RESTPatchAPIGuildMemberResult' }, method: 'PATCH', summary: 'Modify Guild Member', body: 'required' },
        { name: 'guilds.members.remove', auditLogReason: true, types: { result: 'RESTDeleteAPIGuildMemberResult' }, method: 'DELETE', summary: 'Remove Guild Member' },
      ],
    },
    {
      key: 'GuildsIdMembersIdRolesId',
      major: 'guild_id',
      path: '/guilds/{guild_id}/members/{user_id}/roles/{role_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.members.roles.add', auditLogReason: true, types: { result: 'RESTPutAPIGuildMemberRoleResult' }, method: 'PUT', summary: 'Add Guild Member Role' },
        { name: 'guilds.members.roles.remove', auditLogReason: true, types: { result: 'RESTDeleteAPIGuildMemberRoleResult' }, method: 'DELETE', summary: 'Remove Guild Member Role' },
      ],
    },
    {
      key: 'GuildsIdMembersMeNick',
      major: 'guild_id',
      path: '/guilds/{guild_id}/members/@me/nick',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.members.me.nick.edit', auditLogReason: true, types: { body: 'RESTPatchAPICurrentGuildMemberNicknameJSONBody', result: 'RESTPatchAPICurrentGuildMemberNicknameResult' }, method: 'PATCH', summary: 'Modify Current User Nick', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdMessagesSearch',
      major: 'guild_id',
      path: '/guilds/{guild_id}/messages/search',
      pathSource: 'documented',
      note: 'The spec does not show this path; it is the one the service used. Never documented.',
      operations: [
        {
          name: 'guilds.messages.search',
          method: 'GET',
          summary: 'Search Guild Messages',
          query: ['content', 'author_id', 'mentions', 'has', 'channel_id', 'max_id', 'min_id', 'offset', 'limit'],
          userOnly: true,
        },
      ],
    },
    {
      key: 'GuildsIdPrune',
      major: 'guild_id',
      path: '/guilds/{guild_id}/prune',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.prune.count', types: { query: 'RESTGetAPIGuildPruneCountQuery', result: 'RESTGetAPIGuildPruneCountResult' }, method: 'GET', summary: 'Get Guild Prune Count', query: ['days'] },
        { name: 'guilds.prune.begin', auditLogReason: true, types: { result: 'RESTPostAPIGuildPruneResult' }, method: 'POST', summary: 'Begin Guild Prune', query: ['days'] },
      ],
    },
    {
      key: 'GuildsIdRegions',
      major: 'guild_id',
      path: '/guilds/{guild_id}/regions',
      pathSource: 'spec',
      operations: [{ name: 'guilds.regions.list', types: { result: 'RESTGetAPIGuildVoiceRegionsResult' }, method: 'GET', summary: 'Get Guild Voice Regions' }],
    },
    {
      key: 'GuildsIdRoles',
      major: 'guild_id',
      path: '/guilds/{guild_id}/roles',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.roles.list', types: { result: 'RESTGetAPIGuildRolesResult' }, method: 'GET', summary: 'Get Guild Roles' },
        { name: 'guilds.roles.create', auditLogReason: true, types: { body: 'RESTPostAPIGuildRoleJSONBody', result: 'RESTPostAPIGuildRoleResult' }, method: 'POST', summary: 'Create Guild Role', body: 'optional' },
        { name: 'guilds.roles.editPositions', auditLogReason: true, types: { body: 'RESTPatchAPIGuildRolePositionsJSONBody', result: 'RESTPatchAPIGuildRolePositionsResult' }, method: 'PATCH', summary: 'Modify Guild Role Positions', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdRolesId',
      major: 'guild_id',
      path: '/guilds/{guild_id}/roles/{role_id}',
      pathSource: 'spec',
      operations: [
        { name: 'guilds.roles.edit', auditLogReason: true, types: { body: 'RESTPatchAPIGuildRoleJSONBody', result: 'RESTPatchAPIGuildRoleResult' }, method: 'PATCH', summary: 'Modify Guild Role', body: 'required' },
        { name: 'guilds.roles.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIGuildRoleResult' }, method: 'DELETE', summary: 'Delete Guild Role' },
      ],
    },
    {
      key: 'GuildsIdWebhooks',
      major: 'guild_id',
      path: '/guilds/{guild_id}/webhooks',
      pathSource: 'spec',
      operations: [{ name: 'guilds.webhooks.list', types: { result: 'RESTGetAPIGuildWebhooksResult' }, method: 'GET', summary: 'Get Guild Webhooks' }],
    },

    // ── v10 routes beyond the seed spec (channel id as major parameter) ────────────────────────
    {
      key: 'ChannelsIdMessagesIdCrosspost',
      v10Only: true,
      major: 'channel_id',
      path: '/channels/{channel_id}/messages/{message_id}/crosspost',
      pathSource: 'documented',
      operations: [
        { name: 'channels.messages.crosspost', types: { result: 'RESTPostAPIChannelMessageCrosspostResult' }, method: 'POST', summary: 'Crosspost Message' },
      ],
    },
    {
      key: 'ChannelsIdFollowers',
      v10Only: true,
      major: 'channel_id',
      path: '/channels/{channel_id}/followers',
      pathSource: 'documented',
      operations: [
        { name: 'channels.followers.create', auditLogReason: true, types: { body: 'RESTPostAPIChannelFollowersJSONBody', result: 'RESTPostAPIChannelFollowersResult' }, method: 'POST', summary: 'Follow Announcement Channel', body: 'required' },
      ],
    },
    {
      key: 'ChannelsIdRecipientsUserId',
      v10Only: true,
      major: 'channel_id',
      path: '/channels/{channel_id}/recipients/{user_id}',
      pathSource: 'documented',
      operations: [
        { name: 'channels.recipients.add', types: { body: 'RESTPutAPIChannelRecipientJSONBody' }, method: 'PUT', summary: 'Group DM Add Recipient', body: 'required' },
        { name: 'channels.recipients.remove', method: 'DELETE', summary: 'Group DM Remove Recipient' },
      ],
    },
    // ── v10 routes beyond the seed spec (guild id as major parameter) ──────────────────────────
    {
      key: 'GuildsIdPreview',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/preview',
      pathSource: 'documented',
      operations: [{ name: 'guilds.preview.get', types: { result: 'RESTGetAPIGuildPreviewResult' }, method: 'GET', summary: 'Get Guild Preview' }],
    },
    {
      key: 'GuildsIdVanityUrl',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/vanity-url',
      pathSource: 'documented',
      operations: [{ name: 'guilds.vanityUrl.get', types: { result: 'RESTGetAPIGuildVanityUrlResult' }, method: 'GET', summary: 'Get Guild Vanity URL' }],
    },
    {
      key: 'GuildsIdAuditLogs',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/audit-logs',
      pathSource: 'documented',
      operations: [
        {
          name: 'guilds.auditLogs.get',
          types: { query: 'RESTGetAPIAuditLogQuery', result: 'RESTGetAPIAuditLogResult' },
          method: 'GET',
          summary: 'Get Guild Audit Log',
          query: ['user_id', 'action_type', 'before', 'after', 'limit'],
        },
      ],
    },
    {
      key: 'GuildsIdThreadsActive',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/threads/active',
      pathSource: 'documented',
      operations: [{ name: 'guilds.activeThreads.list', types: { result: 'RESTGetAPIGuildThreadsResult' }, method: 'GET', summary: 'List Active Guild Threads' }],
    },
    {
      key: 'GuildsIdMembersSearch',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/members/search',
      pathSource: 'documented',
      operations: [
        {
          name: 'guilds.members.search',
          types: { query: 'RESTGetAPIGuildMembersSearchQuery', result: 'RESTGetAPIGuildMembersSearchResult' },
          method: 'GET',
          summary: 'Search Guild Members',
          query: ['query', 'limit'],
        },
      ],
    },
    {
      key: 'GuildsIdWidget',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/widget',
      pathSource: 'documented',
      operations: [
        { name: 'guilds.widget.get', types: { result: 'RESTGetAPIGuildWidgetSettingsResult' }, method: 'GET', summary: 'Get Guild Widget Settings' },
        { name: 'guilds.widget.edit', auditLogReason: true, types: { body: 'RESTPatchAPIGuildWidgetSettingsJSONBody', result: 'RESTPatchAPIGuildWidgetSettingsResult' }, method: 'PATCH', summary: 'Modify Guild Widget', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdWidgetJson',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/widget.json',
      pathSource: 'documented',
      operations: [{ name: 'guilds.widgetJson.get', types: { result: 'RESTGetAPIGuildWidgetJSONResult' }, method: 'GET', summary: 'Get Guild Widget', unauthenticated: true }],
    },
    {
      key: 'GuildsIdMfa',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/mfa',
      pathSource: 'documented',
      operations: [
        { name: 'guilds.mfa.edit', auditLogReason: true, types: { body: 'RESTPostAPIGuildsMFAJSONBody', result: 'RESTPostAPIGuildsMFAResult' }, method: 'POST', summary: 'Modify Guild MFA Level', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdBulkBan',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/bulk-ban',
      pathSource: 'documented',
      operations: [
        { name: 'guilds.bulkBan.create', auditLogReason: true, types: { body: 'RESTPostAPIGuildBulkBanJSONBody', result: 'RESTPostAPIGuildBulkBanResult' }, method: 'POST', summary: 'Bulk Guild Ban', body: 'required' },
      ],
    },
    {
      key: 'GuildsIdRolesMemberCounts',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/roles/member-counts',
      pathSource: 'documented',
      operations: [{ name: 'guilds.roles.memberCounts.get', types: { result: 'RESTGetAPIGuildRoleMemberCountsResult' }, method: 'GET', summary: 'Get Guild Role Member Counts' }],
    },
    {
      key: 'GuildsIdVoiceStatesUserId',
      v10Only: true,
      major: 'guild_id',
      path: '/guilds/{guild_id}/voice-states/{user_id}',
      pathSource: 'documented',
      operations: [
        { name: 'guilds.voiceStates.get', types: { result: 'RESTGetAPIGuildVoiceStateUserResult' }, method: 'GET', summary: 'Get User Voice State' },
        { name: 'guilds.voiceStates.edit', types: { body: 'RESTPatchAPIGuildVoiceStateUserJSONBody', result: 'RESTPatchAPIGuildVoiceStateUserResult' }, method: 'PATCH', summary: 'Modify User Voice State', body: 'required' },
      ],
    },

    // ── No major parameter: one bucket each ──────────────────────────────────────────────────
    {
      key: 'Gateway',
      major: null,
      path: '/gateway',
      pathSource: 'spec',
      operations: [{ name: 'gateway.get', types: { result: 'RESTGetAPIGatewayResult' }, method: 'GET', summary: 'Get Gateway' }],
    },
    {
      key: 'GatewayBot',
      major: null,
      path: '/gateway/bot',
      pathSource: 'spec',
      operations: [{ name: 'gateway.bot.get', types: { result: 'RESTGetAPIGatewayBotResult' }, method: 'GET', summary: 'Get Gateway Bot' }],
    },
    {
      key: 'Guilds',
      major: null,
      path: '/guilds',
      pathSource: 'spec',
      operations: [{ name: 'guilds.create', types: { body: 'RESTPostAPIGuildsJSONBody', result: 'RESTPostAPIGuildsResult' }, method: 'POST', summary: 'Create Guild', body: 'required' }],
    },
    {
      key: 'InvitesCode',
      major: null,
      path: '/invites/{code}',
      pathSource: 'spec',
      operations: [
        { name: 'invites.get', types: { query: 'RESTGetAPIInviteQuery', result: 'RESTGetAPIInviteResult' }, method: 'GET', summary: 'Get Invite', query: ['with_counts'] },
        { name: 'invites.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIInviteResult' }, method: 'DELETE', summary: 'Delete Invite' },
      ],
    },
    {
      key: 'UsersId',
      major: null,
      path: '/users/{user_id}',
      pathSource: 'spec',
      operations: [{ name: 'users.get', types: { result: 'RESTGetAPIUserResult' }, method: 'GET', summary: 'Get User' }],
    },
    {
      key: 'UsersMe',
      major: null,
      path: '/users/@me',
      pathSource: 'spec',
      operations: [
        { name: 'users.me.get', types: { result: 'RESTGetAPICurrentUserResult' }, method: 'GET', summary: 'Get Current User' },
        { name: 'users.me.edit', types: { body: 'RESTPatchAPICurrentUserJSONBody', result: 'RESTPatchAPICurrentUserResult' }, method: 'PATCH', summary: 'Modify Current User', body: 'required' },
      ],
    },
    {
      key: 'UsersMeChannels',
      major: null,
      path: '/users/@me/channels',
      pathSource: 'spec',
      operations: [
        { name: 'users.me.channels.list', method: 'GET', summary: 'Get User DMs' },
        { name: 'users.me.channels.create', types: { body: 'RESTPostAPICurrentUserCreateDMChannelJSONBody', result: 'RESTPostAPICurrentUserCreateDMChannelResult' }, method: 'POST', summary: 'Create DM', body: 'required' },
      ],
    },
    {
      key: 'UsersMeConnections',
      major: null,
      path: '/users/@me/connections',
      pathSource: 'documented',
      note: 'The spec does not show this path; it is the documented Get User Connections endpoint.',
      operations: [{ name: 'users.me.connections.list', types: { result: 'RESTGetAPICurrentUserConnectionsResult' }, method: 'GET', summary: 'Get User Connections' }],
    },
    {
      key: 'UsersMeGuilds',
      major: null,
      path: '/users/@me/guilds',
      pathSource: 'spec',
      operations: [
        {
          name: 'users.me.guilds.list', types: { query: 'RESTGetAPICurrentUserGuildsQuery', result: 'RESTGetAPICurrentUserGuildsResult' },
          method: 'GET',
          summary: 'Get Current User Guilds',
          query: ['before', 'after', 'limit'],
        },
      ],
    },
    {
      key: 'UsersMeGuildsId',
      major: null,
      path: '/users/@me/guilds/{guild_id}',
      pathSource: 'spec',
      note: 'The guild id here is not a major parameter: the spec lists the key without one.',
      operations: [{ name: 'users.me.guilds.leave', types: { result: 'RESTDeleteAPICurrentUserGuildResult' }, method: 'DELETE', summary: 'Leave Guild' }],
    },
    {
      key: 'VoiceRegions',
      major: null,
      path: '/voice/regions',
      pathSource: 'spec',
      operations: [{ name: 'voice.regions.list', types: { result: 'RESTGetAPIVoiceRegionsResult' }, method: 'GET', summary: 'List Voice Regions' }],
    },
    {
      key: 'WebhooksId',
      major: null,
      path: '/webhooks/{webhook_id}',
      pathSource: 'spec',
      aliases: ['/webhooks/{webhook_id}/{webhook_token}'],
      note: 'Webhooks with a token share the WebhooksId bucket so they are limited; they send no Authorization header and the token never reaches a bucket key or an event.',
      operations: [
        { name: 'webhooks.get', types: { result: 'RESTGetAPIWebhookResult' }, method: 'GET', summary: 'Get Webhook' },
        { name: 'webhooks.edit', auditLogReason: true, types: { body: 'RESTPatchAPIWebhookJSONBody', result: 'RESTPatchAPIWebhookResult' }, method: 'PATCH', summary: 'Modify Webhook', body: 'required' },
        { name: 'webhooks.delete', auditLogReason: true, types: { result: 'RESTDeleteAPIWebhookResult' }, method: 'DELETE', summary: 'Delete Webhook' },
        {
          name: 'webhooks.getWithToken', types: { result: 'RESTGetAPIWebhookWithTokenResult' },
          method: 'GET',
          path: '/webhooks/{webhook_id}/{webhook_token}',
          summary: 'Get Webhook with Token',
          unauthenticated: true,
        },
        {
          name: 'webhooks.editWithToken', types: { body: 'RESTPatchAPIWebhookWithTokenJSONBody', result: 'RESTPatchAPIWebhookWithTokenResult' },
          method: 'PATCH',
          path: '/webhooks/{webhook_id}/{webhook_token}',
          summary: 'Modify Webhook with Token',
          body: 'required',
          unauthenticated: true,
        },
        {
          name: 'webhooks.deleteWithToken', types: { result: 'RESTDeleteAPIWebhookWithTokenResult' },
          method: 'DELETE',
          path: '/webhooks/{webhook_id}/{webhook_token}',
          summary: 'Delete Webhook with Token',
          unauthenticated: true,
        },
        {
          name: 'webhooks.execute', types: { body: 'RESTPostAPIWebhookWithTokenJSONBody', query: 'RESTPostAPIWebhookWithTokenQuery', result: 'RESTPostAPIWebhookWithTokenResult' },
          method: 'POST',
          path: '/webhooks/{webhook_id}/{webhook_token}',
          summary: 'Execute Webhook',
          body: 'required',
          multipart: true,
          query: ['wait'],
          unauthenticated: true,
        },
      ],
    },
    // ── v10 routes beyond the seed spec (no major parameter) ───────────────────────────────────
    {
      key: 'UsersMeGuildsIdMember',
      v10Only: true,
      major: null,
      path: '/users/@me/guilds/{guild_id}/member',
      pathSource: 'documented',
      operations: [{ name: 'users.me.guilds.member.get', types: { result: 'RESTGetCurrentUserGuildMemberResult' }, method: 'GET', summary: 'Get Current User Guild Member' }],
    },
  ],
};
