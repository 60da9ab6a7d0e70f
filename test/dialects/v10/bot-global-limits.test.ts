/**
 * A bot's own global limit (V13, `botGlobalLimits`): the limit each token's view runs on (the
 * bot's id read from its token: test/tokens.test.ts). How a relay, a client and Redis replicas
 * pace by it: test/http/bot-global-limits.int.test.ts, test/redis/bot-global-limits.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { v10Settings } from '../../../src/dialects/v10/settings.ts';

const BOT = '80351110224678912';
/** How Discord writes a token: the id in base64 without its padding, a timestamp, an HMAC. */
const tokenOf = (id: string, scheme = 'Bot') => `${scheme} ${btoa(id).replace(/=+$/, '')}.GhJ4kQ.a1b2c3d4e5f6g7h8i9j0`;

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
