/**
 * Type tests of the CDN URL helpers: each endpoint's extensions are a union (discord-api-types'
 * own format type for the route), sizes are the CDN's powers of two, ids are strings or bigints.
 */
import type {
  AchievementIconFormat,
  ApplicationAssetFormat,
  ApplicationCoverFormat,
  ApplicationIconFormat,
  DefaultUserAvatarFormat,
  EmojiFormat,
  GuildBannerFormat,
  GuildDiscoverySplashFormat,
  GuildIconFormat,
  GuildMemberAvatarFormat,
  GuildMemberBannerFormat,
  GuildScheduledEventCoverFormat,
  GuildSplashFormat,
  GuildTagBadgeFormat,
  RoleIconFormat,
  StickerFormat,
  StickerPackBannerFormat,
  StorePageAssetFormat,
  TeamIconFormat,
  UserAvatarFormat,
  UserBannerFormat,
} from 'discord-api-types/v10';
import { describe, expectTypeOf, it } from 'vitest';
import {
  cdn,
  createCdn,
  defaultAvatarIndex,
  type AchievementIconExtension,
  type ApplicationAssetExtension,
  type ApplicationCoverExtension,
  type ApplicationIconExtension,
  type AvatarDecorationExtension,
  type Cdn,
  type CdnImageSize,
  type DefaultAvatarIndex,
  type DefaultUserAvatarExtension,
  type EmojiExtension,
  type GuildBannerExtension,
  type GuildDiscoverySplashExtension,
  type GuildIconExtension,
  type GuildMemberAvatarExtension,
  type GuildMemberBannerExtension,
  type GuildScheduledEventCoverExtension,
  type GuildSplashExtension,
  type GuildTagBadgeExtension,
  type RoleIconExtension,
  type StickerExtension,
  type StickerPackBannerExtension,
  type StorePageAssetExtension,
  type TeamIconExtension,
  type UserAvatarDecorationExtension,
  type UserAvatarExtension,
  type UserBannerExtension,
} from '../../src/index.ts';

describe('CDN URL helpers', () => {
  it('each extension union is the format type discord-api-types gives the route', () => {
    expectTypeOf<EmojiExtension>().toEqualTypeOf<`${EmojiFormat}`>();
    expectTypeOf<GuildIconExtension>().toEqualTypeOf<`${GuildIconFormat}`>();
    expectTypeOf<GuildSplashExtension>().toEqualTypeOf<`${GuildSplashFormat}`>();
    expectTypeOf<GuildDiscoverySplashExtension>().toEqualTypeOf<`${GuildDiscoverySplashFormat}`>();
    expectTypeOf<GuildBannerExtension>().toEqualTypeOf<`${GuildBannerFormat}`>();
    expectTypeOf<UserBannerExtension>().toEqualTypeOf<`${UserBannerFormat}`>();
    expectTypeOf<DefaultUserAvatarExtension>().toEqualTypeOf<`${DefaultUserAvatarFormat}`>();
    expectTypeOf<UserAvatarExtension>().toEqualTypeOf<`${UserAvatarFormat}`>();
    expectTypeOf<GuildMemberAvatarExtension>().toEqualTypeOf<`${GuildMemberAvatarFormat}`>();
    expectTypeOf<UserAvatarDecorationExtension>().toEqualTypeOf<'png'>();
    expectTypeOf<AvatarDecorationExtension>().toEqualTypeOf<'png'>();
    expectTypeOf<ApplicationIconExtension>().toEqualTypeOf<`${ApplicationIconFormat}`>();
    expectTypeOf<ApplicationCoverExtension>().toEqualTypeOf<`${ApplicationCoverFormat}`>();
    expectTypeOf<ApplicationAssetExtension>().toEqualTypeOf<`${ApplicationAssetFormat}`>();
    expectTypeOf<AchievementIconExtension>().toEqualTypeOf<`${AchievementIconFormat}`>();
    expectTypeOf<StickerPackBannerExtension>().toEqualTypeOf<`${StickerPackBannerFormat}`>();
    expectTypeOf<StorePageAssetExtension>().toEqualTypeOf<`${StorePageAssetFormat}`>();
    expectTypeOf<TeamIconExtension>().toEqualTypeOf<`${TeamIconFormat}`>();
    expectTypeOf<StickerExtension>().toEqualTypeOf<`${StickerFormat}`>();
    expectTypeOf<RoleIconExtension>().toEqualTypeOf<`${RoleIconFormat}`>();
    expectTypeOf<GuildScheduledEventCoverExtension>().toEqualTypeOf<`${GuildScheduledEventCoverFormat}`>();
    expectTypeOf<GuildMemberBannerExtension>().toEqualTypeOf<`${GuildMemberBannerFormat}`>();
    expectTypeOf<GuildTagBadgeExtension>().toEqualTypeOf<`${GuildTagBadgeFormat}`>();
  });

  it('helpers take ids (string or bigint), a hash and options, and return a string', () => {
    expectTypeOf(cdn).toEqualTypeOf<Cdn>();
    expectTypeOf(createCdn).returns.toEqualTypeOf<Cdn>();
    expectTypeOf(cdn.userAvatar('1', 'hash', { size: 256, extension: 'webp' })).toEqualTypeOf<string>();
    expectTypeOf(cdn.guildMemberAvatar(1n, '2', 'a_hash', { animated: false })).toEqualTypeOf<string>();
    expectTypeOf(cdn.emoji('1', { animated: true, extension: 'gif' })).toEqualTypeOf<string>();
    expectTypeOf(cdn.sticker('1', { extension: 'json' })).toEqualTypeOf<string>();
    expectTypeOf(cdn.soundboardSound('1')).toEqualTypeOf<string>();
    expectTypeOf(cdn.defaultUserAvatar(defaultAvatarIndex('80351110224678912'))).toEqualTypeOf<string>();
    expectTypeOf(
      createCdn({ baseUrl: 'http://127.0.0.1:8081', mediaBaseUrl: 'http://127.0.0.1:8082' }),
    ).toEqualTypeOf<Cdn>();
    expectTypeOf<CdnImageSize>().toEqualTypeOf<16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096>();
    expectTypeOf<DefaultAvatarIndex>().toEqualTypeOf<0 | 1 | 2 | 3 | 4 | 5>();
  });

  it('misuse does not compile', () => {
    // @ts-expect-error an extension the endpoint does not serve
    cdn.guildSplash('1', 'hash', { extension: 'gif' });
    // @ts-expect-error jpg is spelled jpeg
    cdn.userAvatar('1', 'hash', { extension: 'jpg' });
    // @ts-expect-error stickers are never WebP
    cdn.sticker('1', { extension: 'webp' });
    // @ts-expect-error a size that is not a power of two from 16 to 4096
    cdn.userAvatar('1', 'hash', { size: 100 });
    // @ts-expect-error the service ignores a sticker's size
    cdn.sticker('1', { size: 64 });
    // @ts-expect-error only images that may be animated take `animated`
    cdn.roleIcon('1', 'hash', { animated: true });
    // @ts-expect-error ids are never numbers (they exceed 2^53)
    cdn.userAvatar(80351110224678912, 'hash');
    // @ts-expect-error a default avatar index is 0 to 5
    cdn.defaultUserAvatar(6);
    // @ts-expect-error a soundboard sound takes no options
    cdn.soundboardSound('1', { extension: 'mp3' });
    // @ts-expect-error unknown options
    createCdn({ base: 'https://cdn.example' });
  });
});
