/** The reference service's Discord header dialect: the same limits, Discord's extra headers and units. */
import { afterEach, describe, expect, it } from 'vitest';
import { ReferenceService } from '../../src/testing/index.ts';
import { ManualClock } from '../support/manual-clock.ts';

let service: ReferenceService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

const T = Date.UTC(2026, 10, 22, 12, 0, 0);

async function start(dialect: 'spec' | 'discord'): Promise<ReferenceService> {
  service = await new ReferenceService({
    api: 'v6',
    clock: new ManualClock(T),
    defaultLimit: { limit: 1, windowMs: 1500 },
    global: { limit: 3, windowMs: 1000 },
    dialect,
  }).start();
  return service;
}

const get = (url: string, token = 'Bot a') => fetch(url, { headers: { authorization: token } });

describe('reference service dialects', () => {
  it("spec (default): the spec's headers only, retry-after in ms", async () => {
    const { baseUrl } = await start('spec');
    const ok = await get(`${baseUrl}/channels/7`);
    expect(ok.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((T + 1500) / 1000)));
    expect(ok.headers.get('x-ratelimit-reset-after')).toBeNull();
    const limited = await get(`${baseUrl}/channels/7`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1500');
  });

  it('discord: also reset-after (s), bucket and scope; retry-after in seconds, global ones too', async () => {
    const { baseUrl } = await start('discord');
    const ok = await get(`${baseUrl}/channels/7`);
    expect(Object.fromEntries([...ok.headers].filter(([name]) => name.startsWith('x-ratelimit')))).toEqual({
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil((T + 1500) / 1000)),
      'x-ratelimit-reset-after': '1.500',
      'x-ratelimit-bucket': 'ChannelsId',
      'x-ratelimit-scope': 'user',
    });
    const limited = await get(`${baseUrl}/channels/7`);
    expect(limited.headers.get('retry-after')).toBe('1.500');
    await get(`${baseUrl}/channels/8`);
    const global = await get(`${baseUrl}/channels/9`);
    expect(global.status).toBe(429);
    expect(global.headers.get('x-ratelimit-global')).toBe('true');
    expect(global.headers.get('x-ratelimit-scope')).toBe('global');
    expect(global.headers.get('retry-after')).toBe('1.000');
  });

  it('rejects an unknown dialect', () => {
    expect(() => new ReferenceService({ dialect: 'ietf' as never })).toThrow("dialect must be 'spec' or 'discord'");
  });
});
