/** The ioredis client the store runs on, and how a script defined on it is run. */
import type { Cluster, Redis } from 'ioredis';

/** An ioredis connection: a `Redis` (a single node, or the master Sentinel names) or a `Cluster`. */
export type RedisClient = Redis | Cluster;

/** One script: its name, how many of its arguments are keys, its Lua. */
export interface ScriptDefinition {
  readonly numberOfKeys: number;
  readonly lua: string;
}

/** Runs a script defined on `redis` by name. */
export function runScript(redis: RedisClient, name: string, ...args: string[]): Promise<unknown> {
  const script = (redis as unknown as Record<string, ((...all: string[]) => Promise<unknown>) | undefined>)[name];
  if (!script) throw new Error(`tollgate: Redis script ${name} is not defined`);
  return script.call(redis, ...args);
}
