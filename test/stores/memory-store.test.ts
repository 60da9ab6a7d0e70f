import { describe, expect, it } from 'vitest';
import type { V10Update } from '../../src/dialects/v10/rules.ts';
import type { V10Settings } from '../../src/dialects/v10/settings.ts';
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

describe('MemoryStore: views of tokens no client uses any more', () => {
  const V10: V10Settings = { globalLimit: 50, resetMarginMs: 50, globalMarginMs: 10, invalidRequestLimit: 100 };
  const CREATE = 'POST /channels/:id/messages channels/1';

  it('a view goes once its last client has closed and its windows are over; one still used stays', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const first = keyedView(memory, 'Bot a', clock);
    const second = keyedView(memory, 'Bot a', clock); // another client of the same token shares it
    const other = keyedView(memory, 'Bot b', clock);
    const open = keyedView(memory, 'Bot c', clock);
    await use(first, 'ChannelsId:1', T + 1);
    await use(other, 'ChannelsId:1', T + 1);
    await use(open, 'ChannelsId:1', T + 60);
    expect(memory.viewCount).toBe(3);
    await Promise.all([first.close(), other.close(), open.close()]);

    await clock.advance(3000 + SHED_INTERVAL_MS);
    keyedView(memory, 'Bot d', clock); // a view asked for: the store looks over the unused ones
    // Bot a: its second client is open. Bot b: gone. Bot c: its window runs to T + 60. Bot d: new.
    expect(memory.viewCount).toBe(3);
    expect(await second.get('ChannelsId:1')).toBeDefined();

    await clock.advance(60_000);
    keyedView(memory, 'Bot e', clock);
    expect(memory.viewCount).toBe(3); // a, d, e
  });

  it('a token that comes back before its view went finds its limits where they were', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const before = keyedView(memory, 'Bot a', clock);
    await use(before, 'ChannelsId:1', T + 60, 1); // remaining 0 until T + 60
    await before.close();
    await clock.advance(SHED_INTERVAL_MS);
    const after = keyedView(memory, 'Bot a', clock);
    expect((await after.admit('ChannelsId:1')).kind).toBe('sleep');
  });

  it('a token whose view waits to be swept keeps that one view when a client comes back: its limits never split between two', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const gone = keyedView(memory, 'Bot a', clock);
    await use(gone, 'ChannelsId:1', T + 1, 1); // remaining 0 until T + 1
    await gone.close(); // no client uses the view: it waits to be swept once idle
    const back = keyedView(memory, 'Bot a', clock);
    expect((await back.admit('ChannelsId:1')).kind).toBe('sleep');

    // The window is over and a sweep comes: the view is idle, but a client uses it again.
    await clock.advance(2000 + SHED_INTERVAL_MS);
    keyedView(memory, 'Bot b', clock);
    expect(memory.viewCount).toBe(2);
    await use(back, 'ChannelsId:2', T + 600, 1);
    // Another client of the token finds the window its first client spent.
    const another = keyedView(memory, 'Bot a', clock);
    expect((await another.admit('ChannelsId:2')).kind).toBe('sleep');
    expect(memory.viewCount).toBe(2);
  });

  it('v10: a view is held while its global pace counts answers of the last window, or a request is in flight', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const paced = keyedView<V10Update>(memory, 'Bot a', clock, V10);
    const answered = await paced.admit(CREATE);
    if (answered.kind !== 'grant') throw new Error(answered.kind);
    await paced.settle(CREATE, answered.reservation, { limit: 5, remaining: 4, windowLeftMs: 100 });
    const waiting = keyedView<V10Update>(memory, 'Bot b', clock, V10);
    const inFlight = await waiting.admit(CREATE);
    expect(inFlight.kind).toBe('grant');
    await Promise.all([paced.close(), waiting.close()]);

    await clock.advance(500); // the bucket's window is over; the pace still counts the answer
    await clock.advance(SHED_INTERVAL_MS - 500);
    keyedView(memory, 'Bot c', clock, V10);
    expect(memory.viewCount).toBe(3);

    await clock.advance(SHED_INTERVAL_MS);
    keyedView(memory, 'Bot c', clock, V10);
    expect(memory.viewCount).toBe(2); // Bot a's pace is empty; Bot b's request is still in flight
  });

  it('a relay of many tokens in turn holds the tokens in use, not every token it saw', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    let most = 0;
    for (let round = 0; round < 20; round++) {
      for (let index = 0; index < 50; index++) {
        const view = keyedView(memory, `Bot ${round * 50 + index}`, clock);
        await use(view, 'ChannelsId:1', T + round + 1);
        await view.close();
      }
      most = Math.max(most, memory.viewCount);
      await clock.advance(1000);
    }
    // 1000 tokens went through; the views held are those whose window is still open (and a shed interval).
    expect(most).toBeLessThanOrEqual(150);
  });
});

describe('MemoryStore: clients of one token tell each other what they change', () => {
  const events = (view: KeyedView) => {
    const seen: unknown[] = [];
    view.subscribe((event) => seen.push(event));
    return seen;
  };

  it("a settle, release or give-back through one client is a bucket event for the other, a global lock a global one; never one's own", async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const first = keyedView(memory, 'Bot a', clock);
    const second = keyedView(memory, 'Bot a', clock);
    const firstSaw = events(first);
    const secondSaw = events(second);
    await use(first, 'ChannelsId:1', T + 60);
    const released = await first.admit('ChannelsId:1');
    const givenBack = await first.admit('ChannelsId:1');
    if (released.kind !== 'grant' || givenBack.kind !== 'grant') throw new Error('expected grants');
    await first.release('ChannelsId:1', released.reservation);
    await first.giveBack('ChannelsId:1', givenBack.reservation);
    await first.lockGlobal(250);
    await Promise.resolve(); // events come after the change, as Redis's come after its script
    expect(secondSaw).toEqual([
      { kind: 'bucket', bucketKey: 'ChannelsId:1' },
      { kind: 'bucket', bucketKey: 'ChannelsId:1' },
      { kind: 'bucket', bucketKey: 'ChannelsId:1' },
      { kind: 'global', ms: 250 },
    ]);
    expect(firstSaw).toEqual([]);
  });

  it('other tokens, and a client that closed, are told nothing', async () => {
    const clock = new ManualClock(T * 1000);
    const memory = new MemoryStore();
    const first = keyedView(memory, 'Bot a', clock);
    const closed = keyedView(memory, 'Bot a', clock);
    const other = keyedView(memory, 'Bot b', clock);
    const closedSaw = events(closed);
    const otherSaw = events(other);
    await closed.close();
    await use(first, 'ChannelsId:1', T + 60);
    await first.lockGlobal(100);
    await Promise.resolve();
    expect(closedSaw).toEqual([]);
    expect(otherSaw).toEqual([]);
  });
});
