/** What the limiter tells its listeners: the waits of a call. */
import type { WaitReason } from '../errors.ts';

/** Reported for every wait a call makes; never carries the token or the request path. */
export interface WaitEvent {
  readonly reason: WaitReason;
  readonly routeKey: string;
  readonly bucketKey: string;
  readonly method: string;
  /** The wait in ms: planned for bucket, global, retry-after and retry waits; as waited for queue waits. */
  readonly waitMs: number;
}

export type WaitListener = (event: WaitEvent) => void;

/** Tells `listener` of a wait; a listener that throws must not fail the request it observes. */
export function emitWait(listener: WaitListener | undefined, event: WaitEvent): void {
  if (!listener) return;
  try {
    listener(event);
  } catch {
    // See above.
  }
}
