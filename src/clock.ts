/** Time as the limiter sees it. Injectable so tests drive time and runtimes without timers can plug in. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `callback` after `ms` milliseconds; returns a function that cancels it. */
  setTimeout(callback: () => void, ms: number): () => void;
}

/** The longest delay a timer holds (2^31 − 1 ms, about 24.8 days): Node fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** The wall clock (`Date.now()`) and the runtime's timers: the default clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    // Not unref'd: a caller is awaiting the wait. `client.close()` cancels every timer. A wait
    // longer than one timer holds is a chain of them.
    let handle: ReturnType<typeof setTimeout>;
    const arm = (left: number) => {
      handle = setTimeout(
        () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : callback()),
        Math.min(left, MAX_TIMER_MS),
      );
    };
    arm(ms);
    return () => clearTimeout(handle);
  },
};

/** Sleeps on `clock`; rejects with the signal's reason as soon as `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel();
      reject(signal!.reason);
    };
    const cancel = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A monotonic clock on the epoch's scale: `performance.timeOrigin + performance.now()`. Wall-clock
 * steps (NTP, a user changing the time) do not move it (v10, V3 and §8: Reset-After is counted
 * from a response's arrival on a monotonic clock).
 */
export const monotonicClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimeout: systemClock.setTimeout,
};
