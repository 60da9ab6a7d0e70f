/** The proxy's headers (src/proxy/headers.ts): which may be given once, the bot's bound on its wait, what goes upstream. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { forwardedHeaders, maxWaitOf, repeatedHeader } from '../../src/proxy/headers.ts';

/** A request as Node hands it over: raw pairs as they came, and Node's own reading of them. */
const requestWith = (raw: string[], headers: Record<string, string> = {}) =>
  ({ rawHeaders: raw, headers }) as unknown as IncomingMessage;

describe('repeatedHeader', () => {
  it('names the first header that names one thing given twice, in any case', () => {
    expect(repeatedHeader(requestWith(['Authorization', 'Bot a', 'authorization', 'Bot b']))).toBe('authorization');
    expect(repeatedHeader(requestWith(['Host', 'x', 'X-Tollgate-Max-Wait', '1', 'x-tollgate-max-wait', '2']))).toBe(
      'x-tollgate-max-wait',
    );
  });

  it('lets any other header come as often as it likes', () => {
    expect(repeatedHeader(requestWith(['Accept', 'a', 'Accept', 'b', 'Authorization', 'Bot a']))).toBeUndefined();
  });
});

describe('maxWaitOf', () => {
  it("is the proxy's bound without a header, and the bot's own below it", () => {
    expect(maxWaitOf(undefined, 5000)).toBe(5000);
    expect(maxWaitOf('1200', 5000)).toBe(1200);
    expect(maxWaitOf(' 1200 ', 5000)).toBe(1200);
    expect(maxWaitOf('0', 5000)).toBe(0);
    expect(maxWaitOf('9000', 5000)).toBe(5000);
  });

  it('is undefined (a 400) for anything but 1 to 10 digits', () => {
    for (const header of ['', ' ', '-1', '1.5', '1e3', '12abc', 'abc12', '12345678901', '0x10', ['1', '2']]) {
      expect(maxWaitOf(header, 5000), String(header)).toBeUndefined();
    }
  });
});

describe('forwardedHeaders', () => {
  it("leaves out one hop's headers, those Connection names in any case and spacing, and the proxy's own", () => {
    const request = requestWith(
      [
        'Authorization',
        'Bot a',
        'Connection',
        'keep-alive, X-Trace ,x-other',
        'X-Trace',
        '1',
        'X-Other',
        '2',
        'X-Kept',
        '3',
        'Keep-Alive',
        'timeout=5',
        'Host',
        'proxy',
        'X-Tollgate-Proxy-Key',
        'secret',
        'X-Tollgate-Max-Wait',
        '10',
      ],
      { connection: 'keep-alive, X-Trace ,x-other' },
    );
    expect(forwardedHeaders(request)).toEqual([
      ['authorization', 'Bot a'],
      ['x-kept', '3'],
    ]);
  });

  it('keeps every other header, in order, a repeated one each time, without a Connection header', () => {
    const request = requestWith(['Accept', 'a', 'X-Kept', '1', 'Accept', 'b']);
    expect(forwardedHeaders(request)).toEqual([
      ['accept', 'a'],
      ['x-kept', '1'],
      ['accept', 'b'],
    ]);
  });
});
