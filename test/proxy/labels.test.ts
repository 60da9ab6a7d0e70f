/** How the proxy names a token and a route in its logs and metrics (src/proxy/labels.ts): never a token. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { routeLabel, tokenLabel } from '../../src/proxy/labels.ts';

const BOT = '80351110224678912';
const botToken = `Bot ${btoa(BOT).replace(/=+$/, '')}.GhJ4kQ.a1b2c3d4e5f6g7h8i9j0`;
const hash8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

describe('tokenLabel', () => {
  it('none without a token, an empty one included', () => {
    expect([tokenLabel(undefined), tokenLabel('')]).toEqual(['none', 'none']);
  });

  it("a bot by its id, an OAuth2 token and anything else by 8 hex digits of the token's SHA-256", () => {
    expect(tokenLabel(botToken)).toBe(`bot ${BOT}`);
    expect(tokenLabel('Bearer abcdef123456')).toBe(`bearer ${hash8('Bearer abcdef123456')}`);
    expect(tokenLabel('bearer abcdef123456')).toBe(`bearer ${hash8('bearer abcdef123456')}`);
    expect(tokenLabel('Bot not-a-token')).toBe(`token ${hash8('Bot not-a-token')}`);
    expect(tokenLabel('whatever')).toMatch(/^token [0-9a-f]{8}$/);
  });
});

describe('routeLabel', () => {
  it('- without a route', () => {
    expect([routeLabel(undefined), routeLabel('-')]).toEqual(['-', '-']);
  });

  it('keeps route words, placeholders and a kind after #, and masks any other segment', () => {
    expect(routeLabel('GET /channels/:id/messages/:id')).toBe('GET /channels/:id/messages/:id');
    expect(routeLabel('DELETE /channels/:id/messages/:id#old')).toBe('DELETE /channels/:id/messages/:id#old');
    expect(routeLabel('GET /users/@me')).toBe('GET /users/@me');
    expect(routeLabel('POST /webhooks/:id/aB3dE5gH7')).toBe('POST /webhooks/:id/:?');
    expect(routeLabel('GET /channels/:id#OLD')).toBe('GET /channels/:?');
    expect(routeLabel('GET /channels/:id#old1')).toBe('GET /channels/:?');
    expect(routeLabel('GET /x/secret-token!')).toBe('GET /x/:?');
    expect(routeLabel(`GET /${'a'.repeat(41)}`)).toBe('GET /:?');
  });
});
