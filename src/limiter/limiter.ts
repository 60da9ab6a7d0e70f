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
import { judgeResponse, type BucketRecord, type BucketUpdate } from './rules.ts';
import type { Admission, BucketStore, MaybePromise } from './store.ts';

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
  readonly store: BucketStore;
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
  /** The reservation of the attempt in flight, until its response is processed. */
  reservation: Reservation | undefined;
  headerResends: number;
  transportRetries: number;
}

const CALL = 'tollgate';
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
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
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

export class Limiter {
  readonly #onWait: LimiterOptions['onWait'];
  readonly #maxWaitMs: number;
  readonly #maxHeaderResends: number;
  readonly #transportRetries: number;
  readonly #clock: Clock;
  readonly #store: BucketStore;
  readonly #buckets = new Map<string, BucketEntry>();
  readonly #gateWaiters = new Set<Waiter>();
  readonly #unsubscribe: () => void;
  #globalUntil = 0;
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
    // Other processes sharing the store: a bucket moved on, or a global wait began.
    this.#unsubscribe = this.#store.subscribe((event) => {
      if (event.kind === 'global') this.#holdGlobal(event.ms);
      else {
        const entry = this.#buckets.get(event.bucketKey);
        if (entry) this.#pump(entry);
      }
    });
  }

  newCall(
    routeKey: string,
    bucketKey: string,
    method: string,
    signal: AbortSignal | undefined,
    maxWaitMs?: number,
  ): CallState {
    return {
      routeKey,
      bucketKey,
      method,
      signal,
      maxWaitMs: maxWaitMs ?? this.#maxWaitMs,
      idempotent: IDEMPOTENT.has(method),
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

  // ── Steps 4–6 ──────────────────────────────────────────────────────────────────────────────
  async #afterResponse(call: CallState, response: Response) {
    const verdict = judgeResponse(call.routeKey === NONE, response.status, (name) => response.headers.get(name));
    switch (verdict.action) {
      case 'return':
        // A 5xx without rate-limit headers (a gateway's error page) says nothing about limits:
        // it is handled as a failed attempt, so it cannot create a {0, 0, 0} bucket, which
        // row 1 would read as "no limit".
        if (verdict.update && (response.status < 500 || Object.keys(verdict.update).length > 0))
          await this.#settle(call, verdict.update);
        else await this.#release(call);
        if (response.status >= 500 && call.idempotent && call.transportRetries < this.#transportRetries) {
          return ky.retry({ code: RETRY_SERVER_ERROR });
        }
        return undefined;
      case 'wait-global':
        await this.#release(call);
        await this.#store.lockGlobal(verdict.waitMs);
        this.#holdGlobal(verdict.waitMs);
        // The wait itself happens at step 1 of the retry, where every caller waits alike.
        return ky.retry({ code: 'GLOBAL_RATE_LIMIT' });
      case 'fail':
        await this.#release(call);
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

  async #settle(call: CallState, update: BucketUpdate): Promise<void> {
    const reservation = call.reservation;
    // Route None (step 4) holds none: it skips the post-response processing.
    if (!reservation) return;
    call.reservation = undefined;
    await this.#store.settle(call.bucketKey, reservation, update);
    this.#wake(call.bucketKey);
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
  }

  // ── Steps 1–2 ──────────────────────────────────────────────────────────────────────────────
  async #admit(call: CallState): Promise<void> {
    for (;;) {
      if (this.#closed) throw new ClientClosedError();
      if (call.signal?.aborted) throw call.signal.reason;
      if (this.#clock.now() < this.#globalUntil) await this.#waitAtGate(call);
      if (call.routeKey === NONE) {
        // Route None skips the pre-check, but not step 1.
        const admission = await this.#store.admit(null);
        if (admission.kind !== 'global') return;
        this.#holdGlobal(admission.ms);
        continue;
      }
      const outcome =
        (await this.#reserveNow(call.bucketKey)) ?? (await this.#queue(this.#entry(call.bucketKey), call));
      if (outcome === HELD) continue;
      if (this.#clock.now() >= this.#globalUntil) {
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
      this.#holdGlobal(admission.ms);
      return HELD;
    }
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
    switch (admission.kind) {
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
        this.#holdGlobal(admission.ms);
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
  #holdGlobal(ms: number): void {
    if (this.#closed) return;
    const until = this.#clock.now() + ms;
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
