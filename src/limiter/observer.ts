/**
 * What the limiter tells an observer about each call, beyond its events: when an attempt is let
 * through and how it ended, and while a call waits to be let through. Telemetry implements it;
 * without it the limiter pays one `undefined` check per step.
 */
import type { WaitReason } from '../errors.ts';
import type { CallState } from './call.ts';

export interface CallObserver {
  /** The call entered the global gate and its bucket's queue. */
  admitting(call: CallState): void;
  /** …and left it: let through, or failed. */
  admitted(call: CallState): void;
  /** An attempt was let through (`call.attempts` counts it). */
  attemptStarted(call: CallState): void;
  /** The attempt got a response (`status`), or ended without one (`error`). */
  attemptEnded(call: CallState, status: number | undefined, error?: unknown): void;
  /** The call waits `ms` for `reason`. */
  waited(call: CallState, reason: WaitReason, ms: number): void;
}
