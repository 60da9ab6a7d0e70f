/**
 * The reference service is an oracle that shares no code with the client's classification: a
 * mistake planted in the client's `classifyV10` and in the route plans of its typed operations
 * (`v10BucketFinder`, src/dialects/v10/route.ts) is not made by the service too, so an end-to-end
 * run against it shows the mistake. Each scenario runs twice: with
 * no plant it is clean; with its plant the run fails the way the mistake makes it fail.
 *
 * Were the service to key its buckets with the client's function again, the plant would reach
 * it as well and both would agree: the first two planted cases would then fail (tried: the 429s
 * and the 401s are gone). The third is caught by the run's own invariant either way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as RouteModule from '../../src/dialects/v10/route.ts';
import type { V10Bucket } from '../../src/dialects/v10/route.ts';
import type { PathSegment } from '../../src/contracts/catalog.ts';
import { startE2E, type E2E } from '../support/e2e.ts';

/** The mistake planted in the client's classification (undefined: none), and how often it changed a route. */
const plant = vi.hoisted(() => ({
  mistake: undefined as ((route: V10Bucket, path: string) => V10Bucket) | undefined,
  applied: 0,
}));

vi.mock('../../src/dialects/v10/route.ts', async (importOriginal) => {
  const original = await importOriginal<typeof RouteModule>();
  const withMistake = (route: V10Bucket, path: string): V10Bucket => {
    const planted = plant.mistake?.(route, path) ?? route;
    if (planted !== route) plant.applied += 1;
    return { ...planted, bucketKey: original.joinKey(planted.route, planted.resource) };
  };
  return {
    ...original,
    classifyV10: (method: string, path: string, nowMs: number): V10Bucket =>
      withMistake(original.classifyV10(method, path, nowMs), path),
    v10BucketFinder: (method: string, pattern: readonly PathSegment[]): RouteModule.V10BucketFinder | undefined => {
      const plan = original.v10BucketFinder(method, pattern);
      return (
        plan && {
          bucketOf: (values, nowMs) => {
            const route = plan.bucketOf(values, nowMs);
            return route && withMistake(route, pathOf(pattern, values));
          },
        }
      );
    },
  };
});

/** A typed call's path from its pattern and its parameters' values. */
function pathOf(pattern: readonly PathSegment[], values: readonly string[]): string {
  let parameter = 0;
  return pattern.map((segment) => `/${typeof segment === 'string' ? segment : values[parameter++]}`).join('');
}

const CHANNEL = '81384788765712384';
const CHANNELS = [CHANNEL, '81384788765712385', '81384788765712386'];
const LIMIT = { limit: 3, windowMs: 1000 };

let e2e: E2E | undefined;
afterEach(async () => {
  plant.mistake = undefined;
  plant.applied = 0;
  await e2e?.stop();
  e2e = undefined;
});

/** The mistakes: each one a wrong answer to a question §4 or §5 of the v10 spec settles. */
const MISTAKES = {
  /** A message route files under its message (`channels/<message id>`), not its channel: the count splits. */
  messageAsResource: (route: V10Bucket, path: string): V10Bucket => {
    const message = /^\/channels\/\d+\/messages\/(\d+)/.exec(path)?.[1];
    return message === undefined ? route : { ...route, resource: `channels/${message}` };
  },
  /** The top-level resource dropped from channel routes: every channel shares one count. */
  resourceDropped: (route: V10Bucket): V10Bucket =>
    route.resource.startsWith('channels/') ? { ...route, resource: '' } : route,
  /** A message create taken for an exempt route: sent without Authorization, outside the global pace. */
  createExempt: (route: V10Bucket): V10Bucket =>
    route.route === 'POST /channels/:id/messages' ? { ...route, exempt: true } : route,
};

const statuses = (service: E2E['service']) => service.requests.map((request) => request.status);

/** Nine edits of nine messages of one channel, its limit 3 per second. */
async function editsInOneChannel() {
  e2e = await startE2E({ api: 'v10', defaultLimit: LIMIT });
  const client = e2e.client;
  const edits = Array.from({ length: 9 }, (_, i) =>
    client.channels.messages.edit(CHANNEL, String(1_000_000 + i), { content: `edit ${i}` }),
  );
  const results = await e2e.drive<unknown>(edits, 50);
  return { results, service: e2e.service };
}

/** Three creates in each of three channels, each channel's limit 3 per second: all fit the first window. */
async function createsInThreeChannels() {
  e2e = await startE2E({ api: 'v10', defaultLimit: LIMIT });
  const client = e2e.client;
  const creates = CHANNELS.flatMap((channel) =>
    Array.from({ length: 3 }, (_, i) => client.channels.messages.create(channel, { content: `#${i}` })),
  );
  const results = await e2e.drive<unknown>(creates, 50);
  const times = e2e.service.requests.map((request) => request.at);
  return { results, service: e2e.service, spanMs: Math.max(...times) - Math.min(...times) };
}

describe('no plant: the client and the independent service agree', () => {
  it('nine edits in one channel: every one done, zero 429s, never more than the limit per window', async () => {
    const { results, service } = await editsInOneChannel();
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(statuses(service).filter((status) => status === 429)).toEqual([]);
    for (const bucketKey of new Set(service.requests.map((request) => request.bucketKey)))
      expect(service.maxPerWindow(bucketKey)).toBeLessThanOrEqual(LIMIT.limit);
    expect(plant.applied).toBe(0);
  });

  it('three channels at once: each has its own count, so all nine go in the first window', async () => {
    const { results, service, spanMs } = await createsInThreeChannels();
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(statuses(service).filter((status) => status !== 200)).toEqual([]);
    expect(spanMs).toBeLessThan(LIMIT.windowMs);
  });
});

describe('a mistake planted in the client is caught by the service', () => {
  it("a message's id taken for the top-level resource: the service, counting per channel, answers 429s", async () => {
    plant.mistake = MISTAKES.messageAsResource;
    const { service } = await editsInOneChannel();
    expect(plant.applied).toBeGreaterThan(0);
    // The client believed each message had a count of its own and sent them together.
    const limited = service.requests.filter((request) => request.status === 429 && !request.global);
    expect(limited.length).toBeGreaterThan(0);
  });

  it('a message create taken for exempt: sent without Authorization, the service answers 401', async () => {
    plant.mistake = MISTAKES.createExempt;
    const { results, service } = await createsInThreeChannels();
    expect(plant.applied).toBeGreaterThan(0);
    expect(statuses(service)).toContain(401);
    expect(results.some((result) => result.status === 'rejected')).toBe(true);
  });

  it('the top-level resource dropped: no 429 (the client is only too slow), but the run breaks its invariant', async () => {
    plant.mistake = MISTAKES.resourceDropped;
    const { results, service, spanMs } = await createsInThreeChannels();
    expect(plant.applied).toBeGreaterThan(0);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    // Counting 429s alone would miss this one: the service saw nothing wrong ...
    expect(statuses(service).filter((status) => status === 429)).toEqual([]);
    // ... but calls to other channels were held behind one shared count, windows later.
    expect(spanMs).toBeGreaterThanOrEqual(LIMIT.windowMs);
  });
});
