/** The global lock (v6 step 5, v10 V12): one script for both dialects, on the token's lock key. */
import type { Clock } from '../clock.ts';
import { runScript, type ScriptDefinition } from './connection.ts';
import { nowArgument, type RedisViewContext } from './context.ts';
import { LOCK_GLOBAL } from './lua.ts';

export const GLOBAL_LOCK_SCRIPTS: Readonly<Record<string, ScriptDefinition>> = {
  tollgateLockGlobal: { numberOfKeys: 1, lua: LOCK_GLOBAL },
};

/** Holds the lock at `key` for `ms` (unless it runs longer already) and tells the token's other processes on `channel`. */
export async function lockGlobal(
  context: RedisViewContext,
  clock: Clock,
  key: string,
  channel: string,
  ms: number,
): Promise<void> {
  await context.connection.call((redis) =>
    runScript(redis, 'tollgateLockGlobal', key, String(Math.ceil(ms)), channel, nowArgument(context, clock)),
  );
}
