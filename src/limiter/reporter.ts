/**
 * What the call lifecycle tells the outside, in one place: events for whoever listens (built
 * only then) and the observer's steps (telemetry). The lifecycle calls it at each step; no
 * decision is made here.
 */
import type { Clock } from '../clock.ts';
import type { Verdict } from '../contracts/dialect.ts';
import type { WaitReason } from '../errors.ts';
import type { CallState } from './call.ts';
import type { EventSink, LimiterEvents } from './events.ts';
import type { AttemptEnd } from './ky-hooks.ts';
import type { CallObserver } from './observer.ts';

const NO_EVENTS: EventSink<LimiterEvents> = { has: () => false, emit: () => {} };
/** Verdicts that send the call again. */
const RESENDING: ReadonlySet<Verdict['action']> = new Set(['retry', 'wait-retry', 'wait-global', 'resend']);
/** A call in words, for debug events. */
const describe = (call: CallState): string => `${call.identity.route} [${call.identity.bucketKey}]`;

export class CallReporter {
  readonly #clock: Clock;
  readonly #events: EventSink<LimiterEvents>;
  readonly #observer: CallObserver | undefined;

  constructor(clock: Clock, events: EventSink<LimiterEvents> | undefined, observer: CallObserver | undefined) {
    this.#clock = clock;
    this.#events = events ?? NO_EVENTS;
    this.#observer = observer;
  }

  /** Follows the admission of a call, when an observer wants to (calls waiting, for telemetry). */
  admitting(call: CallState, admit: Promise<void>): Promise<void> {
    const observer = this.#observer;
    if (!observer) return admit;
    observer.admitting(call);
    return admit.finally(() => observer.admitted(call));
  }

  /** An attempt is let through: counted, and timed when someone listens for responses. */
  started(call: CallState): void {
    call.attempts += 1;
    if (this.#observer || this.#events.has('response')) call.attemptStartedAt = this.#clock.now();
    this.#observer?.attemptStarted(call);
  }

  /** An attempt is followed by another (a transport error ended it without a response). */
  resending(call: CallState, end: AttemptEnd): void {
    if (end.kind === 'transport-error') this.#observer?.attemptEnded(call, undefined, end.error);
    if (end.kind !== 'limiter' && this.#events.has('debug')) {
      this.#events.emit('debug', `${describe(call)} is sent again after a ${end.kind}`);
    }
  }

  /** A call waits `waitMs` for `reason`. */
  waiting(call: CallState, reason: WaitReason, waitMs: number): void {
    this.#observer?.waited(call, reason, waitMs);
    const events = this.#events;
    if (events.has('wait')) {
      events.emit('wait', { ...call.identity, reason, waitMs });
    }
    if (events.has('debug')) events.emit('debug', `${describe(call)} waits ${Math.ceil(waitMs)} ms (${reason})`);
  }

  /** A response and its verdict: the response, (on a 429) the rate limit it names, the decision. */
  answered(call: CallState, status: number, verdict: Verdict): void {
    const events = this.#events;
    if (events.has('response')) {
      events.emit('response', {
        ...call.identity,
        status,
        durationMs: this.#clock.now() - call.attemptStartedAt,
        attempt: call.attempts,
      });
    }
    const limit = verdict.rateLimit;
    if (limit && events.has('rateLimited')) {
      events.emit('rateLimited', {
        ...call.identity,
        scope: limit.scope,
        hash: limit.hash,
        waitMs: limit.waitMs,
        retried: !call.relayed && RESENDING.has(verdict.action) && limit.waitMs <= call.maxWaitMs,
      });
    }
    if (events.has('debug')) events.emit('debug', `${describe(call)}: ${status} → ${verdict.action}`);
    this.#observer?.attemptEnded(call, status);
  }
}
