/**
 * tollgate on Cloudflare Workers, in workerd (miniflare), against the reference service on
 * loopback:
 * 1. bundle sizes, minified and gzipped, as wrangler bundles: the smallest Worker using tollgate,
 *    and one with tollgate/cloudflare's Durable Object store (Workers allow 3 MB gzipped on the
 *    free plan, 10 MB paid);
 * 2. what a decision costs in the Durable Object: the same calls one after the other through a
 *    memory store and through `DurableObjectStore`, the object's calls per request (one RPC per
 *    view method: admit, then settle), the time added per request, and one bare call's round
 *    trip. Locally the object runs in the same workerd process as the Worker; on Cloudflare it
 *    may sit in another data centre, and each of those calls costs a network round trip to it.
 */
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { ReferenceService } from '../src/testing/index.ts';
import { bundleWorker, COMPATIBILITY_DATE } from '../test/support/workers.ts';

const CALLS = 1000;
const ROUNDS = 7;
const workers = join(import.meta.dirname, 'workers');

export interface CloudflareResult {
  readonly bundles: readonly { readonly worker: string; readonly minifiedKiB: number; readonly gzipKiB: number }[];
  readonly calls: number;
  /** One bare call to the object and back, in ms (the best of the rounds). */
  readonly roundTripMs: number;
  readonly runs: readonly {
    readonly store: string;
    /** ms per request, the median of the rounds (each round's calls one after the other). */
    readonly msPerRequest: number;
    readonly objectCallsPerRequest: number;
    readonly status429: number;
  }[];
}

interface CallsAnswer {
  readonly calls: number;
  readonly elapsedMs: number;
  readonly objectCalls: number;
  readonly status429: number;
}

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export async function runCloudflareBench(): Promise<CloudflareResult> {
  const core = await bundleWorker(join(workers, 'core.ts'));
  const limits = await bundleWorker(join(workers, 'limits.ts'));
  const service = await new ReferenceService({
    defaultLimit: { limit: 100_000, windowMs: 1000 },
    global: { limit: 100_000, windowMs: 1000 },
  }).start();
  const miniflare = new Miniflare({
    modules: true,
    script: limits.code,
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: { LIMITS: 'TollgateLimits' },
  });
  try {
    // Rounds alternate between the stores, so a slower moment of the machine falls on both; a
    // first round warms the isolate, the object and the connections; the median of the rest counts.
    const stores = ['memory', 'durable-object'] as const;
    const answers = new Map<string, CallsAnswer[]>(stores.map((store) => [store, []]));
    for (let round = 0; round <= ROUNDS; round++) {
      for (const store of stores) {
        const query = `service=${encodeURIComponent(service.baseUrl)}&calls=${CALLS}&store=${store}`;
        const answer = (await (await miniflare.dispatchFetch(`http://bench/calls?${query}`)).json()) as CallsAnswer;
        if (round > 0) answers.get(store)!.push(answer);
      }
    }
    const run = (store: string): CloudflareResult['runs'][number] => {
      const rounds = answers.get(store)!.sort((a, b) => a.elapsedMs - b.elapsedMs);
      const median = rounds[Math.floor(rounds.length / 2)]!;
      return {
        store,
        msPerRequest: median.elapsedMs / CALLS,
        objectCallsPerRequest: median.objectCalls / CALLS,
        status429: Math.max(...rounds.map((answer) => answer.status429)),
      };
    };
    let roundTripMs = Infinity;
    for (let round = 0; round <= ROUNDS; round++) {
      const answer = (await (
        await miniflare.dispatchFetch(`http://bench/round-trips?calls=${CALLS * 5}`)
      ).json()) as CallsAnswer;
      if (round > 0) roundTripMs = Math.min(roundTripMs, answer.elapsedMs / answer.calls);
    }
    return {
      roundTripMs,
      bundles: [
        { worker: 'tollgate (one client, one call)', minifiedKiB: kib(core.bytes), gzipKiB: kib(core.gzipBytes) },
        {
          worker: 'tollgate + tollgate/cloudflare (DurableObjectStore, TollgateLimits)',
          minifiedKiB: kib(limits.bytes),
          gzipKiB: kib(limits.gzipBytes),
        },
      ],
      calls: CALLS,
      runs: stores.map(run),
    };
  } finally {
    await miniflare.dispose();
    await service.stop();
  }
}
