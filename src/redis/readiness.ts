/**
 * Waiting on an ioredis client handed over mid-connection: its next `ready`, its next change of
 * status, an answer by a deadline; each bounded, each failing with a reason in words.
 */
import type { RedisClient } from './redis-client.ts';
import { NotReady, reasonOf } from './failures.ts';

/** Statuses a connection passes through on its way to `end` or `reconnecting` (a Cluster shows them for a moment). */
export const PASSING = new Set(['close', 'disconnecting']);
/** Every status a connection moves to, as the events ioredis emits. */
const STATUSES = ['wait', 'connecting', 'connect', 'ready', 'reconnecting', 'close', 'end'] as const;

/**
 * Settles on the client's next `ready` (resolves) or `close`/`end` (rejects: this attempt failed),
 * or at the deadline (rejects), whichever comes first; `fail` rejects it from outside.
 */
export function readyOrFailure(
  redis: RedisClient,
  deadline: number,
  timeoutMs: number,
): { promise: Promise<void>; fail: (error: unknown) => void } {
  let fail!: (error: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    let lastError: unknown;
    const onError = (error: unknown) => {
      lastError = error;
    };
    const onReady = () => finish();
    const onClosed = () => finish(lastError ?? new NotReady('connection closed before it was ready'));
    const timer = setTimeout(
      () =>
        finish(
          new NotReady(
            `${lastError === undefined ? '' : `${reasonOf(lastError)}; `}not ready within ${seconds(timeoutMs)}, ` +
              `status "${redis.status}"`,
            lastError === undefined ? undefined : { cause: lastError },
          ),
        ),
      Math.max(1, deadline - Date.now()),
    );
    function finish(error?: unknown) {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('close', onClosed);
      redis.off('end', onClosed);
      redis.off('error', onError);
      if (error === undefined) resolve();
      else reject(error);
    }
    fail = (error) => finish(error);
    redis.on('error', onError);
    redis.once('ready', onReady);
    redis.once('close', onClosed);
    redis.once('end', onClosed);
  });
  return { promise, fail };
}

/** Resolves at the client's next change of status; rejects at the deadline. */
export function nextStatus(redis: RedisClient, deadline: number, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        stop();
        reject(new NotReady(`not ready within ${seconds(timeoutMs)}, status "${redis.status}"`));
      },
      Math.max(1, deadline - Date.now()),
    );
    const moved = () => {
      stop();
      resolve();
    };
    function stop() {
      clearTimeout(timer);
      for (const status of STATUSES) redis.off(status, moved);
    }
    for (const status of STATUSES) redis.once(status, moved);
  });
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** `promise`, or a rejection once the deadline passes. */
export async function withDeadline<T>(promise: Promise<T>, deadline: number, redis: RedisClient): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new NotReady(`no answer to PING in time; status "${redis.status}"`)),
      Math.max(1, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
