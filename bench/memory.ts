/**
 * Memory: what a bucket costs, and whether the bucket map stays bounded. Runs in a child process
 * started with --expose-gc (so heap figures are after a full collection) and prints one JSON line.
 *
 * Each request is a limiter decision through the ky hook pair (beforeRequest + afterResponse, no
 * HTTP) on the memory store, with a clock the benchmark moves:
 * 1. one million distinct channel ids, every window still open: heap per bucket;
 * 2. time moves past every reset: the next call sheds them (heap after);
 * 3. one million distinct ids again while windows keep ending (1 000 calls per second of clock
 *    time, 1 s windows): the most buckets held at once and the heap at the end.
 */
import { V6_VIEW_REQUEST } from '../src/dialects/v6/index.ts';
import { judgeV6 } from '../src/dialects/v6/judge.ts';
import { describeCall } from '../src/limiter/call.ts';
import { Limiter } from '../src/limiter/limiter.ts';
import { MemoryStore } from '../src/index.ts';
import { CHILD_FLAG, heapUsedAfterGc, movedClock, runInChild } from './child.ts';

export interface MemoryResult {
  readonly buckets: number;
  readonly heapPerBucketBytes: number;
  readonly heapWithBucketsMiB: number;
  readonly bucketsAfterShed: number;
  readonly heapAfterShedMiB: number;
  readonly longRunIds: number;
  readonly longRunMostBuckets: number;
  readonly longRunHeapMiB: number;
  readonly baselineHeapMiB: number;
}

const IDS = 1_000_000;
const MiB = 1024 * 1024;

async function measure(): Promise<MemoryResult> {
  const heap = heapUsedAfterGc('memory bench');
  const { clock, advance } = movedClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const store = new MemoryStore();
  const limiter = new Limiter({
    clock,
    store: store.view(V6_VIEW_REQUEST, 'Bot memory-bench', clock),
    judge: judgeV6,
  });
  const { beforeRequest, afterResponse } = limiter.hooks();
  const request = new Request('http://bench.invalid/channels/1');
  const responseFor = (resetSeconds: number) =>
    new Response(null, {
      status: 200,
      headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': String(resetSeconds) },
    });

  async function decide(channel: number, response: Response): Promise<void> {
    const bucketKey = `ChannelsId:${100_000_000_000_000_000n + BigInt(channel)}`;
    const call = limiter.newCall(
      describeCall({ routeKey: 'ChannelsId', bucket: { bucketKey }, exempt: false, webhookWithToken: false }, 'GET', {
        maxWaitMs: Number.POSITIVE_INFINITY,
        transportRetries: 2,
      }),
    );
    const options = { context: call.context } as never;
    await beforeRequest![0]!({ request, options, retryCount: 0 });
    await afterResponse![0]!({ request, options, response: response as never, retryCount: 0 });
  }

  const baseline = heap();
  // 1. A million buckets whose windows are all still open (reset an hour away).
  const openWindow = responseFor(Math.floor(clock.now() / 1000) + 3600);
  for (let channel = 0; channel < IDS; channel++) await decide(channel, openWindow);
  const withBuckets = heap();
  const buckets = store.bucketCount;

  // 2. Every reset has passed; the next call sheds what nobody holds.
  advance(3601_000);
  await decide(IDS, responseFor(Math.floor(clock.now() / 1000) + 1));
  const afterShed = heap();
  const bucketsAfterShed = store.bucketCount;

  // 3. A long run: a million more ids, 1 000 calls per clock second, each window 1 s.
  let most = 0;
  for (let channel = 0; channel < IDS; channel++) {
    if (channel % 1000 === 0) {
      advance(1000);
      most = Math.max(most, store.bucketCount);
    }
    await decide(IDS + 1 + channel, responseFor(Math.floor(clock.now() / 1000) + 1));
  }
  const longRun = heap();
  await limiter.close();
  return {
    buckets,
    heapPerBucketBytes: (withBuckets - baseline) / buckets,
    heapWithBucketsMiB: withBuckets / MiB,
    bucketsAfterShed,
    heapAfterShedMiB: afterShed / MiB,
    longRunIds: IDS,
    longRunMostBuckets: most,
    longRunHeapMiB: longRun / MiB,
    baselineHeapMiB: baseline / MiB,
  };
}

/** Runs the measurement in a child process with --expose-gc. */
export const runMemoryBench = (): Promise<MemoryResult> => runInChild<MemoryResult>(import.meta.url, ['--expose-gc']);

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measure()));
