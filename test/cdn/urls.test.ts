/** The CDN URL helpers: URLs, extensions, sizes, animated hashes, base URLs and argument checks. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
// From the module itself: the helpers need nothing of the client (src/index.ts re-exports them).
import { cdnEndpoints } from '../../generated/index.ts';
import { cdn, CDN_BASE_URL, createCdn, defaultAvatarIndex, type Cdn } from '../../src/index.ts';
import { TollgateArgumentError } from '../../src/errors.ts';

const USER = '80351110224678912';
const GUILD = '41771983423143937';
const HASH = '1269e74af4df7417b13759eae50c83dc';
const ANIMATED = `a_${HASH}`;
/** For calls that must fail: JavaScript callers pass anything. */
const loose = cdn as unknown as Record<string, (...args: unknown[]) => string>;

describe('URLs', () => {
  it('default base, WebP by default, size and extension as asked', () => {
    expect(CDN_BASE_URL).toBe('https://cdn.discordapp.com');
    expect(cdn.userAvatar(USER, HASH)).toBe(`https://cdn.discordapp.com/avatars/${USER}/${HASH}.webp`);
    expect(cdn.userAvatar(USER, HASH, { size: 256, extension: 'png' })).toBe(
      `https://cdn.discordapp.com/avatars/${USER}/${HASH}.png?size=256`,
    );
    expect(cdn.guildMemberAvatar(GUILD, BigInt(USER), HASH, { extension: 'jpeg', size: 4096 })).toBe(
      `https://cdn.discordapp.com/guilds/${GUILD}/users/${USER}/avatars/${HASH}.jpeg?size=4096`,
    );
    expect(cdn.guildSplash(GUILD, HASH, { size: 16 })).toBe(
      `https://cdn.discordapp.com/splashes/${GUILD}/${HASH}.webp?size=16`,
    );
  });

  it('fixed paths and single formats: default avatar, decorations, sticker pack banner, sound', () => {
    expect(cdn.defaultUserAvatar(0)).toBe('https://cdn.discordapp.com/embed/avatars/0.png');
    expect(cdn.avatarDecoration(ANIMATED)).toBe(`https://cdn.discordapp.com/avatar-decoration-presets/${ANIMATED}.png`);
    expect(cdn.stickerPackBanner('710982414301790216', { extension: 'png' })).toBe(
      'https://cdn.discordapp.com/app-assets/710982414301790216/store/710982414301790216.png',
    );
    expect(cdn.soundboardSound('1049102736420311040')).toBe(
      'https://cdn.discordapp.com/soundboard-sounds/1049102736420311040',
    );
  });

  it('stickers: PNG by default, Lottie JSON, and GIF from the media proxy', () => {
    expect(cdn.sticker('749054660769218631')).toBe('https://cdn.discordapp.com/stickers/749054660769218631.png');
    expect(cdn.sticker('749054660769218631', { extension: 'json' })).toBe(
      'https://cdn.discordapp.com/stickers/749054660769218631.json',
    );
    expect(cdn.sticker('749054660769218631', { extension: 'gif' })).toBe(
      'https://media.discordapp.net/stickers/749054660769218631.gif',
    );
  });

  it('every helper of the catalog exists and builds a URL under the base', () => {
    expect(Object.keys(cdn)).toEqual(catalog.cdn.endpoints.map((endpoint) => endpoint.name));
    expect(Object.keys(cdnEndpoints)).toEqual(Object.keys(cdn));
    for (const [name, endpoint] of Object.entries(cdnEndpoints)) {
      const args = endpoint.path
        .filter((segment) => typeof segment !== 'string')
        .map((segment) => (segment.kind === 'index' ? 1 : segment.kind === 'hash' ? HASH : USER));
      expect(loose[name]!(...args)).toMatch(/^https:\/\/cdn\.discordapp\.com\/[a-z-]+\//);
    }
  });
});

describe('animated images', () => {
  it('an a_ hash is animated WebP by default', () => {
    expect(cdn.userAvatar(USER, ANIMATED)).toBe(
      `https://cdn.discordapp.com/avatars/${USER}/${ANIMATED}.webp?animated=true`,
    );
    expect(cdn.guildIcon(GUILD, ANIMATED, { size: 128 })).toBe(
      `https://cdn.discordapp.com/icons/${GUILD}/${ANIMATED}.webp?size=128&animated=true`,
    );
    expect(cdn.userAvatar(USER, ANIMATED, { extension: 'webp' })).toMatch(/\.webp\?animated=true$/);
  });

  it('an explicit extension is used as given; animated: false asks for a still image', () => {
    expect(cdn.userAvatar(USER, ANIMATED, { extension: 'gif' })).toBe(
      `https://cdn.discordapp.com/avatars/${USER}/${ANIMATED}.gif`,
    );
    expect(cdn.guildBanner(GUILD, ANIMATED, { extension: 'png' })).toBe(
      `https://cdn.discordapp.com/banners/${GUILD}/${ANIMATED}.png`,
    );
    expect(cdn.userBanner(USER, ANIMATED, { animated: false })).toBe(
      `https://cdn.discordapp.com/banners/${USER}/${ANIMATED}.webp`,
    );
    expect(cdn.guildMemberBanner(GUILD, USER, ANIMATED, { animated: false, extension: 'jpeg' })).toMatch(/\.jpeg$/);
  });

  it('a custom emoji is animated when the caller says so', () => {
    expect(cdn.emoji('41771983429993937')).toBe('https://cdn.discordapp.com/emojis/41771983429993937.webp');
    expect(cdn.emoji('41771983429993937', { animated: true, size: 64 })).toBe(
      'https://cdn.discordapp.com/emojis/41771983429993937.webp?size=64&animated=true',
    );
    expect(cdn.emoji('41771983429993937', { animated: true, extension: 'gif' })).toBe(
      'https://cdn.discordapp.com/emojis/41771983429993937.gif',
    );
  });

  it('a_ means nothing where the endpoint has no animated form (role icons, decorations)', () => {
    expect(cdn.roleIcon('41771983423143936', ANIMATED)).toBe(
      `https://cdn.discordapp.com/role-icons/41771983423143936/${ANIMATED}.webp`,
    );
  });

  it('contradictions are refused', () => {
    expect(() => cdn.userAvatar(USER, HASH, { animated: true, extension: 'png' })).toThrow(
      /cdn\.userAvatar: an animated image is served as webp or gif, not png/,
    );
    expect(() => cdn.userAvatar(USER, ANIMATED, { animated: false, extension: 'gif' })).toThrow(/still image/);
    expect(() => loose.guildSplash!(GUILD, HASH, { animated: true })).toThrow(/unknown option "animated"/);
  });
});

describe('checks, before any URL is built', () => {
  it('size is a power of two from 16 to 4096, and names the allowed values', () => {
    for (const size of [0, 8, 100, 8192, 256.5, '256', null]) {
      expect(() => loose.userAvatar!(USER, HASH, { size })).toThrow(TollgateArgumentError);
    }
    expect(() => loose.userAvatar!(USER, HASH, { size: 100 })).toThrow(
      'cdn.userAvatar: size must be a power of two from 16 to 4096 (16, 32, 64, 128, 256, 512, 1024, 2048, 4096), got 100',
    );
    expect(() => loose.sticker!('1', { size: 64 })).toThrow(/unknown option "size" \(the service ignores the size/);
  });

  it('an extension the endpoint does not serve is refused, naming the ones it does', () => {
    expect(() => loose.guildSplash!(GUILD, HASH, { extension: 'gif' })).toThrow(
      'cdn.guildSplash: extension must be one of webp, png, jpeg, got "gif"',
    );
    expect(() => loose.userAvatar!(USER, HASH, { extension: 'jpg' })).toThrow(/one of webp, png, jpeg, gif/);
    expect(() => loose.defaultUserAvatar!(1, { extension: 'webp' })).toThrow(/one of png/);
    expect(() => loose.userAvatar!(USER, HASH, { format: 'png' })).toThrow(/unknown option "format"/);
    expect(() => loose.userAvatar!(USER, HASH, 'png')).toThrow(/options must be an object/);
  });

  it('ids are checked as path ids are; hashes are text without slashes, percent-encoded', () => {
    expect(() => loose.userAvatar!('12a', HASH)).toThrow(
      /cdn\.userAvatar: userId must be an unsigned 64-bit decimal id/,
    );
    expect(() => loose.userAvatar!(80351110224678912, HASH)).toThrow(/userId .*the number/);
    expect(() => loose.userAvatar!(-1n, HASH)).toThrow(/unsigned 64-bit/);
    expect(() => cdn.userAvatar(USER, '../x')).toThrow(/avatarHash must not contain a slash/);
    expect(() => cdn.userAvatar(USER, '..')).toThrow(/avatarHash must not be empty, "\." or "\.\."/);
    expect(() => cdn.userAvatar(USER, '')).toThrow(TollgateArgumentError);
    expect(() => loose.userAvatar!(USER)).toThrow(/avatarHash must be a string/);
    expect(cdn.userAvatar(`00${USER}`, 'a b?c#d')).toBe(
      `https://cdn.discordapp.com/avatars/${USER}/a%20b%3Fc%23d.webp`,
    );
  });

  it('a default avatar index is a whole number from 0 to 5', () => {
    for (const index of [-1, 6, 1.5, '1', 1n]) {
      expect(() => loose.defaultUserAvatar!(index)).toThrow(
        /index must be a default avatar index, a whole number from 0 to 5/,
      );
    }
  });
});

describe('createCdn', () => {
  it('serves every URL, sticker GIFs included, from another base URL (a mock CDN)', () => {
    const mock: Cdn = createCdn({ baseUrl: 'http://127.0.0.1:8081/cdn/' });
    expect(mock.userAvatar(USER, HASH, { size: 64 })).toBe(
      `http://127.0.0.1:8081/cdn/avatars/${USER}/${HASH}.webp?size=64`,
    );
    expect(mock.sticker('1', { extension: 'gif' })).toBe('http://127.0.0.1:8081/cdn/stickers/1.gif');
    const split = createCdn({ baseUrl: 'https://cdn.example', mediaBaseUrl: 'https://media.example' });
    expect(split.sticker('1', { extension: 'gif' })).toBe('https://media.example/stickers/1.gif');
    expect(createCdn().userAvatar(USER, HASH)).toBe(cdn.userAvatar(USER, HASH));
  });

  it('refuses a malformed base URL or an unknown option', () => {
    expect(() => createCdn({ baseUrl: 'cdn.example' })).toThrow('createCdn: baseUrl must be an absolute http(s) URL');
    expect(() => createCdn({ baseUrl: 'ftp://cdn.example' })).toThrow(TollgateArgumentError);
    expect(() => createCdn({ baseUrl: 'https://cdn.example/?x=1' })).toThrow(/must not have a query/);
    expect(() => createCdn({ mediaBaseUrl: 'https://user:pw@media.example' })).toThrow(/mediaBaseUrl .*credentials/);
    expect(() => createCdn({ base: 'https://cdn.example' } as never)).toThrow(/unknown option\(s\) "base"/);
    expect(() => createCdn(null as never)).toThrow(/options must be an object/);
  });

  it('the helpers are frozen', () => {
    expect(Object.isFrozen(cdn)).toBe(true);
  });
});

describe('defaultAvatarIndex', () => {
  it('(user_id >> 22) % 6, or discriminator % 5 for a legacy username', () => {
    expect(defaultAvatarIndex(USER)).toBe(Number((BigInt(USER) >> 22n) % 6n));
    expect(defaultAvatarIndex(BigInt(USER), '0')).toBe(defaultAvatarIndex(USER));
    expect(defaultAvatarIndex(USER, '1337')).toBe(2);
    expect(cdn.defaultUserAvatar(defaultAvatarIndex(USER))).toMatch(/\/embed\/avatars\/[0-5]\.png$/);
    expect(() => defaultAvatarIndex(USER, '12345')).toThrow(/discriminator must be 1 to 4 digits/);
    expect(() => defaultAvatarIndex('x')).toThrow(/userId must be an unsigned 64-bit decimal id/);
  });
});

describe('client.cdn', () => {
  it('builds on the client option cdn, and refuses a bad base URL at creation', async () => {
    const { createClient } = await import('../../src/index.ts');
    const client = createClient({ cdn: { baseUrl: 'http://127.0.0.1:8081' } });
    expect(client.cdn.userAvatar('1', 'h')).toBe('http://127.0.0.1:8081/avatars/1/h.webp');
    expect(createClient().cdn.userAvatar('1', 'h')).toBe('https://cdn.discordapp.com/avatars/1/h.webp');
    expect(() => createClient({ cdn: { baseUrl: 'not a url' } })).toThrow(/createClient: cdn.baseUrl/);
    await client.close();
  });
});
