/**
 * A bucket's queue in one process (`limiter/bucket-queue.ts`), on a scripted store and a manual
 * clock: what a call past its maxWait is told about when to try again.
 */
import { describe, expect, it } from 'vitest';
import type { Admission, StoreView } from '../../src/contracts/store.ts';
import { RateLimitWaitError } from '../../src/errors.ts';
import { BucketQueues } from '../../src/limiter/bucket-queue.ts';
import type { CallState } from '../../src/limiter/call.ts';
import { ManualClock, settle } from '../support/manual-clock.ts';

const IDENTITY = {
  method: 'POST',
  route: 'POST /channels/:id/messages',
  routeKey: 'ChannelsIdMessages',
  bucketKey: 'POST /channels/:id/messages channels/1',
  resource: 'channels/1',
};
const BUCKET = { bucketKey: IDENTITY.bucketKey } as Parameters<BucketQueues['take']>[1];

function queueOn(clock: ManualClock, admissions: Admission[]) {
  const store = { admit: () => admissions.shift() ?? { kind: 'await-response' } } as unknown as StoreView;
  return new BucketQueues({ clock, store, sharedBuckets: false, holdGlobal: () => {}, emit: () => {} });
}

const call = (maxWaitMs: number) => ({ identity: IDENTITY, maxWaitMs, signal: undefined }) as unknown as CallState;

describe('a queued call past its maxWait', () => {
  it("is told to try again when its bucket's sleep ends, not after as long as it waited", async () => {
    const clock = new ManualClock();
    // Limits unknown at first (a probe in flight), then a window spent for 4 s more.
    const queues = queueOn(clock, [
      { kind: 'await-response' },
      { kind: 'await-response' },
      { kind: 'sleep', ms: 4000, reset: 9 },
    ]);
    const outcome = queues.take(call(5000), BUCKET).catch((error: unknown) => error);
    await settle();
    await clock.advance(3000);
    queues.wake(IDENTITY.bucketKey); // the probe's answer: the window is spent
    await settle();
    await clock.advance(2000); // 5 s in the queue: its maxWait, 2 s before the sleep ends
    const error = (await outcome) as RateLimitWaitError;
    expect(error).toBeInstanceOf(RateLimitWaitError);
    expect(error).toMatchObject({ reason: 'queue', waitMs: 5000, maxWaitMs: 5000, retryAfterMs: 2000 });
  });

  it('with no end known (a response awaited), is told to try again at once', async () => {
    const clock = new ManualClock();
    const queues = queueOn(clock, [{ kind: 'await-response' }, { kind: 'await-response' }]);
    const outcome = queues.take(call(1000), BUCKET).catch((error: unknown) => error);
    await settle();
    await clock.advance(1000);
    expect(await outcome).toMatchObject({ reason: 'queue', waitMs: 1000, retryAfterMs: 0 });
  });
});
