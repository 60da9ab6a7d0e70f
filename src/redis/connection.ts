/**
 * The store's one connection for scripts: connecting on first use, counting round trips, and
 * turning failures into clear errors (`StoreUnavailableError`, `StoreDataError`). Scripts are
 * registered with ioredis' `defineCommand` (EVALSHA, loading the script on NOSCRIPT).
 *
 * The connection is any ioredis client: a `Redis` (one node, or a master found through Sentinel)
 * or a `Cluster`, in whatever state it is handed over: lazy (`wait`: connected now), on its way
 * (`connecting`, `connect`, `reconnecting`: waited on until `ready`, for a bounded time) or ready.
 * A closed one (`end`, `close`) is opened again only when the store made it itself.
 */
import { StoreDataError, StoreUnavailableError } from './errors.ts';
import type { RedisClient, ScriptDefinition } from './redis-client.ts';
import { CONNECTION_ERROR, NotReady, reasonOf } from './failures.ts';
import { nextStatus, PASSING, readyOrFailure, withDeadline } from './readiness.ts';

export { runScript, type RedisClient, type ScriptDefinition } from './redis-client.ts';

/** One Redis call, run on the connection's client. */
export type RedisRun<T> = (redis: RedisClient) => Promise<T>;

/** How long a connection handed over while it connects (or reconnects) may take to be ready. */
export const READY_TIMEOUT_MS = 10_000;

export interface ConnectionOptions {
  /** The store made this connection (and may open it again once closed). */
  readonly owned: boolean;
  /** How long a connection on its way may take to be ready (ms). Default READY_TIMEOUT_MS. */
  readonly readyTimeoutMs?: number;
}

export class RedisConnection {
  readonly redis: RedisClient;
  /** Names the server in errors without its password. */
  readonly description: string;
  /** Round trips made, for measurement. */
  roundTrips = 0;
  readonly #onConnect: (timeoutMs: number) => Promise<void>;
  readonly #owned: boolean;
  readonly #readyTimeoutMs: number;
  #ready: Promise<void> | undefined;
  /** The client's last error event: why it is found reconnecting, or why a call met a closed connection. */
  #lastError: unknown;
  /** The store closed its connection (`reset`): the next call opens it again, whatever ioredis says. */
  #closedByStore = false;

  constructor(
    redis: RedisClient,
    description: string,
    scripts: Readonly<Record<string, ScriptDefinition>>,
    onConnect: (timeoutMs: number) => Promise<void>,
    options: ConnectionOptions = { owned: false },
  ) {
    this.redis = redis;
    this.description = description;
    this.#onConnect = onConnect;
    this.#owned = options.owned;
    this.#readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    redis.on('error', (error: unknown) => {
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
    const deadline = Date.now() + this.#readyTimeoutMs;
    try {
      await this.#whenReady(deadline);
    } catch (error) {
      throw error instanceof StoreUnavailableError ? error : this.unavailable(error);
    }
    try {
      await withDeadline(this.redis.ping(), deadline, this.redis);
      this.roundTrips += 1;
      await this.#onConnect(Math.max(1, deadline - Date.now()));
    } catch (error) {
      // Ready a moment ago: closed by its owner meanwhile? Then say so.
      if (!this.#owned && this.redis.status === 'end') throw this.#closed('end', error);
      throw this.unavailable(error);
    }
  }

  /** Resolves once the client is `ready`: connecting it, or waiting on it, as its status asks. */
  async #whenReady(deadline: number): Promise<void> {
    const redis = this.redis;
    for (;;) {
      const status = redis.status;
      if (status === 'ready') return;
      if (PASSING.has(status)) {
        // On its way to `end` or to `reconnecting`: see which, then decide.
        await nextStatus(redis, deadline, this.#readyTimeoutMs);
        continue;
      }
      if (status === 'end' && !this.#owned) throw this.#closed(status);
      // Closed by the store between two retries, ioredis stays `reconnecting` and retries no more.
      const reopen = status === 'end' || (status === 'reconnecting' && this.#owned && this.#closedByStore);
      // Otherwise the store's own connection fails fast while ioredis retries (it has no offline queue either).
      if (status === 'reconnecting' && this.#owned && !reopen)
        throw this.unavailable(this.#lastError ?? new NotReady('reconnecting'));
      this.#closedByStore = false;
      const ready = readyOrFailure(redis, deadline, this.#readyTimeoutMs);
      if (status === 'wait' || reopen) redis.connect().catch((error: unknown) => ready.fail(error));
      return ready.promise;
    }
  }

  /** Runs one Redis call (one script: one round trip), counting it and turning failures into clear errors. */
  async call<T>(run: RedisRun<T>): Promise<T> {
    await this.connect();
    this.roundTrips += 1;
    return this.#run(run);
  }

  /**
   * Two calls sent at once (on a Cluster, to two shards in parallel): one round trip. Each settles
   * on its own, a failure as a clear error, so that the caller can undo what the other did.
   */
  async callTogether<A, B>(
    first: RedisRun<A>,
    second: RedisRun<B>,
  ): Promise<[PromiseSettledResult<A>, PromiseSettledResult<B>]> {
    await this.connect();
    this.roundTrips += 1;
    return Promise.allSettled([this.#run(first), this.#run(second)]);
  }

  async #run<T>(run: RedisRun<T>): Promise<T> {
    try {
      return await run(this.redis);
    } catch (error) {
      throw this.#clear(error);
    }
  }

  /** What a failed call means, as a clear error. */
  #clear(error: unknown): unknown {
    const message = (error as Error).message ?? String(error);
    const bad = /TOLLGATE_BAD_DATA (.*)/.exec(message);
    if (bad) return new StoreDataError(`Redis key ${bad[1]} (tollgate cannot read data written by something else)`);
    if (/WRONGTYPE/.test(message))
      return new StoreDataError(`a tollgate key in Redis holds another type of data: ${message}`);
    if (!this.#owned && this.redis.status === 'end') return this.#closed(this.redis.status, error);
    if (CONNECTION_ERROR.test(message)) return this.unavailable(error);
    return error;
  }

  /** A clear error for a lost or refused connection: what happened in words, and what to do; the client's own error is the cause. */
  unavailable(error: unknown): StoreUnavailableError {
    return new StoreUnavailableError(
      `${this.description} is unreachable (${reasonOf(error, this.#lastError)}): calls that need it fail until it answers again; ` +
        "with RedisStore({ onUnavailable: 'local' }) each process limits itself meanwhile",
      { cause: error },
    );
  }

  /** A connection handed over and closed since: ioredis will not open it again by itself. */
  #closed(status: string, cause?: unknown): StoreUnavailableError {
    return new StoreUnavailableError(
      `${this.description} is closed (status "${status}"): ioredis does not reopen it by itself; call its connect(), ` +
        "or give RedisStore one that is ready, connecting or lazy. With RedisStore({ onUnavailable: 'local' }) " +
        'each process limits itself meanwhile',
      cause === undefined ? undefined : { cause },
    );
  }

  /** Forgets the connection state, once the store closed it (the next call connects again). */
  reset(): void {
    this.#ready = undefined;
    this.#closedByStore = true;
  }
}
