/**
 * The proxy's settings as it derives them from its options (src/proxy/options.ts): the request
 * timeout its HTTP server is given, against the longest wait a request is allowed.
 */
import { describe, expect, it } from 'vitest';
import { commandOf } from '../../src/proxy/command-line.ts';
import {
  checkProxyOptions,
  DEFAULT_PROXY_MAX_WAIT_MS,
  serverRequestTimeoutOf,
  type ProxyOptions,
} from '../../src/proxy/options.ts';

/**
 * The bound Node's HTTP server applies for a `requestTimeout`: it keeps it in 32 bits, so a longer
 * one wraps around (2^32 + 300 ms cuts a request off at 300 ms); 0 is none.
 * test/proxy/proxy.int.test.ts shows it on a running proxy.
 */
const applied = (requestTimeout: number) => requestTimeout % 2 ** 32;

/** Whether a request allowed to wait `maxWait` ms is cut off by the request timeout first. */
const cutOffFirst = (options: ProxyOptions) => {
  const bound = applied(serverRequestTimeoutOf(checkProxyOptions(options)));
  return bound !== 0 && bound <= (options.maxWait ?? DEFAULT_PROXY_MAX_WAIT_MS);
};

const proxyOptions = (argv: string[]) => {
  const command = commandOf(['proxy', ...argv], {});
  if (command.kind !== 'proxy') throw new Error('not the proxy');
  return command.options;
};

describe('the request timeout, against the longest wait', () => {
  it('a request allowed to wait maxWait is never cut off first by the request timeout: the defaults', () => {
    expect(cutOffFirst({})).toBe(false);
    expect(cutOffFirst(proxyOptions([]))).toBe(false);
    expect(cutOffFirst({ headersTimeout: 1 })).toBe(false);
  });

  it.each([0, 1, 30_000, 60_001, 3_600_000, 2 ** 31 - 1, 2 ** 32 - 60_001, 2 ** 32 - 59_700, 2 ** 32, 5e9, 2 ** 40])(
    'nor with --max-wait %d, whatever it is set to',
    (maxWait) => {
      expect(cutOffFirst(proxyOptions(['--max-wait', String(maxWait)]))).toBe(false);
      expect(cutOffFirst({ maxWait, headersTimeout: 100 })).toBe(false);
    },
  );

  it('nor with the largest maxWait taken, or a requestTimeout given longer than maxWait', () => {
    expect(cutOffFirst({ maxWait: Number.MAX_SAFE_INTEGER })).toBe(false);
    for (const maxWait of [30_000, 2 ** 32 - 1, 2 ** 33]) {
      expect(cutOffFirst({ maxWait, requestTimeout: maxWait + 1 })).toBe(false);
      expect(cutOffFirst({ maxWait, requestTimeout: 2 ** 33 + 300 })).toBe(false);
    }
  });
});
