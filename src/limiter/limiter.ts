/**
 * The async shell around the spec's rules: the global gate, per-bucket FIFO queues and timers,
 * and the ky hook pair that runs the request procedure. The decisions themselves come from
 * `rules.ts` (the spec's tables) and `reservations.ts` (the concurrency policy).
 *
 *   beforeRequest / beforeRetry: step 1 (global gate) → step 2 (reservation; may wait)
 *   fetch: step 3, with ky's transport retry for network errors (idempotent methods only)
 *   afterResponse: steps 4–6 → return, or wait and `ky.retry()` back through beforeRetry
 */
import ky, { ForceRetryError, type Hooks, type NormalizedOptions } from 'ky';
import { sleep, type Clock } from '../clock.ts';
import { ClientClosedError, RateLimitWaitError, type WaitReason } from '../errors.ts';
import { NONE } from '../routing/classify.ts';
import {
  giveBack,
  markSleptPast,
  newBucketState,
  release,
  reserve,
  settle,
  type BucketState,
  type Reservation,
} from './reservations.ts';
import { judgeResponse, type BucketRecord, type BucketUpdate } from './rules.ts';

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
  readonly onWait: ((event: WaitEvent) => void) | undefined;
  /** Longest single wait a call accepts before failing with RateLimitWaitError. */
  readonly maxWaitMs: number;
  /** How many times a response with unparseable rate-limit headers is sent again (step 6.4). */
  readonly maxHeaderResends: number;
  /** Transport retries for network errors and 5xx, idempotent methods only. */
  readonly transportRetries: number;
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

interface Waiter {
  readonly call: CallState;
  readonly since: number;
  reported: boolean;
  grant(reservation?: Reservation): void;
  fail(error: unknown): void;
}

interface BucketEntry {
  readonly key: string;
  readonly state: BucketState;
  readonly waiters: Waiter[];
  timer: (() => void) | undefined;
  timerEndsAt: number;
}

export class Limiter {
  readonly #options: LimiterOptions;
  readonly #clock: Clock;
  readonly #buckets = new Map<string, BucketEntry>();
  readonly #gateWaiters = new Set<Waiter>();
  #globalUntil = 0;
  #gateTimer: (() => void) | undefined;
  #closed = false;

  constructor(options: LimiterOptions) {
    this.#options = options;
    this.#clock = options.clock;
  }

  newCall(routeKey: string, bucketKey: string, method: string, signal: AbortSignal | undefined, maxWaitMs?: number): CallState {
    return {
      routeKey,
      bucketKey,
      method,
      signal,
      maxWaitMs: maxWaitMs ?? this.#options.maxWaitMs,
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
  snapshot(bucketKey: string): BucketRecord | undefined {
    const record = this.#buckets.get(bucketKey)?.state.record;
    return record ? { ...record } : undefined;
  }

  /** When the current global wait ends (ms since epoch), or 0. */
  get globalUntil(): number {
    return this.#globalUntil;
  }

  /** A call is over: a reservation still outstanding (no response processed) is released. */
  finish(call: CallState): void {
    if (call.reservation) this.#release(call);
  }

  /** Fails every waiting call with ClientClosedError and cancels every timer. */
  close(): void {
    this.#closed = true;
    this.#gateTimer?.();
    this.#gateTimer = undefined;
    const closed = new ClientClosedError();
    for (const waiter of [...this.#gateWaiters]) waiter.fail(closed);
    this.#gateWaiters.clear();
    for (const entry of this.#buckets.values()) {
      entry.timer?.();
      entry.timer = undefined;
      for (const waiter of entry.waiters.splice(0)) waiter.fail(closed);
    }
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
          if (call.reservation) this.#release(call);
          const forced = error instanceof ForceRetryError;
          if (!forced || error.code === RETRY_SERVER_ERROR) {
            if (!forced && call.transportRetries >= this.#options.transportRetries) throw error;
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
        if (verdict.update) this.#settle(call, verdict.update);
        else if (call.reservation) this.#release(call);
        if (response.status >= 500 && call.idempotent && call.transportRetries < this.#options.transportRetries) {
          return ky.retry({ code: RETRY_SERVER_ERROR });
        }
        return undefined;
      case 'wait-global':
        this.#release(call);
        this.#closeGate(verdict.waitMs);
        // The wait itself happens at step 1 of the retry, where every caller waits alike.
        return ky.retry({ code: 'GLOBAL_RATE_LIMIT' });
      case 'fail':
        this.#release(call);
        throw verdict.error;
      case 'wait-retry':
        this.#settle(call, verdict.update);
        await this.#wait(call, 'retry-after', verdict.waitMs);
        return ky.retry({ code: 'RATE_LIMITED' });
      case 'resend':
        this.#settle(call, verdict.update);
        call.headerResends += 1;
        if (call.headerResends > this.#options.maxHeaderResends) throw verdict.error;
        return ky.retry({ code: 'RATE_LIMIT_HEADER_UNPARSEABLE' });
    }
  }

  #settle(call: CallState, update: BucketUpdate): void {
    const entry = this.#entry(call.bucketKey);
    // Every non-None attempt holds a reservation here; settle() closes it.
    call.reservation = undefined;
    settle(entry.state, update);
    this.#pump(entry);
  }

  #release(call: CallState): void {
    if (!call.reservation) return;
    call.reservation = undefined;
    const entry = this.#entry(call.bucketKey);
    release(entry.state);
    this.#pump(entry);
  }

  // ── Steps 1–2 ──────────────────────────────────────────────────────────────────────────────
  async #admit(call: CallState): Promise<void> {
    for (;;) {
      if (this.#closed) throw new ClientClosedError();
      if (call.signal?.aborted) throw call.signal.reason;
      if (this.#clock.now() < this.#globalUntil) await this.#waitAtGate(call);
      if (call.routeKey === NONE) return;
      const entry = this.#entry(call.bucketKey);
      const reservation = this.#reserveNow(entry) ?? (await this.#queue(entry, call));
      if (this.#clock.now() >= this.#globalUntil) {
        call.reservation = reservation;
        return;
      }
      // A global wait began while this call waited for its bucket: hand the place back and
      // wait at the gate like everyone else.
      giveBack(entry.state, reservation);
      this.#pump(entry);
    }
  }

  #entry(bucketKey: string): BucketEntry {
    let entry = this.#buckets.get(bucketKey);
    if (!entry) {
      entry = { key: bucketKey, state: newBucketState(), waiters: [], timer: undefined, timerEndsAt: 0 };
      this.#buckets.set(bucketKey, entry);
    }
    return entry;
  }

  /** The fast path: nobody queued and the bucket grants at once. */
  #reserveNow(entry: BucketEntry): Reservation | undefined {
    if (entry.waiters.length > 0 || entry.timer) return undefined;
    const decision = reserve(entry.state, this.#clock.now());
    return decision.kind === 'grant' ? decision.reservation : undefined;
  }

  #queue(entry: BucketEntry, call: CallState): Promise<Reservation> {
    return new Promise<Reservation>((resolve, reject) => {
      const waiter = this.#waiter(call, (reservation) => resolve(reservation!), reject, () => {
        const index = entry.waiters.indexOf(waiter);
        if (index === -1) return false;
        entry.waiters.splice(index, 1);
        this.#pump(entry);
        return true;
      });
      entry.waiters.push(waiter);
      if (entry.timer) this.#reportBucketWait(entry, waiter, entry.timerEndsAt - this.#clock.now());
      else this.#pump(entry);
      if (entry.waiters.includes(waiter)) this.#armQueueDeadline(waiter, entry);
    });
  }

  /** Grants queued calls in FIFO order while the bucket allows; otherwise sleeps or waits for a response. */
  #pump(entry: BucketEntry): void {
    while (entry.waiters.length > 0 && entry.timer === undefined) {
      const now = this.#clock.now();
      const decision = reserve(entry.state, now);
      if (decision.kind === 'grant') {
        const waiter = entry.waiters.shift()!;
        if (!waiter.reported && now > waiter.since) this.#emit(waiter.call, 'queue', now - waiter.since);
        waiter.grant(decision.reservation);
        continue;
      }
      if (decision.kind === 'await-response') return;
      // Row 3 for the head of the queue; everyone behind it waits at least as long.
      const { ms, reset } = decision;
      entry.timerEndsAt = now + ms;
      entry.timer = this.#clock.setTimeout(() => {
        entry.timer = undefined;
        markSleptPast(entry.state, reset);
        this.#pump(entry);
      }, ms);
      for (const waiter of [...entry.waiters]) this.#reportBucketWait(entry, waiter, ms);
      if (entry.waiters.length === 0) {
        entry.timer();
        entry.timer = undefined;
      }
      return;
    }
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
    waiter.grant = (reservation) => {
      cancel();
      grant(reservation);
    };
    waiter.fail = (error) => {
      cancel();
      fail(error);
    };
  }

  /** Builds a waiter whose abort listener removes it (via `remove`) and rejects with the reason. */
  #waiter(
    call: CallState,
    resolve: (reservation?: Reservation) => void,
    reject: (error: unknown) => void,
    remove: () => boolean,
  ): Waiter {
    const signal = call.signal;
    const onAbort = () => {
      if (remove()) reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    return {
      call,
      since: this.#clock.now(),
      reported: false,
      grant(reservation) {
        signal?.removeEventListener('abort', onAbort);
        resolve(reservation);
      },
      fail(error) {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    };
  }

  // ── The global gate ────────────────────────────────────────────────────────────────────────
  #waitAtGate(call: CallState): Promise<void> {
    const ms = this.#globalUntil - this.#clock.now();
    if (ms > call.maxWaitMs) return Promise.reject(new RateLimitWaitError('global', ms, call.maxWaitMs, call.bucketKey));
    this.#emit(call, 'global', ms);
    return new Promise<void>((resolve, reject) => {
      const waiter = this.#waiter(call, () => resolve(), reject, () => this.#gateWaiters.delete(waiter));
      this.#gateWaiters.add(waiter);
    });
  }

  #closeGate(ms: number): void {
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
    await sleep(this.#clock, ms, call.signal);
  }

  #emit(call: CallState, reason: WaitReason, waitMs: number): void {
    const listener = this.#options.onWait;
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
