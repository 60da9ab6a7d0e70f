/** The benchmark's yardstick: a spec client's schedule (bench/rate-limits.ts). */
import { describe, expect, it } from 'vitest';
import { specSchedule, specScheduleOfRun } from '../../bench/rate-limits.ts';
import type { RecordedRequest } from '../../src/testing/index.ts';

const T = 1_700_000_000; // whole seconds
const scenario = { buckets: 1, requestsPerBucket: 30, callers: 1, limit: { limit: 10, windowMs: 2000 } };

describe('spec client (a sequential client following the spec table, zero latency)', () => {
  it('from a whole second: 10 at once, row 3 sleeps 2.5 s, then 3.5 s (resets round up to whole seconds)', () => {
    const schedule = specSchedule(T * 1000, scenario);
    expect(schedule).toHaveLength(30);
    expect(schedule.slice(0, 10)).toEqual(Array(10).fill(0));
    // reset T+2: sleep (2 − 0) s + 500 ms; the new window ends at 4.5 s, reset T+5.
    expect(schedule.slice(10, 20)).toEqual(Array(10).fill(2500));
    // now T+2 (2.5 s), reset T+5: sleep 3 s + 500 ms.
    expect(schedule.slice(20)).toEqual(Array(10).fill(6000));
  });

  it('depends on the point of the second it starts at: from .9 s, reset T+3 means sleeping 3.5 s twice', () => {
    expect(specSchedule(T * 1000 + 900, scenario).at(-1)).toBe(7000);
  });

  it('for a run, each bucket is measured from its own first arrival', () => {
    const request = (bucketKey: string, at: number): RecordedRequest => ({
      at,
      method: 'GET',
      routeKey: 'ChannelsId',
      bucketKey,
      status: 200,
      global: false,
      fault: undefined,
    });
    // Bucket A starts at a whole second, bucket B 900 ms later: B's resets fall a second later.
    const requests = [
      ...Array.from({ length: 30 }, () => request('ChannelsId:1', T * 1000)),
      ...Array.from({ length: 30 }, () => request('ChannelsId:2', T * 1000 + 900)),
      request('ChannelsId:3', T * 1000 + 50),
      { ...request('ChannelsId:3', T * 1000 + 60), status: 429 },
    ];
    const schedule = specScheduleOfRun(requests, scenario.limit);
    expect(schedule).toHaveLength(61); // accepted requests only
    expect(schedule.at(-1)! - T * 1000).toBe(900 + 7000);
    expect(schedule.filter((at) => at === T * 1000 + 6000)).toHaveLength(10);
  });
});
