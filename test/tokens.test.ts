/** What a token says of itself (src/tokens.ts): its kind, and a bot's id read from it. */
import { describe, expect, it } from 'vitest';
import { botIdOf, isBotId, tokenKindOf } from '../src/tokens.ts';

const BOT = '80351110224678912';
/** How Discord writes a token: the id in base64 without its padding, a timestamp, an HMAC. */
const tokenOf = (id: string, scheme = 'Bot') => `${scheme} ${btoa(id).replace(/=+$/, '')}.GhJ4kQ.a1b2c3d4e5f6g7h8i9j0`;

describe("a token's kind", () => {
  it("Bearer in any case is an OAuth2 token; anything else, a bot's", () => {
    expect(['Bearer abc', 'bearer abc', 'BEARER\tabc'].map(tokenKindOf)).toEqual(['bearer', 'bearer', 'bearer']);
    expect([tokenOf(BOT), 'Bearerabc', 'abc', ''].map(tokenKindOf)).toEqual(['bot', 'bot', 'bot', 'bot']);
    expect(tokenKindOf(undefined)).toBeUndefined();
  });
});

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
