/**
 * A bot's own global limit (V13, `botGlobalLimits`): the bot's id read from its token, and the
 * limit each token's view runs on. How a relay, a client and Redis replicas pace by it:
 * test/http/bot-global-limits.int.test.ts, test/redis/bot-global-limits.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { botIdOf, isBotId } from '../../../src/dialects/v10/bot-id.ts';
import { v10Settings } from '../../../src/dialects/v10/settings.ts';

const BOT = '80351110224678912';
/** How Discord writes a token: the id in base64 without its padding, a timestamp, an HMAC. */
const tokenOf = (id: string, scheme = 'Bot') => `${scheme} ${btoa(id).replace(/=+$/, '')}.GhJ4kQ.a1b2c3d4e5f6g7h8i9j0`;

describe("a bot's id, from its token", () => {
  it.for([
    ["Discord's own form, unpadded", tokenOf(BOT), BOT],
    ['padded', `Bot ${btoa(BOT)}.x.y`, BOT],
    ['the scheme in any case', tokenOf(BOT, 'bot'), BOT],
    ['an 18-digit id', tokenOf('175928847299117063'), '175928847299117063'],
    ['a 20-digit id, the largest', tokenOf('18446744073709551615'), '18446744073709551615'],
  ] as const)('%s: %s', ([, token, id]) => {
    expect(botIdOf(token)).toBe(id);
  });

  it.for([
    ['an OAuth2 token, even one that opens like a bot token', tokenOf(BOT, 'Bearer')],
    ['no scheme (Discord refuses a bot token without one)', tokenOf(BOT).slice('Bot '.length)],
    ['no token', undefined],
    ['a first part that is no base64', 'Bot not*base64*at*all*here.x.y'],
    ['base64 of text, not an id', `Bot ${btoa('hello, this is no id')}.x.y`],
    ['base64 of too few digits to be a bot', tokenOf('12345678901234')],
    ['past an unsigned 64-bit id', tokenOf('18446744073709551616')],
    ['a leading zero', tokenOf('080351110224678912')],
    ['a length base64 never has', 'Bot MTIzNDU2Nzg5MDEyMzQ1N.x.y'],
  ] as const)('none from %s', ([, token]) => {
    expect(botIdOf(token)).toBeUndefined();
  });

  it('an id is a snowflake in canonical decimal, 15 to 20 digits', () => {
    expect([BOT, '123456789012345', '18446744073709551615'].map(isBotId)).toEqual([true, true, true]);
    expect(
      ['12345678901234', '080351110224678912', '18446744073709551616', ' 80351110224678912', '8e16'].map(isBotId),
    ).toEqual([false, false, false, false, false]);
  });
});

describe("the global limit a token's view runs on", () => {
  const options = { globalLimit: 20, botGlobalLimits: { [BOT]: 500 } };

  it("a bot the options name: its own; any other token: the default (the given one, else V13's 50)", () => {
    expect(v10Settings(options, tokenOf(BOT)).globalLimit).toBe(500);
    expect(v10Settings(options, tokenOf('175928847299117063')).globalLimit).toBe(20);
    expect(v10Settings({ botGlobalLimits: { [BOT]: 500 } }, tokenOf('175928847299117063')).globalLimit).toBe(50);
    expect(v10Settings({ botGlobalLimits: { [BOT]: 500 } }, tokenOf(BOT)).globalLimit).toBe(500);
  });

  it('an OAuth2 token, a token whose id cannot be read, and the IP: the default', () => {
    expect(v10Settings(options, tokenOf(BOT, 'Bearer')).globalLimit).toBe(20);
    expect(v10Settings(options, 'Bot not-a-discord-token').globalLimit).toBe(20);
    expect(v10Settings(options, undefined).globalLimit).toBe(20);
    expect(v10Settings(options).globalLimit).toBe(20);
  });

  it("only the options' own entries: an id never matches what an object inherits", () => {
    const inherited = Object.create({ [BOT]: 500 }) as Record<string, number>;
    expect(v10Settings({ botGlobalLimits: inherited }, tokenOf(BOT)).globalLimit).toBe(50);
  });
});
