import { describe, expect, it } from 'vitest';
import { MemoryStore, SHED_INTERVAL_MS } from '../../src/stores/memory-store.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { keyedView, type KeyedView } from '../support/keyed-view.ts';

const T = 1_700_000_000; // whole seconds

/** Takes a reservation on `bucketKey` and settles it with a window ending at `reset`. */
async function use(store: KeyedView, bucketKey: string, reset: number, limit = 5): Promise<void> {
  const admission = await store.admit(bucketKey);
  if (admission.kind !== 'grant') throw new Error(`expected a grant for ${bucketKey}, got ${admission.kind}`);
  await store.settle(bucketKey, admission.reservation, { limit, remaining: limit - 1, reset });
}

describe('MemoryStore: shedding buckets nobody needs', () => {
  it('sheds buckets whose reset has passed, on the first call after the shed interval', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const store = keyedView(memory, 'Bot a', clock);
    for (let channel = 1; channel <= 100; channel++) await use(store, `ChannelsId:${channel}`, T + 1);
    expect(memory.bucketCount).toBe(100);

    await clock.advance(2000 + SHED_INTERVAL_MS); // now T + 3 > reset
    expect(memory.bucketCount).toBe(100); // shedding happens inside calls, not on a timer
    await store.admit('ChannelsId:fresh');
    expect(memory.bucketCount).toBe(1);
    expect(await store.get('ChannelsId:1')).toBeUndefined();
  });

  it('keeps a bucket whose window is still open, or with a request in flight', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const store = keyedView(memory, undefined, clock);
    await use(store, 'ChannelsId:open', T + 60);
    await use(store, 'ChannelsId:closing', T + 1);
    const inFlight = await store.admit('ChannelsId:closing'); // reserved, no response yet
    expect(inFlight.kind).toBe('grant');
    const probe = await store.admit('ChannelsId:unknown'); // a probe in flight, limits unknown
    expect(probe.kind).toBe('grant');

    await clock.advance(5000);
    await store.admit(null);
    expect(await store.get('ChannelsId:open')).toEqual({ limit: 5, remaining: 4, reset: T + 60 });
    expect(await store.get('ChannelsId:closing')).toBeDefined();
    // The probe's bucket is still there: a second caller must keep waiting for the probe.
    expect((await store.admit('ChannelsId:unknown')).kind).toBe('await-response');
  });

  it('a shed bucket used again starts over as unknown: one probe, then its limits', async () => {
    const clock = new ManualClock(T * 1000);
    const store = keyedView(new MemoryStore(), 'Bot a', clock);
    await use(store, 'ChannelsId:1', T + 1);
    await clock.advance(3000);
    await store.admit(null); // sheds
    expect(await store.get('ChannelsId:1')).toBeUndefined();
    const first = await store.admit('ChannelsId:1');
    expect(first.kind).toBe('grant');
    expect((await store.admit('ChannelsId:1')).kind).toBe('await-response');
  });

  it('stays bounded over many distinct ids when windows keep ending', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const store = keyedView(memory, 'Bot a', clock);
    let most = 0;
    for (let second = 0; second < 20; second++) {
      for (let index = 0; index < 500; index++) {
        await use(store, `ChannelsId:${second * 500 + index}`, T + second + 1);
      }
      most = Math.max(most, memory.bucketCount);
      await clock.advance(1000);
    }
    // 10 000 ids went through; at most the ids of the windows still open (and one shed interval) are held.
    expect(most).toBeLessThanOrEqual(1500);
  });
});
