import { describe, expect, it } from 'vitest';
import { LimitEnforcer, ReferenceService } from '../../src/testing/index.ts';
import { mostInFixedWindows, mostWithin } from '../../src/testing/limits.ts';
import { ManualClock } from '../support/manual-clock.ts';

describe('LimitEnforcer (the service side of the limits)', () => {
  it('counts per bucket and Authorization, with the spec headers, and 429s past the limit', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 0, 400));
    const limits = new LimitEnforcer({ defaultLimit: { limit: 2, windowMs: 1000 } }, clock);
    const first = limits.count('Gateway', 'Bot a');
    expect(first).toEqual({
      global: false,
      limited: false,
      headers: {
        'x-ratelimit-limit': '2',
        'x-ratelimit-remaining': '1',
        'x-ratelimit-reset': String(Math.ceil((clock.now() + 1000) / 1000)),
      },
      retryAfterMs: 1000,
    });
    expect(limits.count('Gateway', 'Bot b')).toMatchObject({
      limited: false,
      headers: { 'x-ratelimit-remaining': '1' },
    });
    await clock.advance(300);
    expect(limits.count('Gateway', 'Bot a')).toMatchObject({
      limited: false,
      headers: { 'x-ratelimit-remaining': '0' },
    });
    expect(limits.count('Gateway', 'Bot a')).toMatchObject({ limited: true, retryAfterMs: 700 });
    await clock.advance(700);
    expect(limits.count('Gateway', 'Bot a')).toMatchObject({
      limited: false,
      headers: { 'x-ratelimit-remaining': '1' },
    });
  });

  it('the most specific prefix wins; the global limit counts every bucket of one Authorization', () => {
    const clock = new ManualClock();
    const limits = new LimitEnforcer(
      {
        routes: {
          ChannelsIdMessagesId: { limit: 1, windowMs: 1000 },
          'ChannelsIdMessagesId:DELETE': { limit: 3, windowMs: 1000 },
        },
        global: { limit: 3, windowMs: 1000 },
      },
      clock,
    );
    expect(limits.limitOf('ChannelsIdMessagesId:DELETE:1').limit).toBe(3);
    expect(limits.limitOf('ChannelsIdMessagesId:GET:1').limit).toBe(1);
    expect(limits.limitOf('Gateway')).toEqual({ limit: 5, windowMs: 1000 });
    for (const key of ['A', 'B', 'C']) expect(limits.count(key, 'Bot a').global).toBe(false);
    expect(limits.count('D', 'Bot a')).toEqual({ global: true, retryAfterMs: 1000 });
    expect(limits.count('D', 'Bot b').global).toBe(false);
  });

  it('rejects limits that cannot be enforced', () => {
    expect(() => new LimitEnforcer({ defaultLimit: { limit: 0, windowMs: 1000 } }, new ManualClock())).toThrow(
      /defaultLimit needs a whole limit/,
    );
  });
});

describe('counting a run the way the service counts it', () => {
  it('a window opens at the first request after the last ended: a late second and an exact reset make 2 per window, 3 in a span', () => {
    const limit = { limit: 2, windowMs: 400 };
    const times = [0, 250, 400, 401, 900];
    expect(mostInFixedWindows(times, limit)).toBe(2);
    expect(mostWithin(times, limit.windowMs)).toBe(3);
    // A window opened late (at 500) runs 400 ms from there, not on a grid of 400 ms from 0.
    expect(mostInFixedWindows([0, 500, 850], limit)).toBe(2);
  });
});

describe("the reference service's own count of a run", () => {
  it('maxPerWindow counts in order of arrival, though requests are kept in the order answered', () => {
    const service = new ReferenceService({ defaultLimit: { limit: 5, windowMs: 400 } });
    const answered = (at: number) =>
      service.requests.push({
        at,
        method: 'GET',
        routeKey: 'Gateway',
        bucketKey: 'Gateway',
        status: 200,
        global: false,
        fault: undefined,
      });
    // Arrived at 0, 100, 200, 350 and 400; the one of 400 was answered first.
    for (const at of [400, 0, 100, 200, 350]) answered(at);
    expect(service.maxPerWindow('Gateway')).toBe(4);
  });
});
