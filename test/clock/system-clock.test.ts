/** The system clock holds waits longer than one timer can (2^31 − 1 ms): Node would fire those after 1 ms. */
import { afterEach, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.ts';

afterEach(() => {
  vi.useRealTimers();
});

it('a wait of 35 days fires after 35 days, not after 1 ms; cancelling stops the chain', () => {
  vi.useFakeTimers();
  const fired: string[] = [];
  const long = 35 * 24 * 60 * 60 * 1000;
  systemClock.setTimeout(() => fired.push('long'), long);
  const cancel = systemClock.setTimeout(() => fired.push('cancelled'), long);
  vi.advanceTimersByTime(2 ** 31);
  cancel();
  expect(fired).toEqual([]);
  vi.advanceTimersByTime(long - 2 ** 31 - 1);
  expect(fired).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(fired).toEqual(['long']);
  vi.advanceTimersByTime(long);
  expect(fired).toEqual(['long']);
});
