/**
 * What the reference service answers a successful call with: a body of the shape the operation's
 * result type (from the catalog's `types.result`, in discord-api-types) describes, with the ids
 * of the request's path filled in. Each sample is checked against its type when this file
 * compiles (`satisfies`), so users' offline tests see realistic data. Results that are empty in
 * the service (most deletes, reaction and pin PUTs) answer 204.
 */
import type * as v10 from 'discord-api-types/v10';
import type * as v6 from 'discord-api-types/v6';
import { catalogOperation, type PathIds } from './catalog-match.ts';

export type { PathIds } from './catalog-match.ts';

const SNOWFLAKE = '175928847299117063';
const TIMESTAMP = '2026-11-22T12:00:00.000Z';
const id = (ids: PathIds, name: string) => ids[name] ?? SNOWFLAKE;

/** A body that is bytes, not JSON (an image, a CSV file): sent with its own content type. */
export class BinaryBody {
  readonly contentType: string;
  readonly bytes: Uint8Array;
  constructor(contentType: string, bytes: Uint8Array) {
    this.contentType = contentType;
    this.bytes = bytes;
  }
}

/** A 1×1 transparent PNG: the widget image's stand-in. */
const WIDGET_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (char) => char.charCodeAt(0),
);

const user = (userId = '80351110224678912') =>
  ({
    id: userId,
    username: 'tollgate',
    discriminator: '0',
    global_name: 'Tollgate',
    avatar: null,
  }) satisfies v10.APIUser;

const channel = (ids: PathIds) =>
  ({
    id: id(ids, 'channel_id'),
    type: 0 as v10.ChannelType.GuildText,
    guild_id: id(ids, 'guild_id'),
    name: 'general',
    position: 0,
    permission_overwrites: [],
    nsfw: false,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    parent_id: null,
    flags: 0 as v10.ChannelFlags,
  }) satisfies v10.APITextChannel;

const dmChannel = () =>
  ({
    id: '319674150115610528',
    type: 1 as v10.ChannelType.DM,
    recipients: [user()],
    last_message_id: null,
    flags: 0 as v10.ChannelFlags,
    name: null,
  }) satisfies v10.APIDMChannel;

const message = (ids: PathIds) =>
  ({
    id: id(ids, 'message_id'),
    channel_id: id(ids, 'channel_id'),
    author: user(),
    content: 'Hello from the reference service',
    timestamp: TIMESTAMP,
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0 as v10.MessageType.Default,
  }) satisfies v10.APIMessage;

const role = (ids: PathIds) =>
  ({
    id: id(ids, 'role_id'),
    name: 'moderators',
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: 1,
    permissions: '0',
    managed: false,
    mentionable: false,
    flags: 0 as v10.RoleFlags,
  }) satisfies v10.APIRole;

const member = (ids: PathIds) =>
  ({
    user: user(id(ids, 'user_id')),
    nick: null,
    avatar: null,
    banner: null,
    roles: [],
    joined_at: TIMESTAMP,
    deaf: false,
    mute: false,
    flags: 0 as v10.GuildMemberFlags,
  }) satisfies v10.APIGuildMember;

const emoji = (ids: PathIds) =>
  ({
    id: id(ids, 'emoji_id'),
    name: 'tollgate',
    roles: [],
    require_colons: true,
    managed: false,
    animated: false,
    available: true,
  }) satisfies v10.APIEmoji;

const guild = (ids: PathIds) =>
  ({
    id: id(ids, 'guild_id'),
    name: 'Reference Guild',
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: '80351110224678912',
    region: 'europe',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [role({ role_id: id(ids, 'guild_id') })],
    emojis: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0 as v10.GuildSystemChannelFlags,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    preferred_locale: 'en-US' as v10.Locale,
    public_updates_channel_id: null,
    nsfw_level: 0,
    stickers: [],
    premium_progress_bar_enabled: false,
    hub_type: null,
    safety_alerts_channel_id: null,
    incidents_data: null,
  }) satisfies v10.APIGuild;

const webhook = (ids: PathIds) =>
  ({
    id: id(ids, 'webhook_id'),
    type: 1 as v10.WebhookType.Incoming,
    channel_id: id(ids, 'channel_id'),
    name: 'reference hook',
    avatar: null,
    application_id: null,
  }) satisfies v10.APIWebhook;

const invite = (ids: PathIds) =>
  ({
    code: ids.code ?? 'tollgate',
    type: 0 as v10.InviteType.Guild,
    expires_at: null,
    channel: { id: id(ids, 'channel_id'), type: 0 as v10.ChannelType.GuildText, name: 'general' },
    // The extended fields (channel and guild invite lists, create) are there for every answer.
    uses: 0,
    max_uses: 0,
    max_age: 86_400,
    temporary: false,
    created_at: TIMESTAMP,
  }) satisfies v10.APIExtendedInvite;

const voiceRegion = () =>
  ({ id: 'europe', name: 'Europe', optimal: true, deprecated: false, custom: false }) satisfies v10.APIVoiceRegion;

const integration = () =>
  ({
    id: '33590653072239123',
    name: 'Reference Integration',
    type: 'discord' as const,
    enabled: true,
    account: { id: SNOWFLAKE, name: 'tollgate' },
  }) satisfies v10.APIGuildIntegration;

const connection = () =>
  ({
    id: 'tollgate',
    name: 'tollgate',
    type: 'github' as v10.ConnectionService.GitHub,
    verified: true,
    friend_sync: false,
    show_activity: true,
    two_way_link: false,
    visibility: 1 as v10.ConnectionVisibility.Everyone,
  }) satisfies v10.APIConnection;

const command = (ids: PathIds) =>
  ({
    id: id(ids, 'command_id'),
    type: 1 as v10.ApplicationCommandType.ChatInput,
    application_id: id(ids, 'application_id'),
    ...(ids.guild_id !== undefined && { guild_id: ids.guild_id }),
    name: 'ping',
    description: 'Replies with pong',
    default_member_permissions: null,
    version: SNOWFLAKE,
  }) satisfies v10.APIApplicationCommand;

const sticker = (ids: PathIds) =>
  ({
    id: id(ids, 'sticker_id'),
    name: 'tollgate',
    description: 'A reference sticker',
    tags: 'gate',
    type: 2 as v10.StickerType.Guild,
    format_type: 1 as v10.StickerFormatType.PNG,
    available: true,
    guild_id: id(ids, 'guild_id'),
  }) satisfies v10.APISticker;

const stickerPack = (ids: PathIds) =>
  ({
    id: id(ids, 'pack_id'),
    stickers: [sticker(ids)],
    name: 'Reference Pack',
    sku_id: SNOWFLAKE,
    description: 'Stickers for offline tests',
  }) satisfies v10.APIStickerPack;

const welcomeScreen = (ids: PathIds) =>
  ({
    description: 'Welcome!',
    welcome_channels: [
      { channel_id: id(ids, 'channel_id'), description: 'Say hello', emoji_id: null, emoji_name: null },
    ],
  }) satisfies v10.APIGuildWelcomeScreen;

const applicationEmoji = (ids: PathIds) =>
  ({
    id: id(ids, 'emoji_id'),
    name: 'tollgate',
    animated: false,
    user: user(),
    roles: [] as [],
    require_colons: true,
    managed: false,
    available: true,
  }) satisfies v10.APIApplicationEmoji;

const soundboardSound = (ids: PathIds) =>
  ({
    name: 'quack',
    sound_id: id(ids, 'sound_id'),
    volume: 1,
    emoji_id: null,
    emoji_name: '🦆',
    guild_id: id(ids, 'guild_id'),
    available: true,
  }) satisfies v10.APISoundboardSound;

const entitlement = (ids: PathIds) =>
  ({
    id: id(ids, 'entitlement_id'),
    sku_id: SNOWFLAKE,
    user_id: '80351110224678912',
    application_id: id(ids, 'application_id'),
    type: 8 as v10.EntitlementType.ApplicationSubscription,
    deleted: false,
    starts_at: null,
    ends_at: null,
  }) satisfies v10.APIEntitlement;

const roleConnection = () =>
  ({
    platform_name: 'Reference',
    platform_username: 'tollgate',
    metadata: {},
  }) satisfies v10.APIApplicationRoleConnection;

const thread = (ids: PathIds) =>
  ({
    id: id(ids, 'message_id'),
    type: 11 as v10.ChannelType.PublicThread,
    guild_id: id(ids, 'guild_id'),
    parent_id: id(ids, 'channel_id'),
    name: 'a thread',
    owner_id: '80351110224678912',
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0 as v10.ChannelFlags,
    message_count: 0,
    member_count: 1,
    total_message_sent: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440 as v10.ThreadAutoArchiveDuration.OneDay,
      archive_timestamp: TIMESTAMP,
      locked: false,
    },
  }) satisfies v10.APIThreadChannel;

const scheduledEvent = (ids: PathIds) =>
  ({
    id: id(ids, 'event_id'),
    guild_id: id(ids, 'guild_id'),
    channel_id: null,
    name: 'Release party',
    scheduled_start_time: TIMESTAMP,
    scheduled_end_time: '2026-11-22T14:00:00.000Z',
    privacy_level: 2 as v10.GuildScheduledEventPrivacyLevel.GuildOnly,
    status: 1 as v10.GuildScheduledEventStatus.Scheduled,
    entity_type: 3 as v10.GuildScheduledEventEntityType.External,
    entity_id: null,
    entity_metadata: { location: 'Online' },
    recurrence_rule: null,
  }) satisfies v10.APIGuildScheduledEvent;

const autoModerationRule = (ids: PathIds) =>
  ({
    id: id(ids, 'rule_id'),
    guild_id: id(ids, 'guild_id'),
    name: 'No spam',
    creator_id: '80351110224678912',
    event_type: 1 as v10.AutoModerationRuleEventType.MessageSend,
    trigger_type: 3 as v10.AutoModerationRuleTriggerType.Spam,
    trigger_metadata: {},
    actions: [{ type: 1 as v10.AutoModerationActionType.BlockMessage }],
    enabled: true,
    exempt_roles: [],
    exempt_channels: [],
  }) satisfies v10.APIAutoModerationRule;

const onboarding = (ids: PathIds) =>
  ({
    guild_id: id(ids, 'guild_id'),
    prompts: [],
    default_channel_ids: [],
    enabled: false,
    mode: 0 as v10.GuildOnboardingMode.OnboardingDefault,
  }) satisfies v10.APIGuildOnboarding;

const memberVerification = () =>
  ({ version: TIMESTAMP, form_fields: [], description: null }) satisfies v10.APIGuildMembershipScreening;

const subscription = (ids: PathIds) =>
  ({
    id: id(ids, 'subscription_id'),
    user_id: '80351110224678912',
    sku_ids: [id(ids, 'sku_id')],
    entitlement_ids: [],
    renewal_sku_ids: null,
    current_period_start: TIMESTAMP,
    current_period_end: '2026-12-22T12:00:00.000Z',
    status: 0 as v10.SubscriptionStatus.Active,
    canceled_at: null,
  }) satisfies v10.APISubscription;

const template = (ids: PathIds) =>
  ({
    code: ids.code ?? 'tollgate',
    name: 'Reference template',
    description: null,
    usage_count: 0,
    creator_id: '80351110224678912',
    creator: user(),
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    source_guild_id: id(ids, 'guild_id'),
    serialized_source_guild: {
      name: 'Reference Guild',
      description: null,
      preferred_locale: 'en-US' as v10.Locale,
      icon_hash: null,
    },
    is_dirty: null,
  }) satisfies v10.APITemplate;

const stageInstance = (ids: PathIds) =>
  ({
    id: SNOWFLAKE,
    guild_id: id(ids, 'guild_id'),
    channel_id: id(ids, 'channel_id'),
    topic: 'Office hours',
    privacy_level: 2 as v10.StageInstancePrivacyLevel.GuildOnly,
    discoverable_disabled: false,
  }) satisfies v10.APIStageInstance;

const commandPermissions = (ids: PathIds) =>
  ({
    id: id(ids, 'command_id'),
    application_id: id(ids, 'application_id'),
    guild_id: id(ids, 'guild_id'),
    permissions: [],
  }) satisfies v10.APIGuildApplicationCommandPermissions;

const voiceState = (ids: PathIds) =>
  ({
    guild_id: id(ids, 'guild_id'),
    channel_id: null,
    user_id: id(ids, 'user_id'),
    session_id: 'reference-session',
    deaf: false,
    mute: false,
    self_deaf: false,
    self_mute: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  }) satisfies v10.APIVoiceState;

const application = (ids: PathIds) =>
  ({
    id: id(ids, 'application_id'),
    name: 'Tollgate',
    icon: null,
    description: 'A reference application',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    summary: '',
    team: null,
    flags: 0 as v10.ApplicationFlags,
    flags_new: '0',
    bot: user(),
  }) satisfies v10.APIApplication;

const identity = (ids: PathIds) =>
  ({
    user_id: id(ids, 'user_id'),
    provider_type: ids.provider_type ?? 'steam',
    provider_issued_user_id: ids.provider_user_id ?? '76561197960287930',
  }) satisfies v10.APIUserApplicationIdentity;

const identityProfile = () =>
  ({ username: 'tollgate', metadata: null, data: null }) satisfies v10.APIApplicationIdentityProfile;

const accessToken = () =>
  ({
    access_token: 'reference-access-token',
    token_type: 'Bearer',
    expires_in: 604_800,
    refresh_token: 'reference-refresh-token',
    scope: 'identify',
  }) satisfies v10.RESTPostOAuth2AccessTokenResult;

const twoOf = <T>(make: (n: number) => T): T[] => [make(0), make(1)];
const nth = (ids: PathIds, name: string, n: number) => ({ ...ids, [name]: String(BigInt(id(ids, name)) + BigInt(n)) });

/** A sample per result type: each checked against it. */
const SAMPLES = {
  RESTGetAPIChannelResult: (ids) => channel(ids) satisfies v10.RESTGetAPIChannelResult,
  RESTPatchAPIChannelResult: (ids) => channel(ids) satisfies v10.RESTPatchAPIChannelResult,
  RESTDeleteAPIChannelResult: (ids) => channel(ids) satisfies v10.RESTDeleteAPIChannelResult,
  RESTPostAPIGuildChannelResult: (ids) => channel(ids) satisfies v10.RESTPostAPIGuildChannelResult,
  RESTGetAPIGuildChannelsResult: (ids) =>
    twoOf((n) => channel(nth(ids, 'channel_id', n))) satisfies v10.RESTGetAPIGuildChannelsResult,
  RESTPostAPICurrentUserCreateDMChannelResult: () =>
    dmChannel() satisfies v10.RESTPostAPICurrentUserCreateDMChannelResult,
  RESTGetAPIChannelInvitesResult: (ids) => [invite(ids)] satisfies v10.RESTGetAPIChannelInvitesResult,
  RESTPostAPIChannelInviteResult: (ids) => invite(ids) satisfies v10.RESTPostAPIChannelInviteResult,
  RESTGetAPIGuildInvitesResult: (ids) => [invite(ids)] satisfies v10.RESTGetAPIGuildInvitesResult,
  RESTGetAPIInviteResult: (ids) => invite(ids) satisfies v10.RESTGetAPIInviteResult,
  RESTDeleteAPIInviteResult: (ids) => invite(ids) satisfies v10.RESTDeleteAPIInviteResult,
  RESTGetAPIChannelMessagesResult: (ids) =>
    twoOf((n) => message(nth(ids, 'message_id', n))) satisfies v10.RESTGetAPIChannelMessagesResult,
  RESTPostAPIChannelMessageResult: (ids) => message(ids) satisfies v10.RESTPostAPIChannelMessageResult,
  RESTGetAPIChannelMessageResult: (ids) => message(ids) satisfies v10.RESTGetAPIChannelMessageResult,
  RESTPatchAPIChannelMessageResult: (ids) => message(ids) satisfies v10.RESTPatchAPIChannelMessageResult,
  RESTGetAPIChannelPinsResult: (ids) => [message(ids)] satisfies v10.RESTGetAPIChannelPinsResult,
  RESTGetAPIChannelMessageReactionUsersResult: () => [user()] satisfies v10.RESTGetAPIChannelMessageReactionUsersResult,
  RESTGetAPIUserResult: (ids) => user(id(ids, 'user_id')) satisfies v10.RESTGetAPIUserResult,
  RESTGetAPICurrentUserResult: () => user() satisfies v10.RESTGetAPICurrentUserResult,
  RESTPatchAPICurrentUserResult: () => user() satisfies v10.RESTPatchAPICurrentUserResult,
  RESTGetAPIChannelWebhooksResult: (ids) => [webhook(ids)] satisfies v10.RESTGetAPIChannelWebhooksResult,
  RESTPostAPIChannelWebhookResult: (ids) => webhook(ids) satisfies v10.RESTPostAPIChannelWebhookResult,
  RESTGetAPIGuildWebhooksResult: (ids) => [webhook(ids)] satisfies v10.RESTGetAPIGuildWebhooksResult,
  RESTGetAPIWebhookResult: (ids) => webhook(ids) satisfies v10.RESTGetAPIWebhookResult,
  RESTPatchAPIWebhookResult: (ids) => webhook(ids) satisfies v10.RESTPatchAPIWebhookResult,
  RESTGetAPIWebhookWithTokenResult: (ids) => webhook(ids) satisfies v10.RESTGetAPIWebhookWithTokenResult,
  RESTPatchAPIWebhookWithTokenResult: (ids) => webhook(ids) satisfies v10.RESTPatchAPIWebhookWithTokenResult,
  RESTGetAPIGuildResult: (ids) => guild(ids) satisfies v10.RESTGetAPIGuildResult,
  RESTPatchAPIGuildResult: (ids) => guild(ids) satisfies v10.RESTPatchAPIGuildResult,
  RESTPostAPIGuildsResult: (ids) => guild(ids) satisfies v10.RESTPostAPIGuildsResult,
  RESTGetAPIGuildBansResult: () => [{ reason: null, user: user() }] satisfies v10.RESTGetAPIGuildBansResult,
  RESTGetAPIGuildEmojisResult: (ids) => [emoji(ids)] satisfies v10.RESTGetAPIGuildEmojisResult,
  RESTPostAPIGuildEmojiResult: (ids) => emoji(ids) satisfies v10.RESTPostAPIGuildEmojiResult,
  RESTGetAPIGuildEmojiResult: (ids) => emoji(ids) satisfies v10.RESTGetAPIGuildEmojiResult,
  RESTPatchAPIGuildEmojiResult: (ids) => emoji(ids) satisfies v10.RESTPatchAPIGuildEmojiResult,
  RESTGetAPIGuildIntegrationsResult: () => [integration()] satisfies v10.RESTGetAPIGuildIntegrationsResult,
  RESTGetAPIGuildMembersResult: (ids) =>
    twoOf((n) => member(nth(ids, 'user_id', n))) satisfies v10.RESTGetAPIGuildMembersResult,
  RESTGetAPIGuildMemberResult: (ids) => member(ids) satisfies v10.RESTGetAPIGuildMemberResult,
  RESTPutAPIGuildMemberResult: (ids) => member(ids) satisfies v10.RESTPutAPIGuildMemberResult,
  RESTPatchAPIGuildMemberResult: (ids) => member(ids) satisfies v10.RESTPatchAPIGuildMemberResult,
  RESTPatchAPICurrentGuildMemberNicknameResult: () =>
    ({ nick: 'tollgate' }) satisfies v10.RESTPatchAPICurrentGuildMemberNicknameResult,
  RESTGetAPIGuildPruneCountResult: () => ({ pruned: 0 }) satisfies v10.RESTGetAPIGuildPruneCountResult,
  RESTPostAPIGuildPruneResult: () => ({ pruned: 0 }) satisfies v10.RESTPostAPIGuildPruneResult,
  RESTGetAPIGuildVoiceRegionsResult: () => [voiceRegion()] satisfies v10.RESTGetAPIGuildVoiceRegionsResult,
  RESTGetAPIVoiceRegionsResult: () => [voiceRegion()] satisfies v10.RESTGetAPIVoiceRegionsResult,
  RESTGetAPIGuildRolesResult: (ids) =>
    twoOf((n) => role(nth(ids, 'role_id', n))) satisfies v10.RESTGetAPIGuildRolesResult,
  RESTPostAPIGuildRoleResult: (ids) => role(ids) satisfies v10.RESTPostAPIGuildRoleResult,
  RESTPatchAPIGuildRolePositionsResult: (ids) => [role(ids)] satisfies v10.RESTPatchAPIGuildRolePositionsResult,
  RESTPatchAPIGuildRoleResult: (ids) => role(ids) satisfies v10.RESTPatchAPIGuildRoleResult,
  RESTGetAPIGatewayResult: () => ({ url: 'wss://gateway.reference.invalid' }) satisfies v10.RESTGetAPIGatewayResult,
  RESTGetAPIGatewayBotResult: () =>
    ({
      url: 'wss://gateway.reference.invalid',
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    }) satisfies v10.RESTGetAPIGatewayBotResult,
  RESTGetAPICurrentUserConnectionsResult: () => [connection()] satisfies v10.RESTGetAPICurrentUserConnectionsResult,
  RESTGetAPICurrentUserGuildsResult: (ids) =>
    [
      {
        id: id(ids, 'guild_id'),
        name: 'Reference Guild',
        icon: null,
        banner: null,
        owner: false,
        features: [],
        permissions: '0',
      },
    ] satisfies v10.RESTGetAPICurrentUserGuildsResult,
  RESTPostAPIChannelMessageCrosspostResult: (ids) =>
    message(ids) satisfies v10.RESTPostAPIChannelMessageCrosspostResult,
  RESTPostAPIChannelFollowersResult: (ids) =>
    ({ channel_id: id(ids, 'channel_id'), webhook_id: SNOWFLAKE }) satisfies v10.RESTPostAPIChannelFollowersResult,
  RESTGetAPIGuildPreviewResult: (ids) =>
    ({
      id: id(ids, 'guild_id'),
      name: 'Reference Guild',
      icon: null,
      splash: null,
      discovery_splash: null,
      emojis: [],
      features: [],
      approximate_member_count: 2,
      approximate_presence_count: 1,
      description: null,
      stickers: [],
    }) satisfies v10.RESTGetAPIGuildPreviewResult,
  RESTGetAPIGuildVanityUrlResult: () => ({ code: 'tollgate', uses: 0 }) satisfies v10.RESTGetAPIGuildVanityUrlResult,
  RESTGetAPIAuditLogResult: () =>
    ({
      application_commands: [],
      audit_log_entries: [],
      auto_moderation_rules: [],
      guild_scheduled_events: [],
      integrations: [],
      threads: [],
      users: [],
      webhooks: [],
    }) satisfies v10.RESTGetAPIAuditLogResult,
  RESTGetAPIGuildThreadsResult: () => ({ threads: [], members: [] }) satisfies v10.RESTGetAPIGuildThreadsResult,
  RESTGetAPIGuildMembersSearchResult: (ids) => [member(ids)] satisfies v10.RESTGetAPIGuildMembersSearchResult,
  RESTGetAPIGuildWidgetSettingsResult: (ids) =>
    ({ enabled: true, channel_id: id(ids, 'channel_id') }) satisfies v10.RESTGetAPIGuildWidgetSettingsResult,
  RESTPatchAPIGuildWidgetSettingsResult: (ids) =>
    ({ enabled: true, channel_id: id(ids, 'channel_id') }) satisfies v10.RESTPatchAPIGuildWidgetSettingsResult,
  RESTGetAPIGuildWidgetJSONResult: (ids) =>
    ({
      id: id(ids, 'guild_id'),
      name: 'Reference Guild',
      instant_invite: null,
      channels: [],
      members: [],
      presence_count: 1,
    }) satisfies v10.RESTGetAPIGuildWidgetJSONResult,
  RESTPostAPIGuildsMFAResult: () => ({ level: 1 as v10.GuildMFALevel }) satisfies v10.RESTPostAPIGuildsMFAResult,
  RESTPostAPIGuildBulkBanResult: () =>
    ({ banned_users: [SNOWFLAKE], failed_users: [] }) satisfies v10.RESTPostAPIGuildBulkBanResult,
  RESTGetAPIGuildRoleMemberCountsResult: (ids) =>
    ({ [id(ids, 'guild_id')]: 2 }) satisfies v10.RESTGetAPIGuildRoleMemberCountsResult,
  RESTGetAPIGuildVoiceStateUserResult: (ids) => voiceState(ids) satisfies v10.RESTGetAPIGuildVoiceStateUserResult,
  RESTGetAPIGuildVoiceStateCurrentMemberResult: (ids) =>
    voiceState(ids) satisfies v10.RESTGetAPIGuildVoiceStateCurrentMemberResult,
  RESTGetCurrentUserGuildMemberResult: (ids) => member(ids) satisfies v10.RESTGetCurrentUserGuildMemberResult,
  RESTGetAPIWebhookWithTokenMessageResult: (ids) => message(ids) satisfies v10.RESTGetAPIWebhookWithTokenMessageResult,
  RESTPatchAPIWebhookWithTokenMessageResult: (ids) =>
    message(ids) satisfies v10.RESTPatchAPIWebhookWithTokenMessageResult,
  RESTGetAPIApplicationCommandsResult: (ids) =>
    twoOf((n) => command(nth(ids, 'command_id', n))) satisfies v10.RESTGetAPIApplicationCommandsResult,
  RESTPostAPIApplicationCommandsResult: (ids) => command(ids) satisfies v10.RESTPostAPIApplicationCommandsResult,
  RESTPutAPIApplicationCommandsResult: (ids) => [command(ids)] satisfies v10.RESTPutAPIApplicationCommandsResult,
  RESTGetAPIApplicationCommandResult: (ids) => command(ids) satisfies v10.RESTGetAPIApplicationCommandResult,
  RESTPatchAPIApplicationCommandResult: (ids) => command(ids) satisfies v10.RESTPatchAPIApplicationCommandResult,
  RESTGetAPIApplicationGuildCommandsResult: (ids) =>
    twoOf((n) => command(nth(ids, 'command_id', n))) satisfies v10.RESTGetAPIApplicationGuildCommandsResult,
  RESTPostAPIApplicationGuildCommandsResult: (ids) =>
    command(ids) satisfies v10.RESTPostAPIApplicationGuildCommandsResult,
  RESTPutAPIApplicationGuildCommandsResult: (ids) =>
    [command(ids)] satisfies v10.RESTPutAPIApplicationGuildCommandsResult,
  RESTGetAPIApplicationGuildCommandResult: (ids) => command(ids) satisfies v10.RESTGetAPIApplicationGuildCommandResult,
  RESTPatchAPIApplicationGuildCommandResult: (ids) =>
    command(ids) satisfies v10.RESTPatchAPIApplicationGuildCommandResult,
  RESTGetAPIChannelMessagesPinsResult: (ids) =>
    ({
      items: [{ pinned_at: TIMESTAMP, message: message(ids) }],
      has_more: false,
    }) satisfies v10.RESTGetAPIChannelMessagesPinsResult,
  RESTGetAPIGuildStickersResult: (ids) => [sticker(ids)] satisfies v10.RESTGetAPIGuildStickersResult,
  RESTPostAPIGuildStickerResult: (ids) => sticker(ids) satisfies v10.RESTPostAPIGuildStickerResult,
  RESTGetAPIGuildStickerResult: (ids) => sticker(ids) satisfies v10.RESTGetAPIGuildStickerResult,
  RESTPatchAPIGuildStickerResult: (ids) => sticker(ids) satisfies v10.RESTPatchAPIGuildStickerResult,
  RESTGetAPIStickerResult: (ids) => sticker(ids) satisfies v10.RESTGetAPIStickerResult,
  RESTGetStickerPacksResult: (ids) => ({ sticker_packs: [stickerPack(ids)] }) satisfies v10.RESTGetStickerPacksResult,
  RESTGetAPIStickerPackResult: (ids) => stickerPack(ids) satisfies v10.RESTGetAPIStickerPackResult,
  RESTGetAPIGuildWelcomeScreenResult: (ids) => welcomeScreen(ids) satisfies v10.RESTGetAPIGuildWelcomeScreenResult,
  RESTPatchAPIGuildWelcomeScreenResult: (ids) => welcomeScreen(ids) satisfies v10.RESTPatchAPIGuildWelcomeScreenResult,
  RESTGetAPIChannelThreadMemberResult: (ids) =>
    ({
      id: id(ids, 'channel_id'),
      user_id: id(ids, 'user_id'),
      join_timestamp: TIMESTAMP,
      flags: 0 as v10.ThreadMemberFlags,
    }) satisfies v10.RESTGetAPIChannelThreadMemberResult,
  RESTGetAPIPollAnswerVotersResult: () => ({ users: [user()] }) satisfies v10.RESTGetAPIPollAnswerVotersResult,
  RESTPostAPIPollExpireResult: (ids) => message(ids) satisfies v10.RESTPostAPIPollExpireResult,
  RESTGetAPIApplicationEmojisResult: (ids) =>
    ({ items: [applicationEmoji(ids)] }) satisfies v10.RESTGetAPIApplicationEmojisResult,
  RESTPostAPIApplicationEmojiResult: (ids) => applicationEmoji(ids) satisfies v10.RESTPostAPIApplicationEmojiResult,
  RESTGetAPIApplicationEmojiResult: (ids) => applicationEmoji(ids) satisfies v10.RESTGetAPIApplicationEmojiResult,
  RESTPatchAPIApplicationEmojiResult: (ids) => applicationEmoji(ids) satisfies v10.RESTPatchAPIApplicationEmojiResult,
  RESTPostAPIStageInstanceResult: (ids) => stageInstance(ids) satisfies v10.RESTPostAPIStageInstanceResult,
  RESTGetAPIStageInstanceResult: (ids) => stageInstance(ids) satisfies v10.RESTGetAPIStageInstanceResult,
  RESTPatchAPIStageInstanceResult: (ids) => stageInstance(ids) satisfies v10.RESTPatchAPIStageInstanceResult,
  RESTGetAPISoundboardDefaultSoundsResult: () =>
    [
      { name: 'quack', sound_id: '1', volume: 1, emoji_id: null, emoji_name: '🦆', available: true },
    ] satisfies v10.RESTGetAPISoundboardDefaultSoundsResult,
  RESTGetAPIApplicationRoleConnectionMetadataResult: () =>
    [] satisfies v10.RESTGetAPIApplicationRoleConnectionMetadataResult,
  RESTPutAPIApplicationRoleConnectionMetadataResult: () =>
    [] satisfies v10.RESTPutAPIApplicationRoleConnectionMetadataResult,
  RESTGetAPIGuildApplicationCommandsPermissionsResult: (ids) =>
    [commandPermissions(ids)] satisfies v10.RESTGetAPIGuildApplicationCommandsPermissionsResult,
  RESTGetAPIApplicationCommandPermissionsResult: (ids) =>
    commandPermissions(ids) satisfies v10.RESTGetAPIApplicationCommandPermissionsResult,
  RESTPutAPIApplicationCommandPermissionsResult: (ids) =>
    commandPermissions(ids) satisfies v10.RESTPutAPIApplicationCommandPermissionsResult,
  RESTGetAPIChannelThreadsArchivedPublicResult: () =>
    ({ threads: [], members: [], has_more: false }) satisfies v10.RESTGetAPIChannelThreadsArchivedPublicResult,
  RESTGetAPIChannelThreadsArchivedPrivateResult: () =>
    ({ threads: [], members: [], has_more: false }) satisfies v10.RESTGetAPIChannelThreadsArchivedPrivateResult,
  RESTGetAPIChannelUsersThreadsArchivedResult: () =>
    ({ threads: [], members: [], has_more: false }) satisfies v10.RESTGetAPIChannelUsersThreadsArchivedResult,
  RESTGetAPIGuildSoundboardSoundsResult: (ids) =>
    ({ items: [soundboardSound(ids)] }) satisfies v10.RESTGetAPIGuildSoundboardSoundsResult,
  RESTPostAPIGuildSoundboardSoundResult: (ids) =>
    soundboardSound(ids) satisfies v10.RESTPostAPIGuildSoundboardSoundResult,
  RESTGetAPIGuildSoundboardSoundResult: (ids) =>
    soundboardSound(ids) satisfies v10.RESTGetAPIGuildSoundboardSoundResult,
  RESTPatchAPIGuildSoundboardSoundResult: (ids) =>
    soundboardSound(ids) satisfies v10.RESTPatchAPIGuildSoundboardSoundResult,
  RESTGetAPICurrentUserApplicationRoleConnectionResult: () =>
    roleConnection() satisfies v10.RESTGetAPICurrentUserApplicationRoleConnectionResult,
  RESTPutAPICurrentUserApplicationRoleConnectionResult: () =>
    roleConnection() satisfies v10.RESTPutAPICurrentUserApplicationRoleConnectionResult,
  RESTGetAPIEntitlementsResult: (ids) => [entitlement(ids)] satisfies v10.RESTGetAPIEntitlementsResult,
  RESTPostAPIEntitlementResult: (ids) => entitlement(ids) satisfies v10.RESTPostAPIEntitlementResult,
  RESTGetAPIEntitlementResult: (ids) => entitlement(ids) satisfies v10.RESTGetAPIEntitlementResult,
  RESTPostAPIChannelMessagesThreadsResult: (ids) => thread(ids) satisfies v10.RESTPostAPIChannelMessagesThreadsResult,
  RESTGetAPIGuildScheduledEventsResult: (ids) =>
    [scheduledEvent(ids)] satisfies v10.RESTGetAPIGuildScheduledEventsResult,
  RESTPostAPIGuildScheduledEventResult: (ids) => scheduledEvent(ids) satisfies v10.RESTPostAPIGuildScheduledEventResult,
  RESTGetAPIGuildScheduledEventResult: (ids) => scheduledEvent(ids) satisfies v10.RESTGetAPIGuildScheduledEventResult,
  RESTPatchAPIGuildScheduledEventResult: (ids) =>
    scheduledEvent(ids) satisfies v10.RESTPatchAPIGuildScheduledEventResult,
  RESTGetAPIGuildScheduledEventUsersResult: (ids) =>
    [
      { guild_scheduled_event_id: id(ids, 'event_id'), user: user() },
    ] satisfies v10.RESTGetAPIGuildScheduledEventUsersResult,
  RESTGetAPIAutoModerationRulesResult: (ids) =>
    [autoModerationRule(ids)] satisfies v10.RESTGetAPIAutoModerationRulesResult,
  RESTPostAPIAutoModerationRuleResult: (ids) =>
    autoModerationRule(ids) satisfies v10.RESTPostAPIAutoModerationRuleResult,
  RESTGetAPIAutoModerationRuleResult: (ids) => autoModerationRule(ids) satisfies v10.RESTGetAPIAutoModerationRuleResult,
  RESTPatchAPIAutoModerationRuleResult: (ids) =>
    autoModerationRule(ids) satisfies v10.RESTPatchAPIAutoModerationRuleResult,
  RESTGetAPIGuildOnboardingResult: (ids) => onboarding(ids) satisfies v10.RESTGetAPIGuildOnboardingResult,
  RESTPutAPIGuildOnboardingResult: (ids) => onboarding(ids) satisfies v10.RESTPutAPIGuildOnboardingResult,
  RESTPutAPIGuildIncidentActionsResult: () =>
    ({ invites_disabled_until: null, dms_disabled_until: null }) satisfies v10.RESTPutAPIGuildIncidentActionsResult,
  RESTGetAPIGuildMemberVerificationResult: () =>
    memberVerification() satisfies v10.RESTGetAPIGuildMemberVerificationResult,
  RESTPatchAPIGuildMemberVerificationResult: () =>
    memberVerification() satisfies v10.RESTPatchAPIGuildMemberVerificationResult,
  RESTGetAPISKUsResult: (ids) =>
    [
      {
        id: SNOWFLAKE,
        type: 5 as v10.SKUType.Subscription,
        application_id: id(ids, 'application_id'),
        name: 'Premium',
        slug: 'premium',
        flags: 0 as v10.SKUFlags,
      },
    ] satisfies v10.RESTGetAPISKUsResult,
  RESTGetAPISKUSubscriptionsResult: (ids) => [subscription(ids)] satisfies v10.RESTGetAPISKUSubscriptionsResult,
  RESTGetAPISKUSubscriptionResult: (ids) => subscription(ids) satisfies v10.RESTGetAPISKUSubscriptionResult,
  RESTGetAPIGuildTemplatesResult: (ids) => [template(ids)] satisfies v10.RESTGetAPIGuildTemplatesResult,
  RESTPostAPIGuildTemplatesResult: (ids) => template(ids) satisfies v10.RESTPostAPIGuildTemplatesResult,
  RESTPutAPIGuildTemplateSyncResult: (ids) => template(ids) satisfies v10.RESTPutAPIGuildTemplateSyncResult,
  RESTPatchAPIGuildTemplateResult: (ids) => template(ids) satisfies v10.RESTPatchAPIGuildTemplateResult,
  RESTDeleteAPIGuildTemplateResult: (ids) => template(ids) satisfies v10.RESTDeleteAPIGuildTemplateResult,
  RESTGetAPITemplateResult: (ids) => template(ids) satisfies v10.RESTGetAPITemplateResult,
  RESTGetAPIGuildWidgetResult: (ids) =>
    ({ enabled: true, channel_id: id(ids, 'channel_id') }) satisfies v6.RESTGetAPIGuildWidgetResult,
  RESTPatchAPIGuildWidgetResult: (ids) =>
    ({ enabled: true, channel_id: id(ids, 'channel_id') }) satisfies v6.RESTPatchAPIGuildWidgetResult,
  RESTGetAPIGuildBanResult: (ids) => ({ reason: null, user: user(ids.user_id) }) satisfies v10.RESTGetAPIGuildBanResult,
  RESTPatchAPICurrentGuildMemberResult: (ids) => member(ids) satisfies v10.RESTPatchAPICurrentGuildMemberResult,
  RESTGetAPIGuildRoleResult: (ids) => role(ids) satisfies v10.RESTGetAPIGuildRoleResult,
  RESTGetAPIChannelThreadMembersResult: (ids) =>
    [
      { id: id(ids, 'channel_id'), user_id: user().id, join_timestamp: TIMESTAMP, flags: 0 as v10.ThreadMemberFlags },
    ] satisfies v10.RESTGetAPIChannelThreadMembersResult,
  RESTPostAPIChannelThreadsResult: (ids) => thread(ids) satisfies v10.RESTPostAPIChannelThreadsResult,
  RESTGetAPIInteractionOriginalResponseResult: (ids) =>
    message(ids) satisfies v10.RESTGetAPIInteractionOriginalResponseResult,
  RESTPatchAPIInteractionOriginalResponseResult: (ids) =>
    message(ids) satisfies v10.RESTPatchAPIInteractionOriginalResponseResult,
  RESTPostAPIInteractionFollowupResult: (ids) => message(ids) satisfies v10.RESTPostAPIInteractionFollowupResult,
  RESTGetAPIInteractionFollowupResult: (ids) => message(ids) satisfies v10.RESTGetAPIInteractionFollowupResult,
  RESTPatchAPIInteractionFollowupResult: (ids) => message(ids) satisfies v10.RESTPatchAPIInteractionFollowupResult,
  RESTPutAPIGuildApplicationCommandsPermissionsResult: (ids) =>
    [commandPermissions(ids)] satisfies v10.RESTPutAPIGuildApplicationCommandsPermissionsResult,
  RESTPostAPITemplateCreateGuildResult: (ids) => guild(ids) satisfies v10.RESTPostAPITemplateCreateGuildResult,
  RESTGetAPIInviteTargetUsersJobStatusResult: () =>
    ({
      status: 2 as v10.InviteTargetUsersJobStatus,
      total_users: 2,
      processed_users: 2,
      created_at: TIMESTAMP,
      completed_at: TIMESTAMP,
      error_message: null,
    }) satisfies v10.RESTGetAPIInviteTargetUsersJobStatusResult,
  RESTGetCurrentApplicationResult: (ids) => application(ids) satisfies v10.RESTGetCurrentApplicationResult,
  RESTPatchCurrentApplicationResult: (ids) => application(ids) satisfies v10.RESTPatchCurrentApplicationResult,
  RESTGetAPIOAuth2CurrentApplicationResult: (ids) =>
    application(ids) satisfies v10.RESTGetAPIOAuth2CurrentApplicationResult,
  RESTGetAPIOAuth2CurrentAuthorizationResult: (ids) =>
    ({
      application: application(ids),
      scopes: ['identify' as v10.OAuth2Scopes],
      expires: TIMESTAMP,
      user: user(),
    }) satisfies v10.RESTGetAPIOAuth2CurrentAuthorizationResult,
  'RESTPostOAuth2AccessTokenResult | RESTPostOAuth2ClientCredentialsResult': () =>
    accessToken() satisfies v10.RESTPostOAuth2AccessTokenResult | v10.RESTPostOAuth2ClientCredentialsResult,
  RESTGetAPIApplicationActivityInstanceResult: (ids) =>
    ({
      application_id: id(ids, 'application_id'),
      instance_id: ids.instance_id ?? 'i-1234',
      launch_id: SNOWFLAKE,
      location: {
        id: 'gc-1',
        kind: 'gc' as v10.ActivityLocationKind,
        channel_id: id(ids, 'channel_id'),
        guild_id: id(ids, 'guild_id'),
      },
      users: [user().id],
    }) satisfies v10.RESTGetAPIApplicationActivityInstanceResult,
  RESTGetAPIApplicationIdentitiesResult: (ids) =>
    ({ identities: [identity(ids)] }) satisfies v10.RESTGetAPIApplicationIdentitiesResult,
  RESTGetAPIUserApplicationIdentitiesResult: (ids) =>
    ({ identities: [identity(ids)] }) satisfies v10.RESTGetAPIUserApplicationIdentitiesResult,
  RESTGetAPIApplicationIdentityProfileResult: () =>
    identityProfile() satisfies v10.RESTGetAPIApplicationIdentityProfileResult,
  RESTPatchAPIApplicationIdentityProfileResult: () =>
    identityProfile() satisfies v10.RESTPatchAPIApplicationIdentityProfileResult,
  RESTGetAPIGuildMessagesSearchResult: (ids) =>
    ({
      doing_deep_historical_index: false,
      total_results: 1,
      messages: [[message(ids)]],
    }) satisfies v10.RESTGetAPIGuildMessagesSearchResult,
  RESTGetAPIGuildWidgetImageResult: () => new BinaryBody('image/png', WIDGET_PNG),
  RESTGetAPIInviteTargetUsersResult: () =>
    new BinaryBody('text/csv', new TextEncoder().encode(`user_id\n${user().id}\n`)),
} satisfies Record<string, (ids: PathIds) => unknown>;

/** Whether a result type is empty (the service answers 204): `never` or `undefined`. */
type IsEmpty<Result> = [Result] extends [never] ? true : [Result] extends [undefined] ? true : false;

/** Compiles only for an empty result type. */
const empty = <Result>(...check: IsEmpty<Result> extends true ? [] : [never]): boolean => check.length === 0;

/** The result types the service answers empty (204), each checked to be empty. */
const EMPTY = {
  RESTPostAPIWebhookWithTokenSlackResult: empty<v10.RESTPostAPIWebhookWithTokenSlackResult>(),
  RESTDeleteAPIGuildScheduledEventResult: empty<v10.RESTDeleteAPIGuildScheduledEventResult>(),
  RESTDeleteAPIAutoModerationRuleResult: empty<v10.RESTDeleteAPIAutoModerationRuleResult>(),
  RESTDeleteAPIGuildSoundboardSoundResult: empty<v10.RESTDeleteAPIGuildSoundboardSoundResult>(),
  RESTDeleteAPIEntitlementResult: empty<v10.RESTDeleteAPIEntitlementResult>(),
  RESTPostAPIEntitlementConsumeResult: empty<v10.RESTPostAPIEntitlementConsumeResult>(),
  RESTPutAPIChannelThreadMembersResult: empty<v10.RESTPutAPIChannelThreadMembersResult>(),
  RESTDeleteAPIChannelThreadMembersResult: empty<v10.RESTDeleteAPIChannelThreadMembersResult>(),
  RESTPostAPISendSoundboardSoundResult: empty<v10.RESTPostAPISendSoundboardSoundResult>(),
  RESTDeleteAPIApplicationEmojiResult: empty<v10.RESTDeleteAPIApplicationEmojiResult>(),
  RESTDeleteAPIStageInstanceResult: empty<v10.RESTDeleteAPIStageInstanceResult>(),
  RESTPutAPIChannelMessagesPinResult: empty<v10.RESTPutAPIChannelMessagesPinResult>(),
  RESTDeleteAPIChannelMessagesPinResult: empty<v10.RESTDeleteAPIChannelMessagesPinResult>(),
  RESTPutAPIChannelVoiceStatusResult: empty<v10.RESTPutAPIChannelVoiceStatusResult>(),
  RESTDeleteAPIGuildStickerResult: empty<v10.RESTDeleteAPIGuildStickerResult>(),
  RESTPostAPIInteractionCallbackResult: empty<v10.RESTPostAPIInteractionCallbackResult>(),
  RESTDeleteAPIWebhookWithTokenMessageResult: empty<v10.RESTDeleteAPIWebhookWithTokenMessageResult>(),
  RESTPatchAPIGuildVoiceStateUserResult: empty<v10.RESTPatchAPIGuildVoiceStateUserResult>(),
  RESTDeleteAPIChannelAllMessageReactionsResult: empty<v10.RESTDeleteAPIChannelAllMessageReactionsResult>(),
  RESTDeleteAPIChannelMessageOwnReactionResult: empty<v10.RESTDeleteAPIChannelMessageOwnReactionResult>(),
  RESTDeleteAPIChannelMessageResult: empty<v10.RESTDeleteAPIChannelMessageResult>(),
  RESTDeleteAPIChannelMessageUserReactionResult: empty<v10.RESTDeleteAPIChannelMessageUserReactionResult>(),
  RESTDeleteAPIChannelPermissionResult: empty<v10.RESTDeleteAPIChannelPermissionResult>(),
  RESTDeleteAPIChannelPinResult: empty<v10.RESTDeleteAPIChannelPinResult>(),
  RESTDeleteAPICurrentUserGuildResult: empty<v10.RESTDeleteAPICurrentUserGuildResult>(),
  RESTDeleteAPIGuildBanResult: empty<v10.RESTDeleteAPIGuildBanResult>(),
  RESTDeleteAPIGuildEmojiResult: empty<v10.RESTDeleteAPIGuildEmojiResult>(),
  RESTDeleteAPIGuildIntegrationResult: empty<v10.RESTDeleteAPIGuildIntegrationResult>(),
  RESTDeleteAPIGuildMemberResult: empty<v10.RESTDeleteAPIGuildMemberResult>(),
  RESTDeleteAPIGuildMemberRoleResult: empty<v10.RESTDeleteAPIGuildMemberRoleResult>(),
  RESTDeleteAPIGuildResult: empty<v10.RESTDeleteAPIGuildResult>(),
  RESTDeleteAPIGuildRoleResult: empty<v10.RESTDeleteAPIGuildRoleResult>(),
  RESTDeleteAPIWebhookResult: empty<v10.RESTDeleteAPIWebhookResult>(),
  RESTDeleteAPIWebhookWithTokenResult: empty<v10.RESTDeleteAPIWebhookWithTokenResult>(),
  RESTPatchAPIGuildChannelPositionsResult: empty<v10.RESTPatchAPIGuildChannelPositionsResult>(),
  RESTPatchAPIGuildIntegrationResult: empty<v6.RESTPatchAPIGuildIntegrationResult>(),
  RESTPostAPIChannelMessagesBulkDeleteResult: empty<v10.RESTPostAPIChannelMessagesBulkDeleteResult>(),
  RESTPostAPIChannelTypingResult: empty<v10.RESTPostAPIChannelTypingResult>(),
  RESTPostAPIGuildIntegrationResult: empty<v6.RESTPostAPIGuildIntegrationResult>(),
  RESTPostAPIGuildIntegrationSyncResult: empty<v6.RESTPostAPIGuildIntegrationSyncResult>(),
  RESTPostAPIWebhookWithTokenResult: empty<v10.RESTPostAPIWebhookWithTokenResult>(),
  RESTPutAPIChannelMessageReactionResult: empty<v10.RESTPutAPIChannelMessageReactionResult>(),
  RESTPutAPIChannelPermissionResult: empty<v10.RESTPutAPIChannelPermissionResult>(),
  RESTPutAPIChannelPinResult: empty<v10.RESTPutAPIChannelPinResult>(),
  RESTPutAPIGuildBanResult: empty<v10.RESTPutAPIGuildBanResult>(),
  RESTPutAPIGuildMemberRoleResult: empty<v10.RESTPutAPIGuildMemberRoleResult>(),
  RESTDeleteAPIChannelMessageReactionResult: empty<v10.RESTDeleteAPIChannelMessageReactionResult>(),
  RESTPatchAPIGuildVoiceStateCurrentMemberResult: empty<v10.RESTPatchAPIGuildVoiceStateCurrentMemberResult>(),
  RESTDeleteAPIInteractionOriginalResponseResult: empty<v10.RESTDeleteAPIInteractionOriginalResponseResult>(),
  RESTDeleteAPIInteractionFollowupResult: empty<v10.RESTDeleteAPIInteractionFollowupResult>(),
  RESTDeleteAPICurrentUserApplicationRoleConnectionResult:
    empty<v10.RESTDeleteAPICurrentUserApplicationRoleConnectionResult>(),
  RESTPutAPIInviteTargetUsersResult: empty<v10.RESTPutAPIInviteTargetUsersResult>(),
  RESTPostAPIApplicationIdentityDeleteResult: empty<v10.RESTPostAPIApplicationIdentityDeleteResult>(),
  /** The catalog's word for 204 where discord-api-types names no type. */
  undefined: true,
} satisfies Record<string, boolean>;

/** The service answers this result type empty (204). */
export const isEmptyResult = (resultType: string): boolean => resultType in EMPTY;

/**
 * The body a successful call of `operationName` answers with: a sample of its result type, or
 * `undefined` for results the service sends empty (204). Operations without a result type answer
 * `fallback`.
 */
export function sampleResult(operationName: string, ids: PathIds, fallback: unknown): unknown {
  const resultType = catalogOperation(operationName)?.types?.result;
  if (resultType === undefined) return fallback;
  if (resultType in EMPTY) return undefined;
  const sample = (SAMPLES as Record<string, ((ids: PathIds) => unknown) | undefined>)[resultType];
  if (!sample)
    throw new Error(`reference service: no sample for ${resultType} (${operationName}); add one to fixtures.ts`);
  return sample(ids);
}

/** The catalog operation a request calls (catalog-match.ts; kept here for its earlier importers). */
export { operationOf } from './catalog-match.ts';
