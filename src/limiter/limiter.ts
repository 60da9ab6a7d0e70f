/**
 * The call lifecycle, the same for every dialect: admit (global gate, then a place in the
 * bucket), interpret the dialect's verdict on the response, settle or release. Decisions come
 * from the store's view (memory or Redis), which applies the dialect's rules atomically; the
 * per-bucket queues are `bucket-queue.ts`, the global gate `global-gate.ts`, and ky reaches all
 * of this through `ky-hooks.ts`.
 */
import type { Hooks } from 'ky';
import { sleep, type Clock } from '../clock.ts';
import type { Judge } from '../contracts/dialect.ts';
import type { BucketRef, BucketSnapshot, SettleResult, StoreView } from '../contracts/store.ts';
import { ClientClosedError, RateLimitWaitError, type WaitReason } from '../errors.ts';
import { BucketQueues, HELD, isPromise } from './bucket-queue.ts';
import { newCallState, resendsAfter, type CallDescription, type CallState } from './call.ts';
import type { LimiterOptions } from './limiter-options.ts';
import { CallReporter } from './reporter.ts';
import { GlobalGate } from './global-gate.ts';
import { callContext, kyHooks, type AttemptEnd, type CallLifecycle, type RetryCode } from './ky-hooks.ts';

/** Backoff before transport retry `attempt` (1-based): 300 ms, 600 ms, 1.2 s … capped at 5 s. */
export const transportBackoffMs = (attempt: number): number => Math.min(5000, 300 * 2 ** (attempt - 1));

export class Limiter {
  readonly #report: CallReporter;
  readonly #maxHeaderResends: number;
  readonly #clock: Clock;
  readonly #store: StoreView;
  readonly #judge: Judge;
  readonly #onInvalidCount: ((count: number) => void) | undefined;
  readonly #gate: GlobalGate;
  readonly #queues: BucketQueues;
  readonly #unsubscribe: () => void;
  #closed = false;
  /** Aborted by close(): ends every wait of a call (retry-after, backoff) with ClientClosedError. */
  readonly #closing = new AbortController();

  constructor(options: LimiterOptions) {
    this.#report = new CallReporter(options.clock, options.events, options.observer);
    this.#maxHeaderResends = options.maxHeaderResends ?? 3;
    this.#clock = options.clock;
    this.#store = options.store;
    this.#judge = options.judge;
    this.#onInvalidCount = options.onInvalidCount;
    const emit = (call: CallState, reason: WaitReason, ms: number) => this.#report.waiting(call, reason, ms);
    this.#gate = new GlobalGate(this.#clock, (call, ms) => emit(call, 'global', ms));
    this.#queues = new BucketQueues({
      clock: this.#clock,
      store: this.#store,
      sharedBuckets: options.sharedBuckets ?? false,
      holdGlobal: (ms, pace) => this.#gate.hold(ms, pace),
      emit,
    });
    // Other processes sharing the store: a bucket moved on, or a global wait began.
    this.#unsubscribe = this.#store.subscribe((event) => {
      if (event.kind === 'global') this.#gate.hold(event.ms);
      else this.#queues.wake(event.bucketKey);
    });
  }

  /** The call `description` describes; its `context` is what it gives ky on every attempt. */
  newCall(description: CallDescription): CallState {
    return newCallState(description, callContext);
  }

  /** The call lifecycle's steps, for a sender that calls them itself (a relayed call, which ky does not carry). */
  lifecycle(): CallLifecycle {
    return {
      admit: (call) => this.#admit(call),
      retry: (call, end) => this.#retry(call, end),
      afterResponse: (call, response) => this.#afterResponse(call, response),
    };
  }

  hooks(): Hooks {
    return kyHooks(this.lifecycle());
  }

  /** A copy of a bucket's record, or undefined when none exists. */
  async snapshot(bucket: BucketRef): Promise<BucketSnapshot | undefined> {
    return this.#store.get(bucket);
  }

  /** Invalid requests the dialect counts (v10's V15: the last 10 minutes); 0 where it counts none. */
  async invalidRequests(): Promise<number> {
    return (await this.#store.invalidRequests?.()) ?? 0;
  }

  /**
   * A call is over: a reservation still outstanding (no response processed) is released. A store
   * that cannot be reached now must not replace the call's own outcome; its lease runs out instead.
   * Undefined when nothing was outstanding.
   */
  finish(call: CallState): Promise<void> | undefined {
    // Most calls end with their response processed: nothing to wait for, not even a turn.
    if (!call.reservation) return undefined;
    return this.#release(call).catch(() => {
      // See above: the shared store forgets the reservation when its lease ends.
    });
  }

  /** Fails every waiting call with ClientClosedError and cancels every timer. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new ClientClosedError();
    this.#closing.abort(closed);
    this.#unsubscribe();
    this.#gate.close(closed);
    this.#queues.close(closed);
    await this.#store.close();
  }

  // ── Before the send: the call's place in its bucket ─────────────────────────────────────────
  #admit(call: CallState): Promise<void> {
    return this.#report.admitting(call, this.#admitOnce(call));
  }

  async #admitOnce(call: CallState): Promise<void> {
    const bucket = call.target.bucket;
    for (;;) {
      if (this.#closed) throw new ClientClosedError();
      if (call.signal?.aborted) throw call.signal.reason;
      if (this.#gate.shuts(call)) await this.#gate.wait(call);
      const passed = () => this.#gate.passed(call);
      if (bucket === null) {
        // No bucket: no pre-check, but the global gate still applies.
        let admission;
        try {
          admission = await this.#store.admit(null);
          if (admission.kind === 'global') this.#gate.hold(admission.ms, admission.pace);
        } finally {
          passed();
        }
        // A caller that left while the store decided sends nothing (the top of the loop says why).
        if (admission.kind !== 'global' && !this.#closed && !call.signal?.aborted) return this.#report.started(call);
        continue;
      }
      const outcome = await this.#queues.take(call, bucket, passed);
      if (outcome === HELD) continue;
      // Nobody waits for this grant any more (aborted, or closed, while the store decided): its
      // place goes back at once, not when its lease runs out, and nothing is sent.
      const gone = this.#closed || call.signal?.aborted;
      if (!gone && !this.#gate.lockedSinceGrant(call)) {
        call.reservation = outcome;
        return this.#report.started(call);
      }
      // Or a global wait began while this call waited for its bucket: hand the place back and
      // wait at the gate like everyone else.
      try {
        await this.#store.giveBack(bucket, outcome);
      } catch (error) {
        // An unreachable store keeps the place until its lease runs out; a caller that left
        // still learns why it ended (the top of the loop), not that the store is away.
        if (!gone) throw error;
      }
      this.#queues.wake(bucket.bucketKey);
    }
  }

  async #retry(call: CallState, end: AttemptEnd): Promise<void> {
    // A network error ended the attempt without a response: its reservation is spent.
    this.#report.resending(call, end);
    if (call.reservation) await this.#release(call);
    if (end.kind !== 'limiter') {
      if (end.kind === 'transport-error' && call.transportRetriesMade >= call.transportRetryLimit) throw end.error;
      call.transportRetriesMade += 1;
      const waitMs = transportBackoffMs(call.transportRetriesMade);
      await this.#wait(call, end.kind === 'server-error' ? 'server-error' : 'network-error', waitMs);
    }
    await this.#admit(call);
  }

  // ── After the answer: the dialect's judge, then what its verdict says ───────────────────────
  #afterResponse(call: CallState, response: Response): Promise<RetryCode | undefined> {
    const judged = this.#judgeAndLearn(call, response);
    // The service answered a relayed call: a store that cannot record the answer now must not
    // turn it into an error (whoever relayed it reads the answer; the lease runs out instead).
    return call.relayed ? judged.catch(() => undefined) : judged;
  }

  async #judgeAndLearn(call: CallState, response: Response): Promise<RetryCode | undefined> {
    const answeredAt = this.#clock.now();
    // A judge may answer synchronously: no extra turn of the event loop on every response.
    const judged = this.#judge(call.target, response);
    const verdict = isPromise(judged) ? await judged : judged;
    this.#report.answered(call, response.status, verdict);
    switch (verdict.action) {
      case 'return':
        // A 5xx without rate-limit headers (a gateway's error page) says nothing about limits:
        // it is handled as a failed attempt, so it cannot create a {0, 0, 0} bucket, which a
        // dialect's pre-check would read as "no limit".
        try {
          if (verdict.update && (response.status < 500 || Object.keys(verdict.update).length > 0))
            await this.#settle(call, verdict.update, answeredAt);
          else await this.#release(call);
        } catch (error) {
          // The service answered: a store that cannot record it now must not turn the answer into
          // an error (the call may have made something). Its lease runs out instead.
          if (!(response.status >= 500 && resendsAfter(call, response.status))) return undefined;
          throw error;
        }
        if (response.status >= 500 && resendsAfter(call, response.status)) return 'SERVER_ERROR';
        return undefined;
      case 'retry':
        await this.#settle(call, verdict.update, answeredAt);
        return call.relayed ? undefined : 'RATE_LIMITED';
      case 'wait-global':
        await this.#release(call);
        await this.#store.lockGlobal(verdict.waitMs);
        if (verdict.invalid) await this.#noteInvalid();
        this.#gate.hold(verdict.waitMs);
        // The wait itself happens at the global gate of the retry, where every caller waits alike.
        return call.relayed ? undefined : 'GLOBAL_RATE_LIMIT';
      case 'fail':
        if (verdict.update) await this.#settle(call, verdict.update, answeredAt);
        else await this.#release(call);
        if (verdict.invalid) await this.#noteInvalid();
        // A relayed call's answer is its error: whoever relays it reads the status.
        if (call.relayed) return undefined;
        throw verdict.error;
      case 'wait-retry':
        await this.#settle(call, verdict.update, answeredAt);
        if (call.relayed) return undefined;
        await this.#wait(call, 'retry-after', verdict.waitMs);
        return 'RATE_LIMITED';
      case 'resend':
        // The judge could not read the answer's headers: nothing of it is kept. A half-read record
        // (a limit without its reset) would read as a window already over.
        await this.#release(call);
        if (call.relayed) return undefined;
        call.headerResendsMade += 1;
        if (call.headerResendsMade > this.#maxHeaderResends) throw verdict.error;
        return 'RATE_LIMIT_HEADER_UNPARSEABLE';
    }
  }

  async #settle(call: CallState, update: unknown, answeredAt: number): Promise<void> {
    const reservation = call.reservation;
    // A call without a bucket holds none: it skips the post-response processing.
    if (!reservation || call.target.bucket === null) return;
    call.reservation = undefined;
    const result = await this.#store.settle(call.target.bucket, { ...reservation, answeredAt }, update);
    this.#queues.wake(call.identity.bucketKey);
    this.#reportInvalid(result);
  }

  async #noteInvalid(): Promise<void> {
    this.#reportInvalid(await this.#store.noteInvalid?.());
  }

  /** V15: the store's count after a settle or a note, to the client's warnings. */
  #reportInvalid(result: SettleResult | undefined): void {
    if (result?.invalidRequests !== undefined) this.#onInvalidCount?.(result.invalidRequests);
  }

  async #release(call: CallState): Promise<void> {
    const reservation = call.reservation;
    if (!reservation || call.target.bucket === null) return;
    call.reservation = undefined;
    await this.#store.release(call.target.bucket, reservation);
    this.#queues.wake(call.identity.bucketKey);
  }

  // ── Waits of one call ──────────────────────────────────────────────────────────────────────
  async #wait(call: CallState, reason: WaitReason, ms: number): Promise<void> {
    if (ms > call.maxWaitMs) throw new RateLimitWaitError(reason, ms, call.maxWaitMs, call.identity);
    this.#report.waiting(call, reason, ms);
    const closing = this.#closing.signal;
    await sleep(this.#clock, ms, call.signal ? AbortSignal.any([call.signal, closing]) : closing);
  }
}
