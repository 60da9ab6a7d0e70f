/**
 * The v10 store contract (V5–V10, V13–V16, V19, V21), on a manual clock, against every store:
 * what a decision answers for each state of a route, its hash's bucket and the token.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Reservation } from '../../src/contracts/store.ts';
import { MemoryStore, type Admission, type Store, type V10Settings } from '../../src/index.ts';
import type { V10Update } from '../../src/dialects/v10/rules.ts';
import type { RedisStore } from '../../src/redis/index.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { connectedStore, redisStoresForFile } from '../support/redis.ts';
import { redisDeploymentsForFile } from '../support/redis-deployments.ts';
import { keyedView, type KeyedView } from '../support/keyed-view.ts';

const SETTINGS: V10Settings = { globalLimit: 50, resetMarginMs: 50, globalMarginMs: 50, invalidRequestLimit: 100 };
const PUT_REACTION = 'PUT /channels/:id/messages/:id/reactions/:reaction/@me channels/1';
const DELETE_REACTION = 'DELETE /channels/:id/messages/:id/reactions/:reaction/@me channels/1';
const ON_OTHER_CHANNEL = 'PUT /channels/:id/messages/:id/reactions/:reaction/@me channels/2';
const CREATE = 'POST /channels/:id/messages channels/1';
const WEBHOOK = 'POST /webhooks/:id/:token webhooks/5/token';

const redisStore = redisStoresForFile('v10', { time: 'client' });
const [, onSentinel, onCluster] = redisDeploymentsForFile();
const v10Factories: [string, () => Promise<Store>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  ['RedisStore', redisStore],
  ['RedisStore (Sentinel)', () => onSentinel.store('v10', { time: 'client' })],
  ['RedisStore (Cluster)', () => onCluster.store('v10', { time: 'client' })],
];

describe.each(v10Factories)('v10 store contract on %s', (_, make) => {
  let clock: ManualClock;
  const view = async (token = 'Bot v10', settings = SETTINGS) => {
    clock = new ManualClock();
    const store = await make();
    return { store, view: keyedView(store, token, clock, settings) };
  };
  const grant = async (view: KeyedView<V10Update>, key: string): Promise<Reservation> => {
    const admission = await view.admit(key);
    if (admission.kind !== 'grant') throw new Error(`expected a grant on ${key}, got ${JSON.stringify(admission)}`);
    return admission.reservation;
  };
  const kind = async (view: KeyedView<V10Update>, key: string): Promise<Admission['kind']> =>
    (await view.admit(key)).kind;

  it('V5: limits unknown: one request per route + resource in flight; other resources go', async () => {
    const { view: v } = await view();
    await grant(v, PUT_REACTION);
    expect(await kind(v, PUT_REACTION)).toBe('await-response');
    expect(await kind(v, ON_OTHER_CHANNEL)).toBe('grant');
  });

  it('V5, rule V6: a route whose hash is unknown may count in any bucket of its resource: its first request holds a place in each', async () => {
    const { view: v } = await view();
    await v.settle(PUT_REACTION, await grant(v, PUT_REACTION), {
      limit: 3,
      remaining: 2,
      windowLeftMs: 1000,
      hash: 'react',
    });
    const firstDelete = await grant(v, DELETE_REACTION); // unknown: it may be 'react' too
    expect(await kind(v, PUT_REACTION)).toBe('grant');
    expect(await kind(v, PUT_REACTION)).toBe('await-response'); // 2 left, one held by the DELETE
    await v.settle(DELETE_REACTION, firstDelete, { limit: 3, remaining: 0, windowLeftMs: 990, hash: 'react' });
    expect(await kind(v, PUT_REACTION)).toBe('sleep'); // the DELETE did count in 'react'
  });

  it('V5: a bucket not known yet waits while another route’s first request on its resource is in flight', async () => {
    const { view: v } = await view();
    // The PUT's hash is learned on channel 2; its first request on channel 1 is still out.
    const putOnFirst = await grant(v, PUT_REACTION);
    await v.settle(ON_OTHER_CHANNEL, await grant(v, ON_OTHER_CHANNEL), {
      limit: 1,
      remaining: 0,
      windowLeftMs: 1000,
      hash: 'react',
    });
    expect(await kind(v, PUT_REACTION)).toBe('await-response');
    await v.settle(PUT_REACTION, putOnFirst, { limit: 1, remaining: 0, windowLeftMs: 1000, hash: 'react' });
    expect(await kind(v, PUT_REACTION)).toBe('sleep');
  });

  it('rule V6, V7: routes reporting one hash share one count per resource', async () => {
    const { view: v } = await view();
    await v.settle(PUT_REACTION, await grant(v, PUT_REACTION), {
      limit: 3,
      remaining: 2,
      windowLeftMs: 1000,
      hash: 'react',
    });
    // DELETE is unknown until its own response names the same hash.
    await v.settle(DELETE_REACTION, await grant(v, DELETE_REACTION), {
      limit: 3,
      remaining: 1,
      windowLeftMs: 1000,
      hash: 'react',
    });
    expect(await v.get(PUT_REACTION)).toMatchObject({ limit: 3, remaining: 1, hash: 'react' });
    expect(await kind(v, DELETE_REACTION)).toBe('grant');
    expect(await kind(v, PUT_REACTION)).toBe('sleep'); // one count: 1 left, taken by the DELETE
    expect(await kind(v, ON_OTHER_CHANNEL)).toBe('grant'); // another channel: its own count
  });

  it('V7: Remaining is the lowest seen in a window; a changed Limit takes the reported one', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 5, remaining: 2, windowLeftMs: 1000, hash: 'm' });
    const late = await grant(v, CREATE);
    await v.settle(CREATE, late, { limit: 5, remaining: 4, windowLeftMs: 995 }); // a late, higher figure
    expect((await v.get(CREATE))!.remaining).toBe(1);
    await v.settle(CREATE, await grant(v, CREATE), { limit: 10, remaining: 7, windowLeftMs: 990 });
    expect(await v.get(CREATE)).toMatchObject({ limit: 10, remaining: 7 });
  });

  it('V7: a Reset a few ms off is not a new window', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 5, remaining: 1, windowLeftMs: 1000 });
    const reset = (await v.get(CREATE))!.reset;
    await v.settle(CREATE, await grant(v, CREATE), { limit: 5, remaining: 3, windowLeftMs: 1030 });
    expect(await v.get(CREATE)).toMatchObject({ remaining: 0, reset });
  });

  it('V7: an answer that opens a new window takes its Remaining less the others still in flight', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 5, remaining: 4, windowLeftMs: 1000, hash: 'm' });
    const first = await grant(v, CREATE);
    await grant(v, CREATE);
    await grant(v, CREATE); // 1 left, 3 in flight
    clock.set(clock.now() + 1100); // the window is over; nobody asked since
    // The first answer from the next window: 4 left there, but the two still out may count in it.
    await v.settle(CREATE, first, { limit: 5, remaining: 4, windowLeftMs: 1000 });
    expect((await v.get(CREATE))!.remaining).toBe(2);
    expect(await kind(v, CREATE)).toBe('grant');
    expect(await kind(v, CREATE)).toBe('grant');
    expect(await kind(v, CREATE)).toBe('sleep');
  });

  it('V7: an answer that changes Limit takes its Remaining less the others still in flight', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 5, remaining: 4, windowLeftMs: 1000, hash: 'm' });
    const first = await grant(v, CREATE);
    await grant(v, CREATE);
    await grant(v, CREATE); // 1 left, 3 in flight
    // Same window, a higher Limit: 7 left as the service counts, less the two still out.
    await v.settle(CREATE, first, { limit: 10, remaining: 7, windowLeftMs: 990 });
    expect(await v.get(CREATE)).toMatchObject({ limit: 10, remaining: 5 });
    for (let i = 0; i < 5; i++) expect(await kind(v, CREATE)).toBe('grant');
    expect(await kind(v, CREATE)).toBe('sleep');
  });

  it('V8: a refill leaves out the requests still in flight (they may count in the new window)', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 3, remaining: 2, windowLeftMs: 1000, hash: 'm' });
    const held = await grant(v, CREATE); // sent in the old window, still out at its end
    clock.set(clock.now() + 1050); // the window's end plus the margin
    // Refilled to 3 − 1 in flight.
    expect(await kind(v, CREATE)).toBe('grant');
    expect(await kind(v, CREATE)).toBe('grant');
    expect(await kind(v, CREATE)).toBe('await-response');
    // The held request did count in the new window: 2 left there, both taken by the refill's grants.
    await v.settle(CREATE, held, { limit: 3, remaining: 2, windowLeftMs: 1000 });
    expect(await kind(v, CREATE)).toBe('sleep');
  });

  it('V8: at Remaining 0 the key is held until the window ends plus the margin', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 1, remaining: 0, windowLeftMs: 800 });
    expect(await v.admit(CREATE)).toEqual({ kind: 'sleep', ms: 850, reset: expect.any(Number) });
    clock.set(clock.now() + 849);
    expect(await kind(v, CREATE)).toBe('sleep');
    clock.set(clock.now() + 1);
    expect(await kind(v, CREATE)).toBe('grant'); // refilled: limit 1, less nothing in flight
    expect(await kind(v, CREATE)).toBe('await-response'); // the window's successor is not known yet
  });

  it('V9: a held key waits out retry_after even when its window has ended', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 5, remaining: 0, windowLeftMs: 100, holdBucketMs: 5000 });
    clock.set(clock.now() + 1000);
    expect(await v.admit(CREATE)).toMatchObject({ kind: 'sleep', ms: 4000 });
    clock.set(clock.now() + 4000);
    expect(await kind(v, CREATE)).toBe('grant');
  });

  it('V10: a shared-scope hold delays only that route + resource', async () => {
    const { view: v } = await view();
    await v.settle(PUT_REACTION, await grant(v, PUT_REACTION), {
      limit: 5,
      remaining: 4,
      windowLeftMs: 1000,
      hash: 'react',
    });
    await v.settle(DELETE_REACTION, await grant(v, DELETE_REACTION), {
      limit: 5,
      remaining: 3,
      windowLeftMs: 1000,
      hash: 'react',
    });
    await v.settle(PUT_REACTION, await grant(v, PUT_REACTION), {
      limit: 5,
      remaining: 9,
      windowLeftMs: 1000,
      holdRouteMs: 60_000,
    });
    expect(await v.admit(PUT_REACTION)).toMatchObject({ kind: 'sleep', ms: 60_000 });
    expect(await kind(v, DELETE_REACTION)).toBe('grant');
    expect(await kind(v, ON_OTHER_CHANNEL)).toBe('grant');
  });

  it('V12: the global lock holds non-exempt routes only', async () => {
    const { view: v } = await view();
    await v.lockGlobal(2000);
    expect(await v.admit(CREATE)).toEqual({ kind: 'global', ms: 2000 });
    expect(await kind(v, WEBHOOK)).toBe('grant');
  });

  it('V13: at most N requests per token in any second plus the margin; exempt routes are not counted', async () => {
    const { view: v } = await view('Bot pace', { ...SETTINGS, globalLimit: 3 });
    const keys = [1, 2, 3, 4].map((channel) => `GET /channels/:id channels/${channel}`);
    const granted = [];
    for (const key of keys.slice(0, 3)) granted.push([key, await grant(v, key)] as const);
    expect(await kind(v, WEBHOOK)).toBe('grant');
    // In flight, the three hold their places: the wait is a window, then it is checked again.
    expect(await v.admit(keys[3]!)).toEqual({ kind: 'global', ms: 1050, pace: true });
    clock.set(clock.now() + 200);
    for (const [key, reservation] of granted)
      await v.settle(key, reservation, { limit: 5, remaining: 4, windowLeftMs: 5000 });
    // Each counts from its answer (200 ms after it left): a place frees up a window after that.
    expect(await v.admit(keys[3]!)).toEqual({ kind: 'global', ms: 1050, pace: true });
    clock.set(clock.now() + 1049);
    expect(await kind(v, keys[3]!)).toBe('global');
    clock.set(clock.now() + 1);
    expect(await kind(v, keys[3]!)).toBe('grant');
  });

  it('V13: an answered request counts from its answer, not from when the store heard of it', async () => {
    const { view: v } = await view('Bot pace answer', { ...SETTINGS, globalLimit: 1 });
    const keys = [1, 2].map((channel) => `GET /channels/:id channels/${channel}`);
    const start = clock.now();
    const sent = await grant(v, keys[0]!);
    clock.set(start + 140);
    // Answered at start + 100, settled 40 ms later (a store round trip, a busy process).
    await v.settle(keys[0]!, { ...sent, answeredAt: start + 100 }, { limit: 5, remaining: 4, windowLeftMs: 5000 });
    expect(await v.admit(keys[1]!)).toEqual({ kind: 'global', ms: 100 + 1050 - 140, pace: true });
    clock.set(start + 1149);
    expect(await kind(v, keys[1]!)).toBe('global');
    clock.set(start + 1150);
    expect(await kind(v, keys[1]!)).toBe('grant');
  });

  it('V13: a request never sent gives its place in the pace back', async () => {
    const { view: v } = await view('Bot pace back', { ...SETTINGS, globalLimit: 1 });
    const held = await grant(v, CREATE);
    expect(await kind(v, 'GET /channels/:id channels/9')).toBe('global');
    await v.giveBack(CREATE, held);
    expect(await kind(v, 'GET /channels/:id channels/9')).toBe('grant');
  });

  it('V13: a request ended without an answer (timeout, abort, network error) keeps its place in the pace for a window from its release', async () => {
    const { view: v } = await view('Bot pace release', { ...SETTINGS, globalLimit: 2 });
    const keys = [1, 2, 3].map((channel) => `GET /channels/:id channels/${channel}`);
    const lost = await grant(v, keys[0]!);
    await grant(v, keys[1]!); // still in flight throughout
    clock.set(clock.now() + 200);
    await v.release(keys[0]!, lost);
    // It may have reached the service as late as its release: its place is not free yet.
    expect(await v.admit(keys[2]!)).toEqual({ kind: 'global', ms: 1050, pace: true });
    clock.set(clock.now() + 1049);
    expect(await v.admit(keys[2]!)).toEqual({ kind: 'global', ms: 1, pace: true });
    // A window (1 s + globalMargin) after the release, the place is free again.
    clock.set(clock.now() + 1);
    expect(await kind(v, keys[2]!)).toBe('grant');
  });

  it('V13: released requests free their places after the window: 60 released calls never stall the token', async () => {
    const { view: v } = await view('Bot pace released', { ...SETTINGS, globalLimit: 3 });
    const keys = [1, 2, 3].map((channel) => `GET /channels/:id channels/${channel}`);
    const next = 'GET /channels/:id channels/4';
    for (let round = 0; round < 20; round++) {
      for (const key of keys) await v.release(key, await grant(v, key));
      expect(await v.admit(next)).toEqual({ kind: 'global', ms: 1050, pace: true });
      clock.set(clock.now() + 1050);
    }
    expect(await kind(v, next)).toBe('grant');
  });

  it('§3a: a 429 without bucket headers holds the route + resource and leaves an unknown bucket unknown (not V14\'s "no limit")', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { holdRouteMs: 1000, invalid: true, limitsUnknown: true });
    expect(await v.get(CREATE)).toBeUndefined();
    expect(await kind(v, CREATE)).toBe('sleep');
    clock.set(clock.now() + 1000);
    await grant(v, CREATE); // one request finds out the limits (V5)
    expect(await kind(v, CREATE)).toBe('await-response');
  });

  it('V14: a route that answered without headers has no per-route limit', async () => {
    const { view: v } = await view();
    const key = 'DELETE /channels/:id/messages/:id#new channels/1';
    await v.settle(key, await grant(v, key), {});
    for (let i = 0; i < 5; i++) await grant(v, key);
  });

  it('V15: the guard refuses every request once the invalid requests reach its limit; they age out after 10 minutes', async () => {
    const { view: v } = await view('Bot guard', { ...SETTINGS, invalidRequestLimit: 3 });
    for (let i = 0; i < 3; i++) {
      const result = await v.settle(CREATE, await grant(v, CREATE), {
        limit: 50,
        remaining: 40,
        windowLeftMs: 1000,
        invalid: true,
      });
      expect(result).toEqual({ invalidRequests: i + 1 });
      clock.set(clock.now() + 1000);
    }
    const refused = await v.admit(CREATE);
    expect(refused).toMatchObject({ kind: 'refuse', error: { name: 'InvalidRequestGuardError', count: 3, limit: 3 } });
    expect(await v.invalidRequests!()).toBe(3);
    clock.set(clock.now() + 10 * 60_000 - 3000);
    expect(await kind(v, CREATE)).toBe('grant');
    expect(await v.invalidRequests!()).toBe(2);
  });

  it('V15, V21: one invalid-request count for every token of the store; buckets stay apart', async () => {
    const { store, view: first } = await view('Bot one');
    const second = keyedView(store, 'Bot two', clock, SETTINGS);
    await first.settle(CREATE, await grant(first, CREATE), {
      limit: 1,
      remaining: 0,
      windowLeftMs: 5000,
      invalid: true,
    });
    await second.noteInvalid!();
    expect(await first.invalidRequests!()).toBe(2);
    expect(await second.invalidRequests!()).toBe(2);
    expect(await kind(first, CREATE)).toBe('sleep');
    expect(await kind(second, CREATE)).toBe('grant');
  });

  it('V16: after a 401 the token is refused unsent; exempt routes (sent without it) go on', async () => {
    const { view: v } = await view('Bot revoked');
    await v.settle(CREATE, await grant(v, CREATE), { invalid: true, tokenInvalid: true });
    expect(await v.admit('GET /users/@me -')).toMatchObject({ kind: 'refuse', error: { name: 'TokenInvalidError' } });
    expect(await kind(v, WEBHOOK)).toBe('grant');
  });

  it('V19: a webhook that answered 404 is refused unsent', async () => {
    const { view: v } = await view();
    await v.settle(WEBHOOK, await grant(v, WEBHOOK), { gone: true });
    expect(await v.admit('PATCH /webhooks/:id/:token/messages/:id webhooks/5/token')).toMatchObject({
      kind: 'refuse',
      error: { name: 'WebhookGoneError' },
    });
    expect(await kind(v, 'POST /webhooks/:id/:token webhooks/6/token')).toBe('grant');
  });

  it('a reservation never sent gives its place back in its own window', async () => {
    const { view: v } = await view();
    await v.settle(CREATE, await grant(v, CREATE), { limit: 2, remaining: 1, windowLeftMs: 1000, hash: 'm' });
    const held = await grant(v, CREATE);
    expect(await kind(v, CREATE)).toBe('sleep');
    await v.giveBack(CREATE, held);
    expect(await kind(v, CREATE)).toBe('grant');
  });
});

const others: RedisStore[] = [];
afterAll(async () => {
  await Promise.all(others.map((store) => store.close()));
});
async function sameRedis(store: RedisStore): Promise<RedisStore> {
  const other = await connectedStore('v10-shared', { prefix: store.prefix, time: 'client' });
  others.push(other);
  return other;
}

describe('v10 on Redis: what processes (stores) on one token share', () => {
  const twoProcesses = async () => {
    const first = await redisStore();
    // A second connection under the first one's prefix: another process on the same Redis.
    const second = await sameRedis(first);
    return { clock: new ManualClock(), first, second };
  };

  it('a hash learned by one process maps the route in every other; they share its count', async () => {
    const { clock, first, second } = await twoProcesses();
    const a = keyedView(first, 'Bot shared', clock, SETTINGS);
    const b = keyedView(second, 'Bot shared', clock, SETTINGS);
    const probe = await a.admit(PUT_REACTION);
    if (probe.kind !== 'grant') throw new Error('expected a grant');
    await a.settle(PUT_REACTION, probe.reservation, { limit: 2, remaining: 1, windowLeftMs: 1000, hash: 'react' });
    expect(await b.get(PUT_REACTION)).toMatchObject({ limit: 2, remaining: 1, hash: 'react' });
    expect((await b.admit(PUT_REACTION)).kind).toBe('grant');
    expect((await a.admit(PUT_REACTION)).kind).toBe('sleep');
  });

  it('the global pace and lock are one per token across processes; another token has its own', async () => {
    const { clock, first, second } = await twoProcesses();
    const settings = { ...SETTINGS, globalLimit: 2 };
    const a = keyedView(first, 'Bot pace', clock, settings);
    const b = keyedView(second, 'Bot pace', clock, settings);
    const other = keyedView(second, 'Bot other', clock, settings);
    expect((await a.admit('GET /channels/:id channels/1')).kind).toBe('grant');
    const fromB = await b.admit('GET /channels/:id channels/2');
    expect(fromB.kind).toBe('grant');
    expect(await a.admit('GET /channels/:id channels/3')).toMatchObject({ kind: 'global', pace: true });
    // Answered in the other process: it counts from its answer there.
    clock.set(clock.now() + 300);
    if (fromB.kind === 'grant')
      await b.settle('GET /channels/:id channels/2', fromB.reservation, { limit: 5, remaining: 4, windowLeftMs: 5000 });
    expect(await a.admit('GET /channels/:id channels/3')).toEqual({ kind: 'global', ms: 1050, pace: true });
    clock.set(clock.now() - 300);
    expect((await other.admit('GET /channels/:id channels/3')).kind).toBe('grant');
    await b.lockGlobal(5000);
    clock.set(clock.now() + 2000);
    expect(await a.admit('GET /channels/:id channels/4')).toEqual({ kind: 'global', ms: 3000 });
    expect((await other.admit('GET /channels/:id channels/4')).kind).toBe('grant');
  });

  it('the invalid-request count is one per egress IP group (by default, per store prefix), over every token and process', async () => {
    const { clock, first, second } = await twoProcesses();
    const a = keyedView(first, 'Bot one', clock, SETTINGS);
    const b = keyedView(second, 'Bot two', clock, SETTINGS);
    await a.noteInvalid!();
    expect(await b.noteInvalid!()).toEqual({ invalidRequests: 2 });
    expect(await a.invalidRequests!()).toBe(2);
  });
});
