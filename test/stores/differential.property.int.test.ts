/**
 * Differential: the memory store and the Redis store make the same decisions. fast-check
 * generates sequences of store commands (admit, settle with generated updates, release, give
 * back, lock global, note invalid (v10), mark slept past (v6, for a sleep that was answered),
 * clock steps); each sequence runs in lockstep on a `MemoryStore` view and on a `RedisStore`
 * view (`time: 'client'`), both on one manual clock, for each dialect. After every step the two
 * must agree on the step's answer, on `get` for every key of the run's key set, and (v10) on
 * the invalid-request count. fast-check shrinks a divergence to the shortest sequence showing it.
 *
 * Two clients of one token: the same sequences with each command made by one of two clients
 * (handles of one MemoryStore's view; two RedisStores, as two processes would have), a
 * reservation settled by the client it was granted to. The decisions and records must agree as
 * before, and so must what each client is told of the other's changes: after every step a
 * barrier published on the token's Redis channel shows every event of the step has arrived, and
 * the events each client heard from the other client's command are compared.
 *
 * A second property runs the same sequences against a `DurableObjectStore` whose token objects
 * live in this process (test/support/durable-objects.ts: each call copied as RPC copies it), on
 * the same manual clock. A third checks the fallback: a RedisStore with `onUnavailable: 'local'`
 * on a port where nothing listens answers every command as a fresh MemoryStore's view does.
 *
 * Seed: FC_SEED, else the project's fixed PROPERTY_SEED (in the test titles; printed with the run's
 * figures when a test fails, or with TOLLGATE_TEST_LOG=1).
 * Redis: REDIS_URL (default 127.0.0.1:6379); unreachable Redis fails the file, never skips.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import {
  InvalidRequestGuardError,
  MemoryStore,
  type Admission,
  type BucketRef,
  type V6Update,
  type Reservation,
  type Store,
  type StoreEvent,
  type StoreView,
  type V10Settings,
  type V10Update,
} from '../../src/index.ts';
import { DIALECTS } from '../../src/dialects/index.ts';
import { RedisStore } from '../../src/redis/index.ts';
import { DurableObjectStore } from '../../src/cloudflare/store.ts';
import { fakeNamespace } from '../support/durable-objects.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { rawRedis, redisStoresForFile, testPrefix } from '../support/redis.ts';
import { namespaceOf } from '../../src/redis/keys.ts';
import { integerFromEnv, PROPERTY_SEED } from '../support/property-runs.ts';
import { freePorts } from '../support/redis-processes.ts';
import { testLog } from '../support/test-log.ts';
import { V6_VIEW_REQUEST } from '../../src/dialects/v6/index.ts';
import { v10ViewRequest } from '../../src/dialects/v10/index.ts';
import type { V10Reservation } from '../../src/dialects/v10/settings.ts';

const SEED = integerFromEnv('FC_SEED', PROPERTY_SEED);
/** Sequences per dialect against Redis (FC_RUNS for a longer hunt), and against the fallback. */
const REDIS_RUNS = integerFromEnv('FC_RUNS', 500);
const FALLBACK_RUNS = 200;
/** Sequences per dialect with two clients against Redis (a barrier a step: slower). */
const TWO_CLIENT_RUNS = integerFromEnv('FC_RUNS', 60);
/** Sequences per dialect against the Durable Object store (in this process: fast). */
const OBJECT_RUNS = 500;
/** The seed and each property's figures: shown when a test fails, or with TOLLGATE_TEST_LOG=1. */
const log = testLog();
log(`[stores-differential] fast-check seed ${SEED} (FC_SEED=${SEED} replays it)`);

/**
 * What the comparison ignores, and why (everything else of every answer is compared):
 * - a reservation's `id`: its lease name in Redis (a UUID), the pace's counter in memory: names
 *   chosen by each store, only ever handed back to the store that chose them;
 * - an await-response's `retryMs`: Redis names when its oldest lease runs out (a crashed
 *   holder's lease, see `leaseMs`); the memory store is woken by the settle itself and names none;
 * - a v10 reservation's `firstContact`: the memory view's own bookkeeping of a first request
 *   (V5, rule V6); Redis keeps the same fact in its `fc` set under the lease id, and whether both
 *   count first contacts alike shows in every later admission and `get`;
 * This test found the Lua answering the `reset` of an uncounted grant (memory: 0) and of a v10
 * sleep (memory: the window's local end, Lua: its id) otherwise than the memory code, and the
 * memory view retiring "no resource" on a V19 answer; all three now agree and are compared.
 *
 * What the harness keeps out of the comparison, and why:
 * - eviction: the memory store drops an idle bucket whose window is over (`#shed`, within a
 *   second of its end) and a bucket used again starts unknown; Redis's bucket keys expire 10 s
 *   after their window by PEXPIRE, on Redis's own clock, which the manual clock does not move. To
 *   compare decisions rather than eviction timing, each run creates its memory view while the
 *   shared clock reads far in the future (its first shed falls due then), and sets the clock back
 *   before the first command;
 * - leases: a Redis reservation counts in flight for `leaseMs` (a crashed process's place comes
 *   back); the memory store has no crashed holders. `leaseMs` is set beyond any run's span.
 * The fallback property keeps both: its two memory views shed on the same clock.
 */
const IGNORED = 'reservation id, await retryMs, v10 firstContact';
/**
 * What two clients are told, compared but for:
 * - a global lock that does not outlast the one already running. Redis's script tells no one of
 *   it; the memory store tells the other client, whose gate then holds no longer than it already
 *   does (the memory view does not say whether a lock moved);
 * - an admit the invalid-request guard refuses: Redis's admit took a place and gives it back,
 *   which tells the others (a wake that finds nothing changed); the memory view takes none.
 */
const IGNORED_TOLD =
  "a global event for a lock that does not outlast the running one, Redis's event for a place it took and gave back under the invalid-request guard";

/** Far beyond a run: a run is at most 30 steps of at most 3 s. */
const LEASE_MS = 3_600_000;
const FAR_FUTURE_MS = 30 * 24 * 3_600_000;
/** Each run starts an hour after the previous one: v10's invalid-request log (one per IP group, over every token) holds 10 minutes. */
const RUN_SPACING_MS = 3_600_000;
const EPOCH = Date.UTC(2026, 10, 22, 12, 0, 0);

const makeRedisStore = redisStoresForFile('stores-differential', { time: 'client', leaseMs: LEASE_MS });

// ── Keys ───────────────────────────────────────────────────────────────────────────────────────
const RESOURCES = ['1', '2'] as const;
/** v6 bucket keys: route and resource. */
const V6_ROUTES = ['ChannelsIdMessages', 'ChannelsIdMessagesId', 'GuildsIdMembers', 'B'] as const;
const V10_RESOURCES = ['channels/1', 'channels/2'] as const;
/**
 * v10 routes. A settle may name hash h1 or h2 (or none) whatever the route, so routes share
 * buckets, first requests meet buckets already known, and a route's hash can change (remapping).
 */
const V10_ROUTES = [
  'PUT /channels/:id/messages/:id/reactions/:reaction/@me',
  'DELETE /channels/:id/messages/:id/reactions/:reaction/@me',
  'POST /channels/:id/messages',
  'PATCH /channels/:id/messages/:id',
] as const;
const HASHES = ['h1', 'h2'] as const;

const v6Keys = (routes: readonly string[]) => routes.flatMap((route) => RESOURCES.map((id) => `${route}:${id}`));
const v10Keys = (routes: readonly string[]) =>
  routes.flatMap((route) => V10_RESOURCES.map((resource) => `${route} ${resource}`));

// ── Commands ───────────────────────────────────────────────────────────────────────────────────
/** A generated update, relative to the clock when it is applied. */
interface V6UpdateSpec {
  readonly limit?: number;
  readonly remaining?: number;
  /** reset = the clock's whole second + this. */
  readonly resetIn?: number;
}

interface V10UpdateSpec {
  readonly limit?: number;
  readonly remaining?: number;
  /**
   * The window (V3, V7), either way `bucketFields` reads one (so never a Reset without a window
   * left): `after`, a Reset-After (and now and then a Reset, `now + left + jitter`); or
   * `anchored`, a Reset on the run's whole seconds (so several responses name one window, a few
   * ms apart: V7's tolerance), the window left counted from it.
   */
  readonly window?:
    | { readonly kind: 'after'; readonly leftMs: number; readonly jitterMs?: number }
    | { readonly kind: 'anchored'; readonly second: number; readonly jitterMs: number };
  readonly hash?: string;
  readonly holdBucketMs?: number;
  readonly holdRouteMs?: number;
  readonly invalid?: true;
  readonly tokenInvalid?: true;
  readonly gone?: true;
  /** A 429 without bucket headers (§3a rows 1, 6): an unknown bucket stays unknown. */
  readonly limitsUnknown?: true;
}

type Step<S> =
  /** `key`: an index into the run's keys (modulo), or null for Route None (v6). */
  | { readonly kind: 'admit'; readonly key: number | null }
  /** `pick`: which outstanding reservation (modulo); not run while none is. */
  | { readonly kind: 'settle'; readonly pick: number; readonly update: S }
  | { readonly kind: 'release'; readonly pick: number }
  | { readonly kind: 'giveBack'; readonly pick: number }
  | { readonly kind: 'lockGlobal'; readonly ms: number }
  | { readonly kind: 'noteInvalid' }
  /** v6: the sleep answered to an earlier admission (modulo) has run; not run before one was. */
  | { readonly kind: 'markSleptPast'; readonly pick: number }
  | { readonly kind: 'advance'; readonly ms: number };

/** Present with probability weight / (weight + absentWeight). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight = 1, absentWeight = 1): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: absentWeight, arbitrary: fc.constant(undefined) }, { weight, arbitrary });

/** Drops the absent fields (a field set to undefined and a missing one must not differ). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** 0–3000 ms, mostly short (within a window), with the edges of v6's seconds and v10's margins now and then. */
const clockStep = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 600 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 3000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 49, 50, 51, 499, 500, 501, 999, 1000, 1001, 2000) },
);

/** Limits of 1–3 mostly (a handful of requests reach every row); 0 now and then (row 1, V14). */
const limit = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 3 }) },
);
const remaining = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
);

const v6Update: fc.Arbitrary<V6UpdateSpec> = fc
  .record({
    limit: sometimes(limit, 8),
    remaining: sometimes(remaining, 8),
    resetIn: sometimes(fc.integer({ min: -1, max: 2 }), 8),
  })
  .map(defined);

/** A Reset's offset: anything within ±150 ms, or the edges of V7's 100 ms tolerance. */
const jitter = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: -150, max: 150 }) },
  { weight: 2, arbitrary: fc.constantFrom(-101, -100, 0, 100, 101) },
);

const v10Update: fc.Arbitrary<V10UpdateSpec> = fc
  .record({
    limit: sometimes(limit, 8),
    remaining: sometimes(remaining, 8),
    window: sometimes(
      fc.oneof(
        fc
          .record({
            kind: fc.constant('after' as const),
            leftMs: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.constantFrom(0, 1000)),
            jitterMs: sometimes(jitter, 3),
          })
          .map(defined),
        fc.record({ kind: fc.constant('anchored' as const), second: fc.integer({ min: 0, max: 3 }), jitterMs: jitter }),
      ),
      8,
    ),
    hash: sometimes(fc.constantFrom(...HASHES), 3),
    holdBucketMs: sometimes(fc.integer({ min: 0, max: 2000 }), 1, 8),
    holdRouteMs: sometimes(fc.integer({ min: 0, max: 2000 }), 1, 8),
    invalid: sometimes(fc.constant(true as const), 1, 4),
    tokenInvalid: sometimes(fc.constant(true as const), 1, 40),
    gone: sometimes(fc.constant(true as const), 1, 40),
    limitsUnknown: sometimes(fc.constant(true as const), 1, 6),
  })
  .map(defined);

/** Mostly the first four keys (two routes on both resources), so buckets are used again and again. */
const keyIndex = fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 3 }) }, { weight: 1, arbitrary: fc.nat({ max: 7 }) });
const pick = fc.nat({ max: 7 });

/** One command; weighted so that reservations are granted and settled often. */
function stepOf<S>(update: fc.Arbitrary<S>, dialect: 'v6' | 'v10'): fc.Arbitrary<Step<S>> {
  const weighted = (weight: number, arbitrary: fc.Arbitrary<Step<S>>) => ({ weight, arbitrary });
  const common = [
    weighted(6, fc.record({ kind: fc.constant('admit' as const), key: keyIndex })),
    weighted(5, fc.record({ kind: fc.constant('settle' as const), pick, update })),
    weighted(1, fc.record({ kind: fc.constant('release' as const), pick })),
    weighted(1, fc.record({ kind: fc.constant('giveBack' as const), pick })),
    weighted(1, fc.record({ kind: fc.constant('lockGlobal' as const), ms: fc.integer({ min: 0, max: 1000 }) })),
    weighted(4, fc.record({ kind: fc.constant('advance' as const), ms: clockStep })),
  ];
  const own =
    dialect === 'v6'
      ? [
          weighted(1, fc.constant({ kind: 'admit' as const, key: null })),
          weighted(1, fc.record({ kind: fc.constant('markSleptPast' as const), pick })),
        ]
      : [weighted(1, fc.constant({ kind: 'noteInvalid' as const }))];
  return fc.oneof(...common, ...own);
}

const v10Settings: fc.Arbitrary<V10Settings> = fc.record({
  // Small limits now and then, so the pace (V13) and the guard (V15) are reached.
  globalLimit: fc.oneof(fc.integer({ min: 2, max: 6 }), fc.constant(50)),
  resetMarginMs: fc.constantFrom(0, 50),
  globalMarginMs: fc.constantFrom(0, 10),
  invalidRequestLimit: fc.oneof(fc.integer({ min: 2, max: 6 }), fc.constant(9000)),
});

/** The update a response at `now` brings. */
const toV6Update = (spec: V6UpdateSpec, now: number): V6Update =>
  defined({
    limit: spec.limit,
    remaining: spec.remaining,
    reset: spec.resetIn === undefined ? undefined : Math.floor(now / 1000) + spec.resetIn,
  });

/** The update a response at `now` brings; `start`: the run's first instant (anchored windows count from its second). */
const toV10Update = (spec: V10UpdateSpec, now: number, start: number): V10Update => {
  const { window, ...update } = spec;
  if (window === undefined) return update;
  if (window.kind === 'after') {
    const resetMs = window.jitterMs === undefined ? undefined : now + window.leftMs + window.jitterMs;
    return defined({ ...update, windowLeftMs: window.leftMs, resetMs });
  }
  const resetMs = Math.floor(start / 1000) * 1000 + window.second * 1000 + window.jitterMs;
  return { ...update, windowLeftMs: Math.max(0, resetMs - now), resetMs };
};

// ── Comparison ─────────────────────────────────────────────────────────────────────────────────
const describeError = (error: Error) => ({
  name: error.name,
  message: error.message,
  ...(error instanceof InvalidRequestGuardError && {
    count: error.count,
    limit: error.limit,
    retryAfterMs: error.retryAfterMs,
  }),
});

/** An admission with what the comparison ignores (see IGNORED) left out; `exact` keeps all of it. */
function comparable(admission: Admission, exact: boolean): unknown {
  if (admission.kind === 'refuse') return { kind: 'refuse', error: describeError(admission.error) };
  if (exact) return admission;
  switch (admission.kind) {
    case 'grant': {
      const { counted, reset, bucket } = admission.reservation as V10Reservation;
      return defined({ kind: 'grant', counted, reset, bucket });
    }
    case 'await-response':
      return { kind: 'await-response' };
    default:
      return admission;
  }
}

class Divergence extends Error {
  override name = 'Divergence';
}

// ── One run: each step a fast-check command, run on both stores ────────────────────────────────
interface Held {
  readonly key: string;
  /** The client it was granted to, which settles, releases or gives it back. */
  readonly client: number;
  readonly memory: Reservation;
  readonly other: Reservation;
}

/** What the run has handed out: the reservations still outstanding, the sleeps answered. */
interface Model {
  readonly outstanding: Held[];
  readonly sleeps: { readonly key: string; readonly reset: number }[];
  /** Every step run so far with memory's answer, for the divergence's message. */
  readonly trace: string[];
}

interface Lockstep<U, S> {
  readonly dialect: 'v6' | 'v10';
  readonly clock: ManualClock;
  readonly start: number;
  readonly keys: readonly string[];
  /** Each client's view of the token (one client: one view). */
  readonly memory: readonly StoreView<BucketRef, U>[];
  readonly other: readonly StoreView<BucketRef, U>[];
  /** Two clients: what each client's views heard since the last step (`heard`), once `settled` shows all arrived. */
  readonly told?: ToldEvents;
  /** A key's bucket reference, as its dialect reads the key (once per key and run). */
  readonly ref: (key: string) => BucketRef;
  readonly otherName: string;
  readonly exact: boolean;
  readonly update: (spec: S, now: number, start: number) => U;
  /** How often each command ran and each kind of answer came (for the log: the sequences reach every state). */
  readonly tally: { readonly commands: Map<string, number>; readonly admissions: Map<string, number> };
}

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';
const count = (tally: Map<string, number>, kind: string) => tally.set(kind, (tally.get(kind) ?? 0) + 1);
const counts = (tally: Map<string, number>) =>
  [...tally]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');

/**
 * One command on both stores, then the comparison of every key's record (and v10's count).
 * Settle, release and give back act only on a reservation both stores granted and that is still
 * outstanding (`check` skips them when none is, so they never show in a counterexample).
 */
class StoreStep<U, S> implements fc.AsyncCommand<Model, Lockstep<U, S>> {
  readonly step: Step<S>;
  /** Which client makes an admit or a global lock (a held reservation's own client acts on it). */
  readonly client: number;

  constructor(step: Step<S>, client = 0) {
    this.step = step;
    this.client = client;
  }

  check(model: Readonly<Model>): boolean {
    switch (this.step.kind) {
      case 'settle':
      case 'release':
      case 'giveBack':
        return model.outstanding.length > 0;
      case 'markSleptPast':
        return model.sleeps.length > 0;
      default:
        return true;
    }
  }

  async run(model: Model, run: Lockstep<U, S>): Promise<void> {
    const { dialect, clock, keys, exact, ref } = run;
    const step = this.step;
    // The client that acts: a held reservation's own, else the step's.
    let actor = this.client % run.memory.length;
    const memory = () => run.memory[actor]!;
    const other = () => run.other[actor]!;
    const label = `#${model.trace.length + 1} at t=+${clock.now() - run.start}:`;
    const same = (what: string, fromMemory: unknown, fromOther: unknown) => {
      if (isDeepStrictEqual(fromMemory, fromOther)) return;
      throw new Divergence(
        `${what} differs at t=+${clock.now() - run.start} ms (clock ${clock.now()})\n` +
          `  memory: ${show(fromMemory)}\n  ${run.otherName}: ${show(fromOther)}\n` +
          `steps run (with memory's answers; the last one diverged):\n  ${model.trace.join('\n  ')}`,
      );
    };
    count(run.tally.commands, step.kind);
    const take = (index: number) => {
      const held = model.outstanding.splice(index % model.outstanding.length, 1)[0]!;
      actor = held.client;
      return held;
    };

    /** Redis takes a place and gives it back, telling the others, where the guard refuses (see IGNORED_TOLD). */
    let givenBackUnderGuard: string | undefined;
    switch (step.kind) {
      case 'admit': {
        const key = step.key === null ? null : keys[step.key % keys.length]!;
        const fromMemory = await memory().admit(key === null ? null : ref(key));
        const fromOther = await other().admit(key === null ? null : ref(key));
        if (fromOther.kind === 'refuse' && fromOther.error instanceof InvalidRequestGuardError && key !== null) {
          givenBackUnderGuard = ref(key).bucketKey;
        }
        model.trace.push(`${label} client ${actor}: admit(${show(key)}) → ${show(fromMemory)}`);
        const kind =
          fromMemory.kind === 'refuse'
            ? `refuse ${fromMemory.error.name}`
            : fromMemory.kind === 'global' && fromMemory.pace
              ? 'pace'
              : fromMemory.kind === 'grant'
                ? `grant ${fromMemory.reservation.counted ? 'counted' : 'uncounted'}` +
                  ((fromMemory.reservation as V10Reservation).bucket?.startsWith('h') ? ' (in a hash bucket)' : '')
                : fromMemory.kind;
        count(run.tally.admissions, kind);
        same(`admit(${show(key)})`, comparable(fromMemory, exact), comparable(fromOther, exact));
        if (key !== null && fromMemory.kind === 'grant' && fromOther.kind === 'grant') {
          model.outstanding.push({ key, client: actor, memory: fromMemory.reservation, other: fromOther.reservation });
        }
        if (key !== null && fromMemory.kind === 'sleep') model.sleeps.push({ key, reset: fromMemory.reset });
        break;
      }
      case 'settle': {
        const held = take(step.pick);
        const update = run.update(step.update, clock.now(), run.start);
        const fromMemory = await memory().settle(ref(held.key), held.memory, update);
        const fromOther = await other().settle(ref(held.key), held.other, update);
        model.trace.push(
          `${label} client ${actor}: settle(${show(held.key)}, ${show(held.memory)}, ${show(update)}) → ${show(fromMemory)}`,
        );
        same(`settle(${show(held.key)})'s result`, fromMemory ?? undefined, fromOther ?? undefined);
        break;
      }
      case 'release':
      case 'giveBack': {
        const held = take(step.pick);
        await memory()[step.kind](ref(held.key), held.memory);
        await other()[step.kind](ref(held.key), held.other);
        model.trace.push(`${label} client ${actor}: ${step.kind}(${show(held.key)}, ${show(held.memory)})`);
        break;
      }
      case 'lockGlobal':
        await memory().lockGlobal(step.ms);
        await other().lockGlobal(step.ms);
        model.trace.push(`${label} client ${actor}: lockGlobal(${step.ms})`);
        break;
      case 'noteInvalid': {
        const fromMemory = await memory().noteInvalid!();
        const fromOther = await other().noteInvalid!();
        model.trace.push(`${label} noteInvalid() → ${show(fromMemory)}`);
        same('noteInvalid()', fromMemory, fromOther);
        break;
      }
      case 'markSleptPast': {
        const { key, reset } = model.sleeps[step.pick % model.sleeps.length]!;
        await memory().markSleptPast!(ref(key), reset);
        await other().markSleptPast!(ref(key), reset);
        model.trace.push(`${label} markSleptPast(${show(key)}, ${reset})`);
        break;
      }
      case 'advance':
        clock.set(clock.now() + step.ms);
        model.trace.push(`${label} advance(${step.ms})`);
        break;
    }
    // Every key's record, then (v10) the invalid-request count.
    const fromMemory = await Promise.all(keys.map((key) => memory().get(ref(key))));
    const fromOther = await Promise.all(keys.map((key) => other().get(ref(key))));
    keys.forEach((key, at) => same(`get(${show(key)})`, fromMemory[at], fromOther[at]));
    if (dialect === 'v10') {
      same('invalidRequests()', await memory().invalidRequests!(), await other().invalidRequests!());
    }
    // What the other client was told of this step: the same in both stores.
    if (run.told) {
      await run.told.settled();
      const heard = run.told.take();
      const undone = (event: StoreEvent) => event.kind === 'bucket' && event.bucketKey === givenBackUnderGuard;
      for (let client = 0; client < run.memory.length; client++) {
        if (client === actor) continue;
        same(
          `what client ${client} was told`,
          heard.memory[client],
          heard.other[client]!.filter((event) => !undone(event)),
        );
      }
    }
  }

  toString(): string {
    return show(this.step);
  }
}

// ── Properties ─────────────────────────────────────────────────────────────────────────────────
let runNumber = 0;

interface DialectCase<U, S> {
  readonly dialect: 'v6' | 'v10';
  readonly routes: readonly string[];
  readonly keys: (routes: readonly string[]) => string[];
  readonly settings: fc.Arbitrary<V10Settings | undefined>;
  readonly updates: fc.Arbitrary<S>;
  readonly update: (spec: S, now: number, start: number) => U;
  readonly view: (store: Store, token: string, clock: ManualClock, settings?: V10Settings) => StoreView<BucketRef, U>;
}

const v6Case: DialectCase<V6Update, V6UpdateSpec> = {
  dialect: 'v6',
  routes: V6_ROUTES,
  keys: v6Keys,
  settings: fc.constant(undefined),
  updates: v6Update,
  update: toV6Update,
  view: (store, token, clock) => store.view(V6_VIEW_REQUEST, token, clock) as StoreView<BucketRef, V6Update>,
};

const v10Case: DialectCase<V10Update, V10UpdateSpec> = {
  dialect: 'v10',
  routes: V10_ROUTES,
  keys: v10Keys,
  settings: v10Settings,
  updates: v10Update,
  update: toV10Update,
  view: (store, token, clock, settings) =>
    store.view(v10ViewRequest(settings!), token, clock) as StoreView<BucketRef, V10Update>,
};

/**
 * A run: its routes (× both resources: its keys), the clock's start within a second, settings
 * (v10), commands; with two clients, each command made by one of them.
 */
const scenario = <U, S>(kase: DialectCase<U, S>, clients: 1 | 2) =>
  fc.record({
    routes: fc.subarray([...kase.routes], { minLength: 2, maxLength: 4 }),
    startOffsetMs: fc.integer({ min: 0, max: 999 }),
    settings: kase.settings,
    commands: fc.commands(
      [
        clients === 1
          ? stepOf(kase.updates, kase.dialect).map((step) => new StoreStep<U, S>(step))
          : fc
              .tuple(stepOf(kase.updates, kase.dialect), fc.nat({ max: 1 }))
              .map(([step, client]) => new StoreStep<U, S>(step, client)),
      ],
      { maxCommands: 30, size: 'max' },
    ),
  });

/** What each client's view heard, memory's and the other store's, since the last `take`. */
interface ToldEvents {
  /** Resolves once every client's subscription on the other store is in place (before the first step). */
  ready(): Promise<void>;
  /** Resolves once every event of the step has reached the other store's listeners. */
  settled(): Promise<void>;
  take(): { readonly memory: StoreEvent[][]; readonly other: StoreEvent[][] };
}

/**
 * Listens on every client's views. A step's Redis events arrive over pub/sub: a barrier published
 * on the token's channel after the step, from a connection of its own, arrives after them.
 */
function listenTo(
  memory: readonly StoreView[],
  other: readonly StoreView[],
  channel: string,
  publish: (channel: string, message: string) => Promise<unknown>,
): ToldEvents & { close(): void } {
  const heard = { memory: memory.map((): StoreEvent[] => []), other: other.map((): StoreEvent[] => []) };
  const barriers = other.map(() => 0);
  let barrier = 0;
  let arrived: (() => void) | undefined;
  const unsubscribe = [
    ...memory.map((view, client) => view.subscribe((event) => heard.memory[client]!.push(event))),
    ...other.map((view, client) =>
      view.subscribe((event) => {
        const passed = event.kind === 'bucket' ? /^barrier:(\d+)$/.exec(event.bucketKey) : null;
        if (passed) {
          barriers[client] = Number(passed[1]);
          if (barriers.every((seen) => seen >= barrier)) arrived?.();
        } else heard.other[client]!.push(event);
      }),
    ),
  ];
  /** Publishes barrier `n` (again every 50 ms, for a subscription still being made) until every client heard it. */
  const pass = async (n: number) => {
    for (let tries = 0; barriers.some((seen) => seen < n); tries++) {
      if (tries === 40) throw new Error(`barrier ${n} did not arrive on ${channel}`);
      const heardIt = new Promise<void>((resolve) => (arrived = resolve));
      await publish(channel, `b:barrier:${n}`);
      await Promise.race([heardIt, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
    arrived = undefined;
  };
  return {
    ready: () => pass(++barrier),
    settled: () => pass(++barrier),
    take() {
      const taken = {
        memory: heard.memory.map((list) => list.splice(0)),
        other: heard.other.map((list) => list.splice(0)),
      };
      // A lock that does not outlast the one running: Redis tells no one, memory tells (see IGNORED).
      const redisGlobal = new Set(
        taken.other
          .flat()
          .filter((event) => event.kind === 'global')
          .map(show),
      );
      return {
        memory: taken.memory.map((list) =>
          list.filter((event) => event.kind !== 'global' || redisGlobal.has(show(event))),
        ),
        other: taken.other,
      };
    },
    close: () => unsubscribe.forEach((stop) => stop()),
  };
}

/**
 * The dialect's property: each sequence on a fresh MemoryStore's view and on `makeOther()`'s view,
 * for a token of the run's own, on one clock. `noEviction`: create the memory view while the
 * clock reads far ahead, so it sheds nothing during the run (see the comment on IGNORED).
 * `useClock`: the other store is told each run's clock (a Durable Object decides on its own);
 * its view is then made at once with a `get`, so both views shed on one schedule.
 */
async function property<U, S>(
  kase: DialectCase<U, S>,
  makeOther: () => Promise<Store>,
  options: {
    readonly otherName: string;
    readonly numRuns: number;
    readonly exact: boolean;
    readonly noEviction: boolean;
    readonly useClock?: (clock: ManualClock) => void;
    /** Two clients of the token, and the Redis channel their events go on (its namespace and a publisher). */
    readonly twoClients?: {
      readonly channelOf: (store: Store, token: string) => string;
      readonly publish: (channel: string, message: string) => Promise<unknown>;
    };
  },
): Promise<void> {
  const store = await makeOther();
  const clients = options.twoClients ? 2 : 1;
  let sequences = 0;
  let commands = 0;
  const tally = { commands: new Map<string, number>(), admissions: new Map<string, number>() };
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(scenario(kase, clients), async ({ routes, startOffsetMs, settings, commands: sequence }) => {
      sequences += 1;
      const run = ++runNumber;
      const start = EPOCH + run * RUN_SPACING_MS + startOffsetMs;
      const clock = new ManualClock(start);
      const token = `Bot differential ${kase.dialect} ${run}`;
      if (options.noEviction) clock.set(start + FAR_FUTURE_MS);
      const memoryStore = new MemoryStore();
      const memory = Array.from({ length: clients }, () => kase.view(memoryStore, token, clock, settings));
      clock.set(start);
      options.useClock?.(clock);
      const other = Array.from({ length: clients }, () => kase.view(store, token, clock, settings));
      const told =
        options.twoClients &&
        listenTo(memory, other, options.twoClients.channelOf(store, token), options.twoClients.publish);
      const model: Model = { outstanding: [], sleeps: [], trace: [] };
      const refs = new Map(kase.keys(routes).map((key) => [key, DIALECTS[kase.dialect].bucketOfKey(key)]));
      if (options.useClock) await other[0]!.get(refs.values().next().value!);
      await told?.ready();
      try {
        await fc.asyncModelRun(
          () => ({
            model,
            real: {
              dialect: kase.dialect,
              clock,
              start,
              keys: kase.keys(routes),
              memory,
              other,
              ...(told && { told }),
              ref: (key) => refs.get(key)!,
              otherName: options.otherName,
              exact: options.exact,
              update: kase.update,
              tally,
            },
          }),
          sequence,
        );
      } finally {
        commands += model.trace.length;
        told?.close();
        await Promise.all([...other, ...memory].map((view) => view.close()));
      }
    }),
    { numRuns: options.numRuns, seed: SEED },
  );
  log(
    `[stores-differential] ${kase.dialect} memory vs ${options.otherName}: ${sequences} sequences, ` +
      `${commands} commands run in ${Math.round(performance.now() - started)} ms (seed ${SEED})\n` +
      `  commands: ${counts(tally.commands)}\n  admissions: ${counts(tally.admissions)}`,
  );
}

describe.each([v6Case, v10Case] as DialectCase<unknown, unknown>[])('stores differential: $dialect', (kase) => {
  it(`MemoryStore and RedisStore (time: 'client') agree on ${REDIS_RUNS} command sequences (seed ${SEED}; ignored: ${IGNORED})`, async () => {
    await property(kase, makeRedisStore, { otherName: 'redis', numRuns: REDIS_RUNS, exact: false, noEviction: true });
  }, 180_000);

  it(`two clients of one token: MemoryStore and RedisStore agree on ${TWO_CLIENT_RUNS} command sequences, and on what each client is told of the other's changes (seed ${SEED}; ignored: ${IGNORED}, ${IGNORED_TOLD})`, async () => {
    const publisher = rawRedis();
    try {
      await property(kase, makeRedisStore, {
        otherName: 'redis',
        numRuns: TWO_CLIENT_RUNS,
        exact: false,
        noEviction: true,
        twoClients: {
          // The token's channel, as src/redis/store.ts names it: v10's keys sit under `:v10`.
          channelOf: (store, token) =>
            `${namespaceOf((store as RedisStore).prefix, token, (store as RedisStore).ipGroup)}${kase.dialect === 'v10' ? ':v10' : ''}:events`,
          publish: (channel, message) => publisher.publish(channel, message),
        },
      });
    } finally {
      publisher.disconnect();
    }
  }, 180_000);

  it(`MemoryStore and DurableObjectStore (its object in this process, calls copied as RPC copies them) agree on ${OBJECT_RUNS} command sequences (seed ${SEED}; ignored: ${IGNORED}, the object's lease)`, async () => {
    let runClock: ManualClock | undefined;
    const objects = fakeNamespace({ clockOf: () => runClock!, holdMs: 0 });
    await property(kase, async () => new DurableObjectStore(objects.namespace, { leaseMs: LEASE_MS }), {
      otherName: 'durable-object',
      numRuns: OBJECT_RUNS,
      exact: false,
      noEviction: false,
      useClock: (clock) => (runClock = clock),
    });
  }, 180_000);

  it(`a RedisStore with onUnavailable 'local' on a dead Redis answers exactly as a MemoryStore's view (${FALLBACK_RUNS} sequences, seed ${SEED})`, async () => {
    await property(kase, deadRedisStore, {
      otherName: 'local',
      numRuns: FALLBACK_RUNS,
      exact: true,
      noEviction: false,
    });
  }, 180_000);
});

// ── Helpers ────────────────────────────────────────────────────────────────────────────────────
const deadStores: RedisStore[] = [];
afterAll(async () => {
  await Promise.all(deadStores.map((store) => store.close()));
});

/** A RedisStore on a port where nothing listens, falling back to local limiting. */
async function deadRedisStore(): Promise<RedisStore> {
  const store = new RedisStore({
    url: `redis://127.0.0.1:${(await freePorts(1))[0]!}`,
    prefix: testPrefix('stores-differential-dead'),
    onUnavailable: 'local',
    time: 'client',
    leaseMs: LEASE_MS,
  });
  deadStores.push(store);
  return store;
}
