/**
 * The async shell around the spec's rules: the global gate, per-bucket FIFO queues and timers,
 * and the ky hook pair that runs the request procedure. The decisions themselves come from the
 * store (`store.ts`: in memory, or Redis), which applies `rules.ts` (the spec's tables) and
 * `reservations.ts` (the concurrency policy) atomically.
 *
 *   beforeRequest / beforeRetry: step 1 (global gate) → step 2 (reservation; may wait)
 *   fetch: step 3, with ky's transport retry for network errors (idempotent methods only)
 *   afterResponse: steps 4–6 → return, or wait and `ky.retry()` back through beforeRetry
 */
import ky, { ForceRetryError, type Hooks, type NormalizedOptions } from 'ky';
import { sleep, type Clock } from '../clock.ts';
import { ClientClosedError, RateLimitWaitError, type WaitReason } from '../errors.ts';
import { NONE } from '../routing/classify.ts';
import type { Reservation } from './reservations.ts';
import { judgeResponse, type BucketRecord } from './rules.ts';
import type { Admission, BucketStore, MaybePromise, SettleResult } from './store.ts';
import { INVALID_WARNING_LEVELS } from './v10/rules.ts';

/**
 * What to do with a response, whatever the dialect (v6: `rules.ts` judgeResponse; v10:
 * `v10/judge.ts`). `update` is the dialect's own record of what the response said; the store
 * applies it.
 */
export type Verdict =
  /** Return the response; with an update, settle the bucket first (without, release it). */
  | { readonly action: 'return'; readonly update?: unknown }
  /** Settle, then send again through the queue (which the update may hold). */
  | { readonly action: 'retry'; readonly update: unknown }
  /** Settle, wait `waitMs` (this call only), send again. */
  | { readonly action: 'wait-retry'; readonly update: unknown; readonly waitMs: number }
  /** Hold every caller of the token for `waitMs`, send again. */
  | { readonly action: 'wait-global'; readonly waitMs: number; readonly invalid?: boolean }
  /** Raise `error`; nothing of the response is kept. */
  | { readonly action: 'fail'; readonly error: Error; readonly invalid?: boolean }
  /** v6 step 6.4: unparseable headers: nothing is kept, send again (bounded). */
  | { readonly action: 'resend'; readonly error: Error };

/** Judges a response for a call. */
export type Judge = (call: CallState, response: Response) => MaybePromise<Verdict>;

/** v6: the spec's steps 4–6. */
export const judgeV6: Judge = (call, response) =>
  judgeResponse(call.routeKey === NONE, response.status, (name) => response.headers.get(name));

/** Reported when the invalid-request count (V15) reaches a warning level (50 %, 80 % of the guard's limit). */
export interface InvalidRequestsEvent {
  /** Invalid requests (401, 403, non-shared 429) in the last 10 minutes, every token of the store. */
  readonly count: number;
  /** The guard's limit: at this count nothing more is sent. */
  readonly limit: number;
  /** The level reached, as a fraction of the limit (0.5, 0.8). */
  readonly level: number;
}

/**
 * V15: a warning each time the count reaches a level it had not reached since it was last low.
 * One per client: its limiters (the token's, and the one for calls without Authorization) read
 * one store-wide count, so a level is told once.
 */
export class InvalidRequestWarnings {
  readonly #limit: number;
  readonly #listener: ((event: InvalidRequestsEvent) => void) | undefined;
  /** The highest level reported since the count was last below the first level. */
  #warnedLevel = 0;

  constructor(limit: number, listener: ((event: InvalidRequestsEvent) => void) | undefined) {
    this.#limit = limit;
    this.#listener = listener;
  }

  report(count: number): void {
    const fraction = count / this.#limit;
    if (fraction < INVALID_WARNING_LEVELS[0]) this.#warnedLevel = 0;
    const level = INVALID_WARNING_LEVELS.findLast((candidate) => fraction >= candidate);
    if (level === undefined || level <= this.#warnedLevel) return;
    this.#warnedLevel = level;
    try {
      this.#listener?.({ count, limit: this.#limit, level });
    } catch {
      // A failing listener must not fail the request it observes.
    }
  }
}

/** Reported for every wait a call makes; never carries the token or the request path. */
export interface WaitEvent {
  readonly reason: WaitReason;
  readonly routeKey: string;
  readonly bucketKey: string;
  readonly method: string;
  /** The wait in ms: planned for bucket, global, retry-after and retry waits; as waited for queue waits. */
  readonly waitMs: number;
}

export interface LimiterOptions {
  readonly clock: Clock;
  /** This client's view of the bucket store. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the update type is the judge's and the store's business
  readonly store: BucketStore<any>;
  /** Reads responses. Default: v6 (`judgeV6`). */
  readonly judge?: Judge;
  /**
   * Buckets shared by several local keys (v10: routes with one hash): a settle or release wakes
   * every queue awaiting a response, not only the call's own.
   */
  readonly sharedBuckets?: boolean;
  /** V15: who hears of the invalid-request count reaching the warning levels (one per client, shared by its limiters). */
  readonly invalidWarnings?: InvalidRequestWarnings;
  readonly onWait?: ((event: WaitEvent) => void) | undefined;
  /** Longest single wait a call accepts before failing with RateLimitWaitError. Default: no limit. */
  readonly maxWaitMs?: number | undefined;
  /** How many times a response with unparseable rate-limit headers is sent again (step 6.4). Default: 3. */
  readonly maxHeaderResends?: number | undefined;
  /** Transport retries for network errors and 5xx, idempotent methods only. Default: 2. */
  readonly transportRetries?: number | undefined;
}

/** One typed or raw call, carried on ky's `context` through every attempt. */
export interface CallState {
  readonly routeKey: string;
  readonly bucketKey: string;
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  readonly maxWaitMs: number;
  readonly idempotent: boolean;
  /** v10: exempt from the global gate and pace (V13). */
  readonly exempt: boolean;
  /** v10: a webhook addressed by id + token (V19). */
  readonly webhookWithToken: boolean;
  /** The reservation of the attempt in flight, until its response is processed. */
  reservation: Reservation | undefined;
  headerResends: number;
  transportRetries: number;
}

const CALL = 'tollgate';
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const NOT_SPECIAL = { exempt: false, webhookWithToken: false };
const RETRY_SERVER_ERROR = 'SERVER_ERROR';

/** ky's own retry settings: only the transport retries; every wait happens in our hooks. */
export const kyRetryOptions = {
  limit: Number.MAX_SAFE_INTEGER, // bounded by the limiter: transportRetries and maxHeaderResends
  methods: ['get', 'head', 'put', 'delete', 'options'],
  statusCodes: [],
  afterStatusCodes: [],
  delay: () => 0,
  retryOnTimeout: false,
};

/** Backoff before transport retry `attempt` (1-based): 300 ms, 600 ms, 1.2 s … capped at 5 s. */
export const transportBackoffMs = (attempt: number): number => Math.min(5000, 300 * 2 ** (attempt - 1));

/** A queued call sent back to the global gate instead of getting a reservation. */
const HELD = Symbol('held at the global gate');
type Outcome = Reservation | typeof HELD;

interface Waiter {
  readonly call: CallState;
  readonly since: number;
  reported: boolean;
  grant(outcome?: Outcome): void;
  fail(error: unknown): void;
}

/** The per-process side of one bucket: who waits, and the one timer that wakes them. */
interface BucketEntry {
  readonly key: string;
  readonly waiters: Waiter[];
  timer: (() => void) | undefined;
  timerEndsAt: number;
  /** A fallback wake-up while waiting for a response (does not hold the queue back). */
  poll: (() => void) | undefined;
  pumping: boolean;
  repump: boolean;
  /** The head of the queue awaits a response (of any local key, with shared buckets). */
  awaiting: boolean;
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

export class Limiter {
  readonly #onWait: LimiterOptions['onWait'];
  readonly #maxWaitMs: number;
  readonly #maxHeaderResends: number;
  readonly #transportRetries: number;
  readonly #clock: Clock;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see LimiterOptions.store
  readonly #store: BucketStore<any>;
  readonly #judge: Judge;
  readonly #sharedBuckets: boolean;
  readonly #invalidWarnings: InvalidRequestWarnings | undefined;
  readonly #buckets = new Map<string, BucketEntry>();
  readonly #gateWaiters = new Set<Waiter>();
  readonly #unsubscribe: () => void;
  /** The gate is closed until then: a global lock, or (v10) the global pace spent. */
  #globalUntil = 0;
  /** A global lock (a global 429, here or in another process) holds until then; the pace aside. */
  #lockedUntil = 0;
  #gateTimer: (() => void) | undefined;
  #closed = false;
  /** Aborted by close(): ends every wait of a call (retry-after, backoff) with ClientClosedError. */
  readonly #closing = new AbortController();

  constructor(options: LimiterOptions) {
    this.#onWait = options.onWait;
    this.#maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY;
    this.#maxHeaderResends = options.maxHeaderResends ?? 3;
    this.#transportRetries = options.transportRetries ?? 2;
    this.#clock = options.clock;
    this.#store = options.store;
    this.#judge = options.judge ?? judgeV6;
    this.#sharedBuckets = options.sharedBuckets ?? false;
    this.#invalidWarnings = options.invalidWarnings;
    // Other processes sharing the store: a bucket moved on, or a global wait began.
    this.#unsubscribe = this.#store.subscribe((event) => {
      if (event.kind === 'global') this.#holdGlobal(event.ms);
      else this.#wake(event.bucketKey);
    });
  }

  newCall(
    routeKey: string,
    bucketKey: string,
    method: string,
    signal: AbortSignal | undefined,
    maxWaitMs?: number,
    route: { readonly exempt: boolean; readonly webhookWithToken: boolean } = NOT_SPECIAL,
  ): CallState {
    return {
      routeKey,
      bucketKey,
      method,
      signal,
      maxWaitMs: maxWaitMs ?? this.#maxWaitMs,
      idempotent: IDEMPOTENT.has(method),
      exempt: route.exempt,
      webhookWithToken: route.webhookWithToken,
      reservation: undefined,
      headerResends: 0,
      transportRetries: 0,
    };
  }

  /** ky's `context` for a call: the keys for users' own hooks, and the call state. */
  static context(call: CallState): Record<string, unknown> {
    return { routeKey: call.routeKey, bucketKey: call.bucketKey, [CALL]: call };
  }

  /** A copy of a bucket's record, or undefined when none exists. */
  async snapshot(bucketKey: string): Promise<BucketRecord | undefined> {
    return this.#store.get(bucketKey);
  }

  /** V15: invalid requests of the last 10 minutes (0 for v6, which does not count them). */
  async invalidRequests(): Promise<number> {
    return (await this.#store.invalidRequests?.()) ?? 0;
  }

  /**
   * A call is over: a reservation still outstanding (no response processed) is released. A store
   * that cannot be reached now must not replace the call's own outcome; its lease runs out instead.
   */
  async finish(call: CallState): Promise<void> {
    if (!call.reservation) return;
    try {
      await this.#release(call);
    } catch {
      // See above: the shared store forgets the reservation when its lease ends.
    }
  }

  /** Fails every waiting call with ClientClosedError and cancels every timer. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new ClientClosedError();
    this.#closing.abort(closed);
    this.#unsubscribe();
    this.#gateTimer?.();
    this.#gateTimer = undefined;
    for (const waiter of [...this.#gateWaiters]) waiter.fail(closed);
    this.#gateWaiters.clear();
    for (const entry of this.#buckets.values()) {
      entry.timer?.();
      entry.poll?.();
      entry.timer = undefined;
      entry.poll = undefined;
      for (const waiter of entry.waiters.splice(0)) waiter.fail(closed);
    }
    this.#buckets.clear();
    await this.#store.close();
  }

  hooks(): Hooks {
    return {
      beforeRequest: [
        async ({ options }) => {
          const call = callOf(options);
          if (call) await this.#admit(call);
        },
      ],
      beforeRetry: [
        async ({ options, error }) => {
          const call = callOf(options);
          if (!call) return;
          // A network error ended the attempt without a response: its reservation is spent.
          if (call.reservation) await this.#release(call);
          const forced = error instanceof ForceRetryError;
          if (!forced || error.code === RETRY_SERVER_ERROR) {
            if (!forced && call.transportRetries >= this.#transportRetries) throw error;
            call.transportRetries += 1;
            const waitMs = transportBackoffMs(call.transportRetries);
            await this.#wait(call, forced ? 'server-error' : 'network-error', waitMs);
          }
          await this.#admit(call);
        },
      ],
      afterResponse: [
        async ({ options, response }) => {
          const call = callOf(options);
          if (!call) return undefined;
          return this.#afterResponse(call, response);
        },
      ],
    };
  }

  // ── Steps 4–6 (v6), V7–V19 (v10) ──────────────────────────────────────────────────────────
  async #afterResponse(call: CallState, response: Response) {
    // v6 judges synchronously: no extra turn of the event loop on every response.
    const judged = this.#judge(call, response);
    const verdict = isPromise(judged) ? await judged : judged;
    switch (verdict.action) {
      case 'return':
        // A 5xx without rate-limit headers (a gateway's error page) says nothing about limits:
        // it is handled as a failed attempt, so it cannot create a {0, 0, 0} bucket, which
        // row 1 (v6) and V14 (v10) would read as "no limit".
        if (verdict.update && (response.status < 500 || Object.keys(verdict.update).length > 0))
          await this.#settle(call, verdict.update);
        else await this.#release(call);
        if (response.status >= 500 && call.idempotent && call.transportRetries < this.#transportRetries) {
          return ky.retry({ code: RETRY_SERVER_ERROR });
        }
        return undefined;
      case 'retry':
        await this.#settle(call, verdict.update);
        return ky.retry({ code: 'RATE_LIMITED' });
      case 'wait-global':
        await this.#release(call);
        await this.#store.lockGlobal(verdict.waitMs);
        if (verdict.invalid) await this.#noteInvalid();
        this.#holdGlobal(verdict.waitMs);
        // The wait itself happens at step 1 of the retry, where every caller waits alike.
        return ky.retry({ code: 'GLOBAL_RATE_LIMIT' });
      case 'fail':
        await this.#release(call);
        if (verdict.invalid) await this.#noteInvalid();
        throw verdict.error;
      case 'wait-retry':
        await this.#settle(call, verdict.update);
        await this.#wait(call, 'retry-after', verdict.waitMs);
        return ky.retry({ code: 'RATE_LIMITED' });
      case 'resend':
        // The processing yielded an error (6.4): nothing of it is kept. A half-read record (a
        // limit without its reset) would read as a window already over.
        await this.#release(call);
        call.headerResends += 1;
        if (call.headerResends > this.#maxHeaderResends) throw verdict.error;
        return ky.retry({ code: 'RATE_LIMIT_HEADER_UNPARSEABLE' });
    }
  }

  async #settle(call: CallState, update: unknown): Promise<void> {
    const reservation = call.reservation;
    // Route None (step 4) holds none: it skips the post-response processing.
    if (!reservation) return;
    call.reservation = undefined;
    const result = await this.#store.settle(call.bucketKey, reservation, update);
    this.#wake(call.bucketKey);
    this.#reportInvalid(result);
  }

  async #noteInvalid(): Promise<void> {
    const result = await this.#store.noteInvalid?.();
    this.#reportInvalid(result);
  }

  /** V15: the store's count after a settle or a note, to the client's warnings. */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- v6 stores settle with nothing
  #reportInvalid(result: SettleResult | void | undefined): void {
    if (result?.invalidRequests !== undefined) this.#invalidWarnings?.report(result.invalidRequests);
  }

  async #release(call: CallState): Promise<void> {
    const reservation = call.reservation;
    if (!reservation) return;
    call.reservation = undefined;
    await this.#store.release(call.bucketKey, reservation);
    this.#wake(call.bucketKey);
  }

  #wake(bucketKey: string): void {
    const entry = this.#buckets.get(bucketKey);
    if (entry) this.#pump(entry);
    // With shared buckets, another key's queue may be awaiting this response.
    if (this.#sharedBuckets) for (const other of this.#buckets.values()) if (other.awaiting) this.#pump(other);
  }

  // ── Steps 1–2 ──────────────────────────────────────────────────────────────────────────────
  async #admit(call: CallState): Promise<void> {
    for (;;) {
      if (this.#closed) throw new ClientClosedError();
      if (call.signal?.aborted) throw call.signal.reason;
      if (!call.exempt && this.#clock.now() < this.#globalUntil) await this.#waitAtGate(call);
      if (call.routeKey === NONE) {
        // Route None skips the pre-check, but not step 1.
        const admission = await this.#store.admit(null);
        if (admission.kind !== 'global') return;
        this.#holdGlobal(admission.ms, admission.pace);
        continue;
      }
      const outcome =
        (await this.#reserveNow(call.bucketKey)) ?? (await this.#queue(this.#entry(call.bucketKey), call));
      if (outcome === HELD) continue;
      // A grant already counted in the pace stands; a lock that began meanwhile does not let it go.
      if (call.exempt || this.#clock.now() >= this.#lockedUntil) {
        call.reservation = outcome;
        return;
      }
      // A global wait began while this call waited for its bucket: hand the place back and
      // wait at the gate like everyone else.
      await this.#store.giveBack(call.bucketKey, outcome);
      this.#wake(call.bucketKey);
    }
  }

  #entry(bucketKey: string): BucketEntry {
    let entry = this.#buckets.get(bucketKey);
    if (!entry) {
      entry = {
        key: bucketKey,
        waiters: [],
        timer: undefined,
        timerEndsAt: 0,
        poll: undefined,
        pumping: false,
        repump: false,
        awaiting: false,
      };
      this.#buckets.set(bucketKey, entry);
    }
    return entry;
  }

  /** The fast path: nobody waits on the bucket here, and the store grants at once. */
  async #reserveNow(bucketKey: string): Promise<Outcome | undefined> {
    const entry = this.#buckets.get(bucketKey);
    if (entry && (entry.waiters.length > 0 || entry.timer || entry.pumping)) return undefined;
    const result = this.#store.admit(bucketKey);
    const admission = isPromise(result) ? await result : result;
    if (admission.kind === 'grant') return admission.reservation;
    if (admission.kind === 'global') {
      this.#holdGlobal(admission.ms, admission.pace);
      return HELD;
    }
    if (admission.kind === 'refuse') throw admission.error;
    return undefined;
  }

  #queue(entry: BucketEntry, call: CallState): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      const waiter = this.#waiter(
        call,
        (outcome) => resolve(outcome!),
        reject,
        () => {
          const index = entry.waiters.indexOf(waiter);
          if (index === -1) return false;
          entry.waiters.splice(index, 1);
          this.#pump(entry);
          return true;
        },
      );
      entry.waiters.push(waiter);
      if (entry.timer && entry.timerEndsAt > this.#clock.now()) {
        this.#reportBucketWait(entry, waiter, entry.timerEndsAt - this.#clock.now());
      }
      this.#pump(entry);
      if (entry.waiters.includes(waiter)) this.#armQueueDeadline(waiter, entry);
    });
  }

  /** Grants queued calls in FIFO order while the store allows; one pump per bucket at a time. */
  #pump(entry: BucketEntry): void {
    if (entry.pumping) {
      entry.repump = true;
      return;
    }
    entry.pumping = true;
    void this.#pumpLoop(entry);
  }

  async #pumpLoop(entry: BucketEntry): Promise<void> {
    try {
      do {
        entry.repump = false;
        while (entry.waiters.length > 0 && entry.timer === undefined && !this.#closed) {
          const result = this.#store.admit(entry.key);
          const admission = isPromise(result) ? await result : result;
          if (!this.#grantHead(entry, admission)) break;
        }
      } while (entry.repump && entry.timer === undefined && !this.#closed);
    } catch (error) {
      // The store failed (Redis lost): every caller waiting here gets the clear error.
      for (const waiter of entry.waiters.splice(0)) waiter.fail(error);
    } finally {
      entry.pumping = false;
      if (entry.waiters.length === 0) {
        entry.poll?.();
        entry.poll = undefined;
        if (entry.timer === undefined && this.#buckets.get(entry.key) === entry) this.#buckets.delete(entry.key);
      }
    }
  }

  /** Acts on one admission for the head of the queue; false when the queue must wait. */
  #grantHead(entry: BucketEntry, admission: Admission): boolean {
    const now = this.#clock.now();
    entry.awaiting = admission.kind === 'await-response';
    switch (admission.kind) {
      case 'refuse':
        // Nothing of this key may be sent: every caller queued on it gets the reason.
        for (const waiter of entry.waiters.splice(0)) waiter.fail(admission.error);
        return false;
      case 'grant': {
        const waiter = entry.waiters.shift();
        if (!waiter) {
          // Its caller left while the store decided: the place goes back.
          Promise.resolve(this.#store.giveBack(entry.key, admission.reservation)).catch(() => {
            // Unreachable store: the place stays taken until its lease runs out.
          });
          return false;
        }
        if (!waiter.reported && now > waiter.since) this.#emit(waiter.call, 'queue', now - waiter.since);
        waiter.grant(admission.reservation);
        return true;
      }
      case 'global':
        this.#holdGlobal(admission.ms, admission.pace);
        for (const waiter of entry.waiters.splice(0)) waiter.grant(HELD);
        return false;
      case 'await-response':
        // Woken by a settle or release here, an event from another process, or this timer
        // (a shared store names when the oldest lease in flight runs out).
        if (admission.retryMs !== undefined) {
          entry.poll?.();
          entry.poll = this.#clock.setTimeout(
            () => {
              entry.poll = undefined;
              this.#pump(entry);
            },
            Math.max(1, admission.retryMs),
          );
        }
        return false;
      case 'sleep':
        // Row 3 for the head of the queue; everyone behind it waits at least as long.
        this.#arm(entry, admission.ms, admission.reset);
        for (const waiter of [...entry.waiters]) this.#reportBucketWait(entry, waiter, admission.ms);
        if (entry.waiters.length === 0) {
          entry.timer?.();
          entry.timer = undefined;
        }
        return false;
    }
  }

  /** Sets the bucket's one timer for row 3's sleep: when it fires, window `reset` is over. */
  #arm(entry: BucketEntry, ms: number, reset: number): void {
    entry.timerEndsAt = this.#clock.now() + ms;
    entry.timer = this.#clock.setTimeout(() => {
      entry.timer = undefined;
      Promise.resolve(this.#store.markSleptPast(entry.key, reset)).then(
        () => this.#pump(entry),
        (error: unknown) => {
          for (const waiter of entry.waiters.splice(0)) waiter.fail(error);
        },
      );
    }, ms);
  }

  #reportBucketWait(entry: BucketEntry, waiter: Waiter, ms: number): void {
    if (ms > waiter.call.maxWaitMs) {
      entry.waiters.splice(entry.waiters.indexOf(waiter), 1);
      waiter.fail(new RateLimitWaitError('bucket', ms, waiter.call.maxWaitMs, entry.key));
      return;
    }
    waiter.reported = true;
    this.#emit(waiter.call, 'bucket', ms);
  }

  /** A queue wait has no known length: fail it once it has lasted maxWait. */
  #armQueueDeadline(waiter: Waiter, entry: BucketEntry): void {
    const maxWaitMs = waiter.call.maxWaitMs;
    if (!Number.isFinite(maxWaitMs)) return;
    const cancel = this.#clock.setTimeout(() => {
      const index = entry.waiters.indexOf(waiter);
      if (index === -1) return;
      entry.waiters.splice(index, 1);
      waiter.fail(new RateLimitWaitError('queue', this.#clock.now() - waiter.since, maxWaitMs, entry.key));
      this.#pump(entry);
    }, maxWaitMs);
    const { grant, fail } = waiter;
    waiter.grant = (outcome) => {
      cancel();
      grant(outcome);
    };
    waiter.fail = (error) => {
      cancel();
      fail(error);
    };
  }

  /** Builds a waiter whose abort listener removes it (via `remove`) and rejects with the reason. */
  #waiter(
    call: CallState,
    resolve: (outcome?: Outcome) => void,
    reject: (error: unknown) => void,
    remove: () => boolean,
  ): Waiter {
    const signal = call.signal;
    // Through `waiter.fail`, which a queue deadline wraps: an abort must cancel that timer too.
    const onAbort = () => {
      if (remove()) waiter.fail(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const waiter: Waiter = {
      call,
      since: this.#clock.now(),
      reported: false,
      grant(outcome) {
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      },
      fail(error) {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    };
    return waiter;
  }

  // ── The global gate ────────────────────────────────────────────────────────────────────────
  #waitAtGate(call: CallState): Promise<void> {
    const ms = this.#globalUntil - this.#clock.now();
    if (ms > call.maxWaitMs)
      return Promise.reject(new RateLimitWaitError('global', ms, call.maxWaitMs, call.bucketKey));
    this.#emit(call, 'global', ms);
    return new Promise<void>((resolve, reject) => {
      const waiter = this.#waiter(
        call,
        () => resolve(),
        reject,
        () => this.#gateWaiters.delete(waiter),
      );
      this.#gateWaiters.add(waiter);
    });
  }

  /** Closes this process's gate for `ms` (the store holds the shared lock). */
  #holdGlobal(ms: number, pace = false): void {
    if (this.#closed) return;
    const until = this.#clock.now() + ms;
    if (!pace) this.#lockedUntil = Math.max(this.#lockedUntil, until);
    if (until <= this.#globalUntil) return;
    this.#globalUntil = until;
    this.#gateTimer?.();
    this.#gateTimer = this.#clock.setTimeout(() => this.#openGate(), ms);
  }

  #openGate(): void {
    this.#gateTimer = undefined;
    const left = this.#globalUntil - this.#clock.now();
    if (left > 0) {
      this.#gateTimer = this.#clock.setTimeout(() => this.#openGate(), left);
      return;
    }
    const waiters = [...this.#gateWaiters];
    this.#gateWaiters.clear();
    for (const waiter of waiters) waiter.grant();
  }

  // ── Waits of one call ──────────────────────────────────────────────────────────────────────
  async #wait(call: CallState, reason: WaitReason, ms: number): Promise<void> {
    if (ms > call.maxWaitMs) throw new RateLimitWaitError(reason, ms, call.maxWaitMs, call.bucketKey);
    this.#emit(call, reason, ms);
    const closing = this.#closing.signal;
    await sleep(this.#clock, ms, call.signal ? AbortSignal.any([call.signal, closing]) : closing);
  }

  #emit(call: CallState, reason: WaitReason, waitMs: number): void {
    const listener = this.#onWait;
    if (!listener) return;
    try {
      listener({ reason, routeKey: call.routeKey, bucketKey: call.bucketKey, method: call.method, waitMs });
    } catch {
      // A failing listener must not fail the request it observes.
    }
  }
}

function callOf(options: Readonly<NormalizedOptions>): CallState | undefined {
  return options.context[CALL] as CallState | undefined;
}
