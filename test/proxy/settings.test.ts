/** The proxy's options resolved once (src/proxy/settings.ts): defaults, the upstream, the log by level. */
import { describe, expect, it, vi } from 'vitest';
import { keyDigestOf } from '../../src/proxy/headers.ts';
import {
  DEFAULT_DRAIN_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROXY_MAX_WAIT_MS,
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM,
} from '../../src/proxy/options.ts';
import { proxySettings } from '../../src/proxy/settings.ts';

describe('proxySettings', () => {
  it('fills in every default, and keeps what is given', () => {
    const defaults = proxySettings({});
    expect(defaults).toMatchObject({
      upstream: DEFAULT_UPSTREAM,
      host: '127.0.0.1',
      port: DEFAULT_PROXY_PORT,
      maxBody: DEFAULT_MAX_BODY_BYTES,
      defaultMaxWait: DEFAULT_PROXY_MAX_WAIT_MS,
      drainMs: DEFAULT_DRAIN_MS,
      logLevel: 'info',
      secretDigest: undefined,
    });
    const given = proxySettings({ port: 0, drainMs: 0, maxBody: 0, maxWait: 0, host: '::1', secret: 's'.repeat(16) });
    expect(given).toMatchObject({ port: 0, drainMs: 0, maxBody: 0, defaultMaxWait: 0, host: '::1' });
    expect(given.secretDigest).toEqual(keyDigestOf('s'.repeat(16)));
  });

  it("keeps the upstream's origin without its trailing slash", () => {
    expect(proxySettings({ upstream: 'http://127.0.0.1:9000/' }).upstream).toBe('http://127.0.0.1:9000');
  });

  it('logs one JSON line a message, as the level lets it through', () => {
    const lines = (logLevel?: 'silent' | 'info' | 'debug') => {
      const written: string[] = [];
      const { log } = proxySettings({ ...(logLevel && { logLevel }), log: (line) => written.push(line) });
      log('info', { msg: 'i' });
      log('debug', { msg: 'd' });
      log('error', { msg: 'e' });
      return written.map((line) => (JSON.parse(line) as { msg: string; level: string }).msg);
    };
    expect(lines()).toEqual(['i', 'e']);
    expect(lines('debug')).toEqual(['i', 'd', 'e']);
    expect(lines('silent')).toEqual([]);
  });

  it('writes to standard error without a log of its own', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      proxySettings({}).log('info', { msg: 'to stderr' });
      expect(write).toHaveBeenCalledWith(expect.stringMatching(/"level":"info","msg":"to stderr"\}\n$/));
    } finally {
      write.mockRestore();
    }
  });
});
