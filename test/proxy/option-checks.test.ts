/** What createProxy refuses (src/proxy/options.ts): each check at its edge. */
import { describe, expect, it } from 'vitest';
import { checkProxyOptions, serverRequestTimeoutOf, type ProxyOptions } from '../../src/proxy/options.ts';

const refused = (options: unknown) => () => checkProxyOptions(options as ProxyOptions);

describe('createProxy options', () => {
  it('upstream: an http or https origin, nothing more', () => {
    for (const upstream of ['https://discord.com', 'http://127.0.0.1:8080', 'https://discord.com/']) {
      expect(checkProxyOptions({ upstream }).upstream).toBe(upstream);
    }
    for (const upstream of [
      'discord.com',
      'ftp://discord.com',
      'xhttps://discord.com',
      'https://discord.com/api',
      'wss://x',
    ]) {
      expect(refused({ upstream }), upstream).toThrow(/upstream must be an http\(s\) origin/);
    }
  });

  it('secret: printable ASCII, no space anywhere, 16 characters or more', () => {
    expect(checkProxyOptions({ secret: 'a'.repeat(16) }).secret).toBe('a'.repeat(16));
    for (const secret of [
      ` ${'a'.repeat(16)}`,
      `${'a'.repeat(16)} `,
      `${'a'.repeat(8)} ${'a'.repeat(8)}`,
      `${'a'.repeat(16)}é`,
    ]) {
      expect(refused({ secret }), JSON.stringify(secret)).toThrow(/secret must be printable ASCII/);
    }
  });

  it('storeReady and log: functions', () => {
    expect(refused({ storeReady: true })).toThrow(/storeReady must be a function/);
    expect(refused({ log: 'stdout' })).toThrow(/log must be a function/);
    const log = () => {};
    expect(checkProxyOptions({ log }).log).toBe(log);
  });

  it('headersTimeout may equal requestTimeout, never exceed it', () => {
    expect(checkProxyOptions({ maxWait: 1000, requestTimeout: 5000, headersTimeout: 5000 }).headersTimeout).toBe(5000);
    expect(refused({ maxWait: 1000, requestTimeout: 5000, headersTimeout: 5001 })).toThrow(
      /headersTimeout must not be longer than requestTimeout/,
    );
  });

  it("the server's request timeout: as it is up to the longest Node holds (2^32 - 1 ms), none past it", () => {
    expect(serverRequestTimeoutOf({ maxWait: 0, requestTimeout: 2 ** 32 - 1 })).toBe(2 ** 32 - 1);
    expect(serverRequestTimeoutOf({ maxWait: 0, requestTimeout: 2 ** 32 })).toBe(0);
  });
});
