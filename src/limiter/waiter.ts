/** A call waiting in a bucket's queue or at the global gate, which its signal can take away. */
import type { CallState } from './call.ts';

export interface Waiter<Outcome> {
  readonly call: CallState;
  readonly since: number;
  /** A bucket wait of known length was reported for it (so its queue wait is not). */
  reported: boolean;
  grant(outcome: Outcome): void;
  fail(error: unknown): void;
}

/**
 * A waiter whose abort listener takes it out of where it waits (`remove`, false when it already
 * left) and rejects with the signal's reason. The abort goes through `waiter.fail`, which a
 * queue deadline wraps: an abort must cancel that timer too.
 */
export function newWaiter<Outcome>(
  call: CallState,
  since: number,
  resolve: (outcome: Outcome) => void,
  reject: (error: unknown) => void,
  remove: () => boolean,
): Waiter<Outcome> {
  const signal = call.signal;
  const onAbort = () => {
    if (remove()) waiter.fail(signal!.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const waiter: Waiter<Outcome> = {
    call,
    since,
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
