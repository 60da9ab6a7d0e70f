/**
 * The store's one connection for scripts: connecting on first use, counting round trips, and
 * turning failures into clear errors (`StoreUnavailableError`, `StoreDataError`). Scripts are
 * registered with ioredis' `defineCommand` (EVALSHA, loading the script on NOSCRIPT).
 */
import type { Redis } from 'ioredis';
import { StoreDataError, StoreUnavailableError } from './errors.ts';

const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|Connection is closed|Stream isn't writeable|enableOfflineQueue|connect/i;

/** One script: its name, how many of its arguments are keys, its Lua. */
export interface ScriptDefinition {
  readonly numberOfKeys: number;
  readonly lua: string;
}

/** Runs a script defined on `redis` by name. */
export function runScript(redis: Redis, name: string, ...args: string[]): Promise<unknown> {
  const script = (redis as unknown as Record<string, ((...all: string[]) => Promise<unknown>) | undefined>)[name];
  if (!script) throw new Error(`tollgate: Redis script ${name} is not defined`);
  return script.call(redis, ...args);
}

/** A connection failure in words, without the client library's own phrasing; `socketError`: the connection's last error event. */
function reasonOf(error: unknown, socketError: Error | undefined): string {
  const failed = (error as { code?: unknown } | null)?.code === undefined && socketError ? socketError : error;
  const code = (failed as { code?: unknown } | null)?.code;
  const message = String((failed as Error | null)?.message ?? failed);
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return 'connection refused';
  if (code === 'ENOTFOUND' || /ENOTFOUND|EAI_AGAIN/.test(message)) return 'host not found';
  if (code === 'ETIMEDOUT' || /ETIMEDOUT|timed? ?out/i.test(message)) return 'timed out';
  if (/ECONNRESET|EPIPE|Connection is closed|Stream isn't writeable|enableOfflineQueue/i.test(message))
    return 'connection lost';
  return 'no connection';
}

export class RedisConnection {
  readonly redis: Redis;
  /** Names the server in errors without its password. */
  readonly description: string;
  /** Round trips made, for measurement. */
  roundTrips = 0;
  readonly #onConnect: () => Promise<void>;
  #lastError: Error | undefined;
  #ready: Promise<void> | undefined;

  constructor(
    redis: Redis,
    description: string,
    scripts: Readonly<Record<string, ScriptDefinition>>,
    onConnect: () => Promise<void>,
  ) {
    this.redis = redis;
    this.description = description;
    this.#onConnect = onConnect;
    redis.on('error', (error: Error) => {
      // Connection errors surface as StoreUnavailableError on the calls that need Redis; the
      // socket's own error (ECONNREFUSED…) says why better than the call's "Connection is closed".
      this.#lastError = error;
    });
    for (const [name, script] of Object.entries(scripts)) redis.defineCommand(name, script);
  }

  /** Connects now; rejects with StoreUnavailableError when Redis cannot be reached. */
  connect(): Promise<void> {
    this.#ready ??= this.#connect().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #connect(): Promise<void> {
    try {
      if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
      await this.redis.ping();
      this.roundTrips += 1;
      await this.#onConnect();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** Runs one Redis call (one script: one round trip), counting it and turning failures into clear errors. */
  async call<T>(run: (redis: Redis) => Promise<T>): Promise<T> {
    await this.connect();
    try {
      this.roundTrips += 1;
      return await run(this.redis);
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const bad = /TOLLGATE_BAD_DATA (.*)/.exec(message);
      if (bad) throw new StoreDataError(`Redis key ${bad[1]} (tollgate cannot read data written by something else)`);
      if (/WRONGTYPE/.test(message))
        throw new StoreDataError(`a tollgate key in Redis holds another type of data: ${message}`);
      if (CONNECTION_ERROR.test(message)) throw this.unavailable(error);
      throw error;
    }
  }

  /** A clear error for a lost or refused connection: what happened in words, and what to do; the client's own error is the cause. */
  unavailable(error: unknown): StoreUnavailableError {
    return new StoreUnavailableError(
      `${this.description} is unreachable (${reasonOf(error, this.#lastError)}): calls that need it fail until it answers again; ` +
        "with RedisStore({ onUnavailable: 'local' }) each process limits itself meanwhile",
      { cause: error },
    );
  }

  /** Forgets the connection state (the next call connects again). */
  reset(): void {
    this.#ready = undefined;
  }
}
