/**
 * `tollgate/cloudflare` in workerd (miniflare): two Workers, each its own isolate, bound to one
 * Durable Object namespace, send concurrent bursts on one token against the reference service.
 * The token's limits live in one object, so the global limit and each channel's limit hold across
 * both Workers: no 429. The same bursts with a memory store per burst draw 429s (the control
 * that shows the load is enough to break limits that are not shared). Bad bindings fail with a
 * clear error. Real time: the Workers run in workerd, another process.
 */
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReferenceService } from '../../src/testing/index.ts';
import { mostWithin } from '../../src/testing/limits.ts';
import { bundleWorker, COMPATIBILITY_DATE } from '../support/workers.ts';

const TOKEN = 'Bot durable-object-9d2e';
const GLOBAL = { limit: 20, windowMs: 1000 };
const PER_CHANNEL = { limit: 5, windowMs: 1000 };
/** Six bursts at once, three through each Worker: 10 calls each on 4 channels. */
const BURSTS = 6;
const BURST = 'creates=5&reads=5&channels=4';

interface BurstOutcome {
  readonly resolved: number;
  readonly errors: readonly { name: string; message: string }[];
  readonly rateLimited: number;
  readonly elapsedMs: number;
}

let service: ReferenceService;
let miniflare: Miniflare;
/** What the tests use of miniflare's handle on a Worker (its types are workerd's, not Node's). */
interface WorkerFetcher {
  fetch(url: string): Promise<{ readonly status: number; json(): Promise<unknown> }>;
}
let workers: { a: WorkerFetcher; b: WorkerFetcher };
let query: string;

beforeAll(async () => {
  service = await new ReferenceService({ global: GLOBAL, defaultLimit: PER_CHANNEL, validTokens: [TOKEN] }).start();
  query = `service=${encodeURIComponent(service.baseUrl)}&globalLimit=${GLOBAL.limit}`;
  const { code } = await bundleWorker(join(import.meta.dirname, 'limits-worker.ts'));
  const common = { modules: true, script: code, compatibilityDate: COMPATIBILITY_DATE, bindings: { TOKEN } };
  miniflare = new Miniflare({
    workers: [
      { ...common, name: 'a', durableObjects: { LIMITS: 'TollgateLimits', WRONG_CLASS: 'SomethingElse' } },
      // The second Worker binds the first one's class: one namespace, two isolates.
      { ...common, name: 'b', durableObjects: { LIMITS: { className: 'TollgateLimits', scriptName: 'a' } } },
    ],
  });
  const fetcher = async (name: string) => (await miniflare.getWorker(name)) as unknown as WorkerFetcher;
  workers = { a: await fetcher('a'), b: await fetcher('b') };
});
afterAll(async () => {
  await miniflare?.dispose();
  await service?.stop();
});
beforeEach(() => {
  service.requests.length = 0;
});

async function bursts(store: 'durable-object' | 'memory'): Promise<BurstOutcome[]> {
  return Promise.all(
    Array.from({ length: BURSTS }, async (_, i) => {
      const worker = i % 2 === 0 ? workers.a : workers.b;
      const response = await worker.fetch(`http://worker/burst?${query}&${BURST}&store=${store}`);
      return (await response.json()) as BurstOutcome;
    }),
  );
}

describe('DurableObjectStore: one token, two Workers, one object', () => {
  it('holds the global limit and every channel limit across both Workers: 60 calls, no 429', async () => {
    const outcomes = await bursts('durable-object');
    expect(outcomes.map((outcome) => outcome.errors)).toEqual(Array.from({ length: BURSTS }, () => []));
    expect(outcomes.reduce((sum, outcome) => sum + outcome.resolved, 0)).toBe(60);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.rateLimited, 0)).toBe(0);
    expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
    // The service counts the global limit over a sliding second; each channel's bucket over
    // windows from its first request (a 429 above had it gone past one).
    expect(
      mostWithin(
        service.requests.map((request) => request.at).sort((a, b) => a - b),
        GLOBAL.windowMs,
      ),
    ).toBeLessThanOrEqual(GLOBAL.limit);
    expect(new Set(service.requests.map((request) => request.bucketKey)).size).toBe(8);
    // 60 calls at 20 a second: about three seconds, not the fifteen of one call at a time.
    expect(Math.max(...outcomes.map((outcome) => outcome.elapsedMs))).toBeGreaterThanOrEqual(2000);
  });

  it('control: the same bursts with a memory store each draw 429s (limits kept apart do not hold)', async () => {
    const outcomes = await bursts('memory');
    expect(outcomes.reduce((sum, outcome) => sum + outcome.rateLimited, 0)).toBeGreaterThan(0);
    expect(service.requests.filter((request) => request.status === 429).length).toBeGreaterThan(0);
  });

  it('a binding of another class fails the call with a TollgateArgumentError that names TollgateLimits', async () => {
    const response = await workers.a.fetch(`http://worker/misbound?${query}`);
    const outcome = (await response.json()) as { name: string; message: string };
    expect(outcome.name).toBe('TollgateArgumentError');
    expect(outcome.message).toMatch(/not tollgate's TollgateLimits .*class_name = "TollgateLimits"/s);
    expect(service.requests).toEqual([]);
  });

  it('a missing binding fails at construction, saying so', async () => {
    const response = await workers.a.fetch('http://worker/unbound');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      name: 'TollgateArgumentError',
      message:
        'DurableObjectStore: the first argument must be a Durable Object namespace binding (env.TOLLGATE_LIMITS), got undefined: is the binding missing or misnamed in wrangler.toml?',
    });
  });
});
