/**
 * The catalog's CDN section: every image endpoint of the service's CDN
 * (https://discord.com/developers/docs/reference#image-formatting), as discord-api-types'
 * `CDNRoutes` lists them (checked by test/catalog/cdn-coverage.test.ts), with the extensions each
 * serves (the default first). Data only: `schema.ts` validates it with `cdn-schema.ts` and the
 * generator turns it into `generated/cdn.ts` (`cdn.userAvatar(userId, hash, { size: 256 })`).
 *
 * Choices the table leaves open: WebP is the default wherever it is served (the documentation
 * recommends it; the service's own client uses it); an animated image is asked for as animated
 * WebP (`.webp?animated=true`), which works whatever format it was uploaded in, where a GIF may
 * not convert cleanly; `jpeg` is the one spelling of JPEG (as discord-api-types' `ImageFormat`).
 */
import type { CdnCatalog } from './cdn-schema.ts';

/** Served as WebP (the default), PNG, JPEG or GIF: the images that may be animated. */
const ANIMATED = ['webp', 'png', 'jpeg', 'gif'] as const;
/** Served as WebP (the default), PNG or JPEG: still images. */
const STILL = ['webp', 'png', 'jpeg'] as const;

export const cdnCatalog: CdnCatalog = {
  parameters: {
    application_id: 'snowflake',
    achievement_id: 'snowflake',
    banner_asset_id: 'snowflake',
    emoji_id: 'snowflake',
    guild_id: 'snowflake',
    role_id: 'snowflake',
    scheduled_event_id: 'snowflake',
    sound_id: 'snowflake',
    sticker_id: 'snowflake',
    team_id: 'snowflake',
    user_id: 'snowflake',
    asset_id: 'hash',
    avatar_hash: 'hash',
    badge_hash: 'hash',
    banner_hash: 'hash',
    cover_hash: 'hash',
    decoration_asset: 'hash',
    decoration_hash: 'hash',
    icon_hash: 'hash',
    splash_hash: 'hash',
    index: 'index',
  },
  endpoints: [
    {
      name: 'emoji',
      summary: 'Custom Emoji',
      path: '/emojis/{emoji_id}',
      extensions: [...ANIMATED],
      animated: 'option',
      note: 'The id does not tell whether the emoji is animated: pass `{ animated: emoji.animated }`. The service recommends WebP for emoji; one uploaded as WebP or AVIF must be asked for as WebP (it does not convert well to other formats).',
    },
    {
      name: 'guildIcon',
      summary: 'Guild Icon',
      path: '/icons/{guild_id}/{icon_hash}',
      extensions: [...ANIMATED],
      animated: 'hash',
    },
    {
      name: 'guildSplash',
      summary: 'Guild Splash',
      path: '/splashes/{guild_id}/{splash_hash}',
      extensions: [...STILL],
    },
    {
      name: 'guildDiscoverySplash',
      summary: 'Guild Discovery Splash',
      path: '/discovery-splashes/{guild_id}/{splash_hash}',
      extensions: [...STILL],
    },
    {
      name: 'guildBanner',
      summary: 'Guild Banner',
      path: '/banners/{guild_id}/{banner_hash}',
      extensions: [...ANIMATED],
      animated: 'hash',
    },
    {
      name: 'userBanner',
      summary: 'User Banner',
      path: '/banners/{user_id}/{banner_hash}',
      extensions: [...ANIMATED],
      animated: 'hash',
    },
    {
      name: 'defaultUserAvatar',
      summary: 'Default User Avatar',
      path: '/embed/avatars/{index}',
      extensions: ['png'],
      sizeIgnored: true,
      note: 'The index is `(user_id >> 22) % 6`, or `discriminator % 5` for a user not yet migrated to unique usernames: `defaultAvatarIndex(userId, discriminator?)` computes it.',
    },
    {
      name: 'userAvatar',
      summary: 'User Avatar',
      path: '/avatars/{user_id}/{avatar_hash}',
      extensions: [...ANIMATED],
      animated: 'hash',
    },
    {
      name: 'guildMemberAvatar',
      summary: 'Guild Member Avatar',
      path: '/guilds/{guild_id}/users/{user_id}/avatars/{avatar_hash}',
      extensions: [...ANIMATED],
      animated: 'hash',
    },
    {
      name: 'userAvatarDecoration',
      summary: 'Avatar Decoration (per user)',
      path: '/avatar-decorations/{user_id}/{decoration_hash}',
      extensions: ['png'],
      deprecated:
        'The service now serves decorations by their asset: use `cdn.avatarDecoration(user.avatar_decoration_data.asset)`.',
    },
    {
      name: 'avatarDecoration',
      summary: 'Avatar Decoration',
      path: '/avatar-decoration-presets/{decoration_asset}',
      extensions: ['png'],
      note: 'The asset is `avatar_decoration_data.asset`; an `a_` asset is an animated PNG, served as PNG like the rest.',
    },
    {
      name: 'applicationIcon',
      summary: 'Application Icon',
      path: '/app-icons/{application_id}/{icon_hash}',
      extensions: [...STILL],
    },
    {
      name: 'applicationCover',
      summary: 'Application Cover',
      path: '/app-icons/{application_id}/{cover_hash}',
      extensions: [...STILL],
    },
    {
      name: 'applicationAsset',
      summary: 'Application Asset',
      path: '/app-assets/{application_id}/{asset_id}',
      extensions: [...STILL],
    },
    {
      name: 'achievementIcon',
      summary: 'Achievement Icon',
      path: '/app-assets/{application_id}/achievements/{achievement_id}/icons/{icon_hash}',
      extensions: [...STILL],
    },
    {
      name: 'stickerPackBanner',
      summary: 'Sticker Pack Banner',
      path: '/app-assets/710982414301790216/store/{banner_asset_id}',
      extensions: [...STILL],
      note: "The asset is the sticker pack's `banner_asset_id`; 710982414301790216 is the application every sticker pack belongs to.",
    },
    {
      name: 'storePageAsset',
      summary: 'Store Page Asset',
      path: '/app-assets/{application_id}/store/{asset_id}',
      extensions: [...STILL],
    },
    { name: 'teamIcon', summary: 'Team Icon', path: '/team-icons/{team_id}/{icon_hash}', extensions: [...STILL] },
    {
      name: 'sticker',
      summary: 'Sticker',
      path: '/stickers/{sticker_id}',
      extensions: ['png', 'json', 'gif'],
      sizeIgnored: true,
      mediaProxy: ['gif'],
      note: "Ask for the sticker's own format: `png` for a PNG or APNG sticker, `gif` for a GIF one, `json` for a Lottie one (its `format_type`).",
    },
    { name: 'roleIcon', summary: 'Role Icon', path: '/role-icons/{role_id}/{icon_hash}', extensions: [...STILL] },
    {
      name: 'guildScheduledEventCover',
      summary: 'Guild Scheduled Event Cover',
      path: '/guild-events/{scheduled_event_id}/{cover_hash}',
      extensions: [...STILL],
    },
    {
      name: 'guildMemberBanner',
      summary: 'Guild Member Banner',
      path: '/guilds/{guild_id}/users/{user_id}/banners/{banner_hash}',
      extensions: [...ANIMATED],
      animated: 'hash',
    },
    {
      name: 'soundboardSound',
      summary: 'Soundboard Sound',
      path: '/soundboard-sounds/{sound_id}',
      extensions: [],
      sizeIgnored: true,
      note: 'The sound file (MP3 or Ogg), without an extension.',
    },
    {
      name: 'guildTagBadge',
      summary: 'Guild Tag Badge',
      path: '/guild-tag-badges/{guild_id}/{badge_hash}',
      extensions: [...STILL],
    },
  ],
};
