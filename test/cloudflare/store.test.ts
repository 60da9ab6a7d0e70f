/**
 * `DurableObjectStore` and the object's `LimitsHost` in Node.js: a namespace of hosts in this
 * process (test/support/durable-objects.ts) copies every call as RPC does, on manual clocks.
 * What the memory store never needs and this store must get right: refusals that keep their
 * class across the copy, answers timed on the object's clock, leases for callers that vanish,
 * held awaits, the token kept out of object names, and clear errors for bad bindings and an
 * unreachable object. That the decisions equal the memory store's is the differential property's
 * (test/stores/differential.property.int.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  InvalidRequestGuardError,
  StoreUnavailableError,
  TokenInvalidError,
  TollgateArgumentError,
  WebhookGoneError,
  type V10Settings,
  type V10Update,
} from '../../src/index.ts';
import { DurableObjectStore, type DurableObjectStoreOptions } from '../../src/cloudflare/store.ts';
import { errorOf, refusalOf } from '../../src/cloudflare/protocol.ts';
import { v10Refusals } from '../../src/dialects/v10/refusals.ts';
import { DEFAULT_LEASE_MS } from '../../src/contracts/store.ts';
import { fakeNamespace, type FakeNamespace } from '../support/durable-objects.ts';
import { keyedView } from '../support/keyed-view.ts';
import { ManualClock, settle } from '../support/manual-clock.ts';

const TOKEN = 'Bot object-token-5e1c';
const SETTINGS: V10Settings = { globalLimit: 50, resetMarginMs: 50, globalMarginMs: 20, invalidRequestLimit: 3 };
const MESSAGES = 'POST /channels/:id/messages channels/1';
const WEBHOOK = 'POST /webhooks/:id/:token webhooks/7/token';
const WINDOW: V10Update = { limit: 5, remaining: 4, windowLeftMs: 1000, resetMs: 1000, hash: 'abc' };

interface Setup {
  readonly fake: FakeNamespace;
  /** The object's clock. */
  readonly objectClock: ManualClock;
  /** The isolate's clock: another origin, as each isolate's monotonic clock has. */
  readonly clock: ManualClock;
  readonly store: DurableObjectStore;
}

function setup(options: DurableObjectStoreOptions = {}, holdMs = 0): Setup {
  const objectClock = new ManualClock(1_000_000);
  const fake = fakeNamespace({ clockOf: () => objectClock, holdMs });
  return { fake, objectClock, clock: new ManualClock(5), store: new DurableObjectStore(fake.namespace, options) };
}

/** The token's v10 view (`null`: calls without a token). */
const v10View = ({ store, clock }: Setup, token: string | null = TOKEN, settings = SETTINGS) =>
  keyedView<V10Update>(store, token ?? undefined, clock, settings);

async function grant(view: ReturnType<typeof v10View>, key: string) {
  const admission = await view.admit(key);
  if (admission.kind !== 'grant') throw new Error(`expected a grant, got ${JSON.stringify(admission)}`);
  return admission.reservation;
}

describe('DurableObjectStore: construction', () => {
  it.each([
    [undefined, /got undefined: is the binding missing or misnamed in wrangler.toml\?/],
    [null, /must be a Durable Object namespace binding \(env.TOLLGATE_LIMITS\), got object/],
    [{ get: () => ({}) }, /got object/],
    ['TOLLGATE_LIMITS', /got string/],
  ])('refuses %o as a namespace, saying what it wants', (namespace, message) => {
    expect(() => new DurableObjectStore(namespace as never)).toThrowError(TollgateArgumentError);
    expect(() => new DurableObjectStore(namespace as never)).toThrowError(message);
  });

  it.each([
    [{ onUnavailable: 'retry' }, /onUnavailable must be 'fail' or 'local'/],
    [{ leaseMs: 99 }, /leaseMs must be a whole number of ms, at least 100/],
    [{ leaseMs: 1.5e3 + 0.5 }, /leaseMs/],
    [{ prefix: '' }, /prefix must be 1–64 characters/],
    [{ prefix: 'a b' }, /prefix must be 1–64 characters/],
  ])('refuses the options %o', (options, message) => {
    expect(() => new DurableObjectStore(fakeNamespace().namespace, options as never)).toThrowError(message);
  });
});

describe('DurableObjectStore: one object per token', () => {
  it('names the object by the SHA-256 of the token, never the token; calls without one share an object', async () => {
    const setup1 = setup({ prefix: 'bot-a' });
    await v10View(setup1).admit(MESSAGES);
    await v10View(setup1, null).admit(MESSAGES);
    const names = [...setup1.fake.objects.keys()];
    expect(names).toEqual([expect.stringMatching(/^bot-a:[0-9a-f]{64}$/), 'bot-a:no-token']);
    expect(JSON.stringify(setup1.fake.calls)).not.toContain('object-token');
    // The digest of the token (sha256 of "Bot object-token-5e1c").
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(TOKEN)));
    expect(names[0]).toBe(`bot-a:${Buffer.from(digest).toString('hex')}`);
  });

  it('two stores (two isolates) on one namespace share the token’s buckets', async () => {
    const first = setup();
    const second = new DurableObjectStore(first.fake.namespace);
    const one = v10View(first);
    const reservation = await grant(one, MESSAGES);
    await one.settle(MESSAGES, reservation, { ...WINDOW, remaining: 0 });
    const other = keyedView<V10Update>(second, TOKEN, new ManualClock(77), SETTINGS);
    expect(await other.admit(MESSAGES)).toMatchObject({ kind: 'sleep' });
    // `reset` in seconds on the object's clock (1 000 000 ms, plus the window's 1000).
    expect(await other.get(MESSAGES)).toEqual({ limit: 5, remaining: 0, reset: 1001, hash: 'abc' });
  });
});

describe('across the copy', () => {
  it.each([
    new TokenInvalidError(),
    new WebhookGoneError('webhooks/7/token'),
    new InvalidRequestGuardError(3, 3, 1234),
  ])('a refusal keeps its class and facts: %s', (error) => {
    const again = errorOf(structuredClone(refusalOf(error, v10Refusals)), v10Refusals);
    expect(again).toBeInstanceOf(error.constructor);
    expect(again).toEqual(error);
    expect(again.message).toBe(error.message);
  });

  it('any other error crosses as a plain Error with its message, whether or not the dialect has refusals of its own', () => {
    for (const refusals of [v10Refusals, undefined]) {
      const again = errorOf(structuredClone(refusalOf(new RangeError('no such bucket'), refusals)), refusals);
      expect([again.constructor, again.message]).toEqual([Error, 'no such bucket']);
    }
    expect(errorOf(refusalOf(new TokenInvalidError(), v10Refusals), undefined)).not.toBeInstanceOf(TokenInvalidError);
  });

  it('V16, V19: the object refuses with TokenInvalidError and WebhookGoneError, as classes', async () => {
    const view = v10View(setup());
    await view.settle(MESSAGES, await grant(view, MESSAGES), { tokenInvalid: true, invalid: true });
    const refused = await view.admit(MESSAGES);
    expect(refused.kind === 'refuse' && refused.error).toBeInstanceOf(TokenInvalidError);
    await view.settle(WEBHOOK, await grant(view, WEBHOOK), { gone: true });
    const gone = await view.admit(WEBHOOK);
    expect(gone.kind === 'refuse' && gone.error).toBeInstanceOf(WebhookGoneError);
  });

  it('V15: the guard refuses with InvalidRequestGuardError, the count coming back from settles', async () => {
    const view = v10View(setup());
    const counts: (number | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      const key = `GET /channels/:id channels/${i}`;
      counts.push((await view.settle(key, await grant(view, key), { ...WINDOW, invalid: true }))?.invalidRequests);
    }
    expect(counts).toEqual([1, 2, 3]);
    expect(await view.invalidRequests?.()).toBe(3);
    const refused = await view.admit(MESSAGES);
    expect(refused.kind === 'refuse' && refused.error).toBeInstanceOf(InvalidRequestGuardError);
  });

  it("V13: an answer's time crosses as an age, so the object's pace counts from the answer on its own clock", async () => {
    const setup1 = setup();
    const view = v10View(setup1, TOKEN, { ...SETTINGS, globalLimit: 2 });
    const first = await grant(view, MESSAGES);
    const second = await grant(view, 'GET /channels/:id channels/2');
    expect(await view.admit('GET /channels/:id channels/3')).toMatchObject({ kind: 'global', pace: true });
    // Answered 300 ms ago by the isolate's clock, which reads 5 + 300 where the object's reads 1 000 300.
    await setup1.clock.advance(300);
    await setup1.objectClock.advance(300);
    await view.settle(MESSAGES, { ...first, answeredAt: 5 }, WINDOW);
    await view.settle('GET /channels/:id channels/2', { ...second, answeredAt: 5 }, WINDOW);
    // The pace holds a second (and its margin) from the answers, 300 ms of which are gone.
    expect(await view.admit('GET /channels/:id channels/3')).toEqual({
      kind: 'global',
      ms: 1000 + SETTINGS.globalMarginMs - 300,
      pace: true,
    });
  });
});

describe('leases: a caller that vanishes gives its place back', () => {
  it('an unanswered first request holds its bucket until its lease runs out, then the place comes back', async () => {
    const setup1 = setup({ leaseMs: 1000 });
    const view = v10View(setup1);
    await grant(view, MESSAGES);
    expect(await view.admit(MESSAGES)).toEqual({ kind: 'await-response', retryMs: 0 });
    expect(setup1.fake.objects.values().next().value!.leases).toBe(1);
    await setup1.objectClock.advance(999);
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'await-response' });
    await setup1.objectClock.advance(1);
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
  });

  it('an answer after its lease ran out counts nothing twice: the place was released then', async () => {
    const setup1 = setup({ leaseMs: 1000 });
    const view = v10View(setup1);
    const late = await grant(view, MESSAGES);
    await setup1.objectClock.advance(1000);
    const next = await grant(view, MESSAGES);
    // The late answer is dropped; the request in flight still holds the bucket.
    expect(await view.settle(MESSAGES, late, WINDOW)).toBeUndefined();
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'await-response' });
    await view.settle(MESSAGES, next, WINDOW);
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
  });

  it.each(['release', 'giveBack'] as const)(
    'a %s after its lease ran out counts nothing: the place of the request now in flight stays taken',
    async (method) => {
      const setup1 = setup({ leaseMs: 1000 });
      const view = v10View(setup1);
      const late = await grant(view, MESSAGES);
      await setup1.objectClock.advance(1000);
      const next = await grant(view, MESSAGES);
      await view[method](MESSAGES, late);
      // Counted, it would free the unknown bucket's one place: two first requests at once.
      expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'await-response' });
      await view.settle(MESSAGES, next, WINDOW);
      expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
    },
  );

  it('uses 30 s, as Redis does, unless told', () => {
    expect(DEFAULT_LEASE_MS).toBe(30_000);
  });
});

describe('held awaits: a waiting isolate is woken by the answer, without polling', () => {
  it('holds an admit that must await an answer until a settle, then tells it to ask again', async () => {
    const setup1 = setup({}, 1000);
    const view = v10View(setup1);
    const first = await grant(view, MESSAGES);
    let answered: unknown;
    const held = Promise.resolve(view.admit(MESSAGES)).then((admission) => (answered = admission));
    await setup1.objectClock.advance(500);
    expect(answered).toBeUndefined();
    await view.settle(MESSAGES, first, WINDOW);
    await held;
    expect(answered).toEqual({ kind: 'await-response', retryMs: 0 });
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
  });

  it.each(['release', 'giveBack'] as const)('a %s wakes the admits it held, as a settle does', async (method) => {
    const setup1 = setup({}, 1000);
    const view = v10View(setup1);
    const first = await grant(view, MESSAGES);
    let answered: unknown;
    void Promise.resolve(view.admit(MESSAGES)).then((admission) => (answered = admission));
    await setup1.objectClock.advance(500);
    expect(answered).toBeUndefined();
    await view[method](MESSAGES, first);
    // Woken now, not when holdMs (500 ms more on the object's clock, which stands still) runs out.
    await settle();
    expect(answered).toEqual({ kind: 'await-response', retryMs: 0 });
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
  });

  it('answers after holdMs at most (or when the next lease runs out)', async () => {
    const setup1 = setup({ leaseMs: 600 }, 1000);
    const view = v10View(setup1);
    await grant(view, MESSAGES);
    let answered: unknown;
    const held = Promise.resolve(view.admit(MESSAGES)).then((admission) => (answered = admission));
    await setup1.objectClock.advance(599);
    expect(answered).toBeUndefined();
    await setup1.objectClock.advance(1);
    await held;
    expect(answered).toEqual({ kind: 'await-response', retryMs: 0 });
    // The lease ran out: the place is back.
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
  });
});

describe('an object that cannot be reached', () => {
  it('fails with StoreUnavailableError by default: nothing is decided, nothing sent', async () => {
    const setup1 = setup();
    setup1.fake.down = true;
    const failure = await Promise.resolve(v10View(setup1).admit(MESSAGES)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toBe(
      "DurableObjectStore: the token's limits object cannot be reached: Network connection lost.",
    );
  });

  it("with onUnavailable 'local', decides in the isolate meanwhile, and goes back to the object after", async () => {
    const setup1 = setup({ onUnavailable: 'local' });
    const view = v10View(setup1);
    setup1.fake.down = true;
    const local = await grant(view, MESSAGES);
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'await-response' });
    await view.settle(MESSAGES, local, { ...WINDOW, remaining: 0 });
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'sleep' });
    setup1.fake.down = false;
    // The object knows nothing of the bucket: one probe.
    expect(await view.admit(MESSAGES)).toMatchObject({ kind: 'grant' });
    expect(setup1.fake.calls.map((call) => call.method)).toEqual(['admit']);
  });
});
