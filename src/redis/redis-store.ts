/**
 * `RedisStore`: buckets and the global lock shared by every process (and machine) on a token.
 * Each decision is one Lua script run by hash (ioredis `defineCommand`: EVALSHA, loading the
 * script on NOSCRIPT); waiting processes are woken by pub/sub and by lease expiry, never by
 * polling in a loop.
 *
 * ioredis is an optional peer dependency: it reconnects by itself, runs the same API against a
 * Redis Cluster, and its `defineCommand` handles the script cache.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import type { Reservation } from '../limiter/reservations.ts';
import type { BucketRecord, BucketUpdate } from '../limiter/rules.ts';
import {
  MemoryStore,
  type Admission,
  type BucketStore,
  type RateLimitStore,
  type StoreEvent,
  type V10Settings,
} from '../limiter/store.ts';
import type { V10Update } from '../limiter/v10/rules.ts';
import { ADMIT, LOCK_GLOBAL, READ, RELEASE, SETTLE, SLEPT } from './scripts.ts';
import {
  ADMIT_V10,
  INVALID_COUNT_V10,
  LOCK_GLOBAL_V10,
  NOTE_INVALID_V10,
  READ_V10,
  RELEASE_V10,
  SETTLE_V10,
} from './v10-scripts.ts';
import { RedisV10View, type V10Scripts } from './v10-view.ts';

export interface RedisStoreOptions {
  /** Default `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** Your own ioredis connection (or Cluster) instead of `url`; you close it. */
  readonly client?: Redis;
  /** Prepended to every key and channel. Default `tollgate`. */
  readonly prefix?: string;
  /** How long a reservation counts as in flight without an answer (ms). Default 30000. */
  readonly leaseMs?: number;
  /**
   * When Redis cannot be reached mid-run: `fail` (default) fails the requests with
   * StoreUnavailableError; `local` limits each process on its own, conservatively (every bucket
   * starts unknown: one request in flight until its headers arrive), until Redis is back.
   */
  readonly onUnavailable?: 'fail' | 'local';
  /**
   * Whose clock decides windows and leases: `redis` (default: Redis's own, so machines with
   * skewed clocks agree) or `client` (the limiter's clock: tests on a manual clock, or machines
   * kept in step by NTP).
   */
  readonly time?: 'redis' | 'client';
}

/** Redis cannot be reached; nothing was sent. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Data under tollgate's keys that tollgate cannot read (written by something else). */
export class StoreDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreDataError';
  }
}

interface Scripts {
  tollgateAdmit(
    bucket: string,
    leases: string,
    global: string,
    leaseMs: number,
    id: string,
    none: string,
    now: string,
  ): Promise<unknown[]>;
  tollgateSettle(
    bucket: string,
    leases: string,
    id: string,
    limit: string,
    remaining: string,
    reset: string,
    channel: string,
    key: string,
    now: string,
  ): Promise<number>;
  tollgateRelease(
    bucket: string,
    leases: string,
    id: string,
    channel: string,
    key: string,
    giveBack: string,
    counted: string,
    reset: string,
    now: string,
  ): Promise<number>;
  tollgateSlept(bucket: string, reset: string, now: string): Promise<number>;
  tollgateLockGlobal(global: string, ms: string, channel: string, now: string): Promise<number>;
  tollgateRead(bucket: string, now: string): Promise<[string, string, string] | null>;
}

const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|Connection is closed|Stream isn't writeable|enableOfflineQueue|connect/i;

export class RedisStore implements RateLimitStore {
  readonly #redis: Redis & Scripts & V10Scripts;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #onUnavailable: 'fail' | 'local';
  readonly #clientTime: boolean;
  readonly #description: string;
  readonly #listeners = new Map<string, Set<(event: StoreEvent) => void>>();
  #subscriber: Redis | undefined;
  #ready: Promise<void> | undefined;
  /** Round trips made, for measurement. */
  roundTrips = 0;

  constructor(options: RedisStoreOptions = {}) {
    const prefix = options.prefix ?? 'tollgate';
    if (!/^[\w.:-]{1,64}$/.test(prefix))
      throw new TypeError('RedisStore: prefix must be 1–64 characters of [A-Za-z0-9_.:-]');
    const leaseMs = options.leaseMs ?? 30_000;
    if (!Number.isInteger(leaseMs) || leaseMs < 100)
      throw new TypeError('RedisStore: leaseMs must be a whole number of ms, at least 100');
    if (options.onUnavailable !== undefined && !['fail', 'local'].includes(options.onUnavailable)) {
      throw new TypeError("RedisStore: onUnavailable must be 'fail' or 'local'");
    }
    if (options.time !== undefined && !['redis', 'client'].includes(options.time)) {
      throw new TypeError("RedisStore: time must be 'redis' or 'client'");
    }
    if (options.url !== undefined && options.client !== undefined)
      throw new TypeError('RedisStore: pass either url or client, not both');
    if (options.url !== undefined && !(typeof options.url === 'string' && /^rediss?:\/\//i.test(options.url))) {
      throw new TypeError('RedisStore: url must be a redis:// or rediss:// URL');
    }
    if (
      options.client !== undefined &&
      typeof (options.client as { defineCommand?: unknown })?.defineCommand !== 'function'
    ) {
      throw new TypeError('RedisStore: client must be an ioredis connection (Redis or Cluster)');
    }
    const url = options.url ?? 'redis://127.0.0.1:6379';
    this.#ownsClient = options.client === undefined;
    this.#redis = (options.client ??
      new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 })) as Redis &
      Scripts &
      V10Scripts;
    this.#description = options.client ? 'the given Redis connection' : `Redis at ${redactUrl(url)}`;
    this.#prefix = prefix;
    this.#leaseMs = leaseMs;
    this.#onUnavailable = options.onUnavailable ?? 'fail';
    this.#clientTime = options.time === 'client';
    this.#redis.on('error', () => {
      // Connection errors surface as StoreUnavailableError on the calls that need Redis.
    });
    const define = (name: string, numberOfKeys: number, lua: string) =>
      this.#redis.defineCommand(name, { numberOfKeys, lua });
    define('tollgateAdmit', 3, ADMIT);
    define('tollgateSettle', 2, SETTLE);
    define('tollgateRelease', 2, RELEASE);
    define('tollgateSlept', 1, SLEPT);
    define('tollgateLockGlobal', 1, LOCK_GLOBAL);
    define('tollgateRead', 1, READ);
    define('tollgateAdmitV10', 2, ADMIT_V10);
    define('tollgateSettleV10', 2, SETTLE_V10);
    define('tollgateReleaseV10', 2, RELEASE_V10);
    define('tollgateLockGlobalV10', 2, LOCK_GLOBAL_V10);
    define('tollgateNoteInvalidV10', 2, NOTE_INVALID_V10);
    define('tollgateInvalidCountV10', 2, INVALID_COUNT_V10);
    define('tollgateReadV10', 2, READ_V10);
  }

  /** Connects (and subscribes) now; rejects with StoreUnavailableError when Redis cannot be reached. */
  connect(): Promise<void> {
    this.#ready ??= this.#connect().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #connect(): Promise<void> {
    try {
      if (this.#redis.status === 'wait' || this.#redis.status === 'end') await this.#redis.connect();
      await this.#redis.ping();
      this.roundTrips += 1;
      if (!this.#subscriber) {
        const subscriber = this.#redis.duplicate({
          enableOfflineQueue: true,
          maxRetriesPerRequest: null,
          lazyConnect: true,
        });
        subscriber.on('error', () => {});
        subscriber.on('message', (channel: string, message: string) => this.#dispatch(channel, message));
        await subscriber.connect();
        this.#subscriber = subscriber;
        // Subscriptions are restored by ioredis after a reconnect.
        for (const channel of this.#listeners.keys()) await subscriber.subscribe(channel);
      }
    } catch (error) {
      throw new StoreUnavailableError(`${this.#description} is unreachable: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  forToken(token: string | undefined, clock: Clock): BucketStore;
  forToken(token: string | undefined, clock: Clock, v10: V10Settings): BucketStore<V10Update>;
  forToken(token: string | undefined, clock: Clock, v10?: V10Settings): BucketStore | BucketStore<V10Update> {
    // One-way: the token never reaches Redis, only a hash of it.
    const hash = createHash('sha256')
      .update(token ?? '')
      .digest('hex')
      .slice(0, 32);
    if (v10) return new RedisV10View(this, this.#redis, this.#prefix, hash, clock, v10);
    const namespace = `${this.#prefix}:{${hash}}`;
    return new RedisBucketStore(this, namespace, clock);
  }

  /** Closes the connections this store opened (not a `client` you passed in). */
  async close(): Promise<void> {
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
    if (this.#ownsClient) this.#redis.disconnect();
    this.#ready = undefined;
  }

  // ── for the per-token views ────────────────────────────────────────────────────────────────
  get redis(): Redis & Scripts {
    return this.#redis;
  }
  get leaseMs(): number {
    return this.#leaseMs;
  }
  /** The key prefix this store was made with. */
  get prefix(): string {
    return this.#prefix;
  }
  get usesClientTime(): boolean {
    return this.#clientTime;
  }

  /** Runs one Redis call, counting round trips and turning failures into clear errors. */
  async call<T>(run: () => Promise<T>): Promise<T> {
    await this.connect();
    try {
      this.roundTrips += 1;
      return await run();
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const bad = /TOLLGATE_BAD_DATA (.*)/.exec(message);
      if (bad) throw new StoreDataError(`Redis key ${bad[1]} (tollgate cannot read data written by something else)`);
      if (/WRONGTYPE/.test(message))
        throw new StoreDataError(`a tollgate key in Redis holds another type of data: ${message}`);
      if (CONNECTION_ERROR.test(message)) {
        throw new StoreUnavailableError(`${this.#description} is unreachable: ${message}`, { cause: error });
      }
      throw error;
    }
  }

  /** Redis, or (if the user chose it) the view's conservative local limiter while Redis is away. */
  async run<T>(remote: () => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    try {
      return await this.call(remote);
    } catch (error) {
      if (error instanceof StoreUnavailableError && this.#onUnavailable === 'local') return local();
      throw error;
    }
  }

  async listen(channel: string, listener: (event: StoreEvent) => void): Promise<void> {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      if (this.#subscriber) await this.#subscriber.subscribe(channel);
    }
    set.add(listener);
  }

  unlisten(channel: string, listener: (event: StoreEvent) => void): void {
    const set = this.#listeners.get(channel);
    if (!set) return;
    set.delete(listener);
    if (set.size === 0) {
      this.#listeners.delete(channel);
      void this.#subscriber?.unsubscribe(channel).catch(() => {});
    }
  }

  #dispatch(channel: string, message: string): void {
    const set = this.#listeners.get(channel);
    if (!set) return;
    const event: StoreEvent | undefined = message.startsWith('b:')
      ? { kind: 'bucket', bucketKey: message.slice(2) }
      : message.startsWith('g:') && Number.isFinite(Number(message.slice(2)))
        ? { kind: 'global', ms: Number(message.slice(2)) }
        : undefined;
    if (event) for (const listener of set) listener(event);
  }
}

class RedisBucketStore implements BucketStore {
  readonly #store: RedisStore;
  readonly #namespace: string;
  readonly #channel: string;
  readonly #global: string;
  readonly #local: BucketStore;
  readonly #clock: Clock;
  readonly #listeners: ChannelListeners;

  constructor(store: RedisStore, namespace: string, clock: Clock) {
    this.#store = store;
    this.#namespace = namespace;
    this.#channel = `${namespace}:events`;
    this.#listeners = new ChannelListeners(store, this.#channel);
    this.#global = `${namespace}:global`;
    this.#local = new MemoryStore().forToken(undefined, clock);
    this.#clock = clock;
  }

  /** The scripts' last argument: the limiter's clock, or '' for Redis's. */
  #now(): string {
    return this.#store.usesClientTime ? String(Math.floor(this.#clock.now())) : '';
  }

  #bucket(bucketKey: string): string {
    return `${this.#namespace}:bucket:${bucketKey}`;
  }
  #leases(bucketKey: string): string {
    return `${this.#namespace}:leases:${bucketKey}`;
  }

  #run<T>(remote: () => Promise<unknown>, local: () => T | Promise<T>): Promise<T> {
    return this.#store.run(remote as () => Promise<T>, local);
  }

  async admit(bucketKey: string | null): Promise<Admission> {
    const id = randomUUID();
    const key = bucketKey ?? '';
    return this.#run(
      async () => {
        const reply = await this.#store.redis.tollgateAdmit(
          this.#bucket(key),
          this.#leases(key),
          this.#global,
          this.#store.leaseMs,
          id,
          bucketKey === null ? '1' : '0',
          this.#now(),
        );
        return parseAdmission(reply);
      },
      () => this.#local.admit(bucketKey),
    );
  }

  async markSleptPast(bucketKey: string, reset: number): Promise<void> {
    await this.#run(
      () => this.#store.redis.tollgateSlept(this.#bucket(bucketKey), String(reset), this.#now()),
      () => this.#local.markSleptPast(bucketKey, reset),
    );
  }

  async settle(bucketKey: string, reservation: Reservation, update: BucketUpdate): Promise<void> {
    const text = (value: number | undefined) => (value === undefined ? '' : String(value));
    await this.#run(
      () =>
        this.#store.redis.tollgateSettle(
          this.#bucket(bucketKey),
          this.#leases(bucketKey),
          reservation.id ?? '',
          text(update.limit),
          text(update.remaining),
          text(update.reset),
          this.#channel,
          bucketKey,
          this.#now(),
        ),
      () => this.#local.settle(bucketKey, reservation, update),
    );
  }

  release(bucketKey: string, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(bucketKey, reservation, false);
  }

  giveBack(bucketKey: string, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(bucketKey, reservation, true);
  }

  async #releaseOrGiveBack(bucketKey: string, reservation: Reservation, never: boolean): Promise<void> {
    await this.#run(
      () =>
        this.#store.redis.tollgateRelease(
          this.#bucket(bucketKey),
          this.#leases(bucketKey),
          reservation.id ?? '',
          this.#channel,
          bucketKey,
          never ? '1' : '0',
          reservation.counted ? '1' : '0',
          String(reservation.reset),
          this.#now(),
        ),
      () => (never ? this.#local.giveBack(bucketKey, reservation) : this.#local.release(bucketKey, reservation)),
    );
  }

  async lockGlobal(ms: number): Promise<void> {
    await this.#run(
      () => this.#store.redis.tollgateLockGlobal(this.#global, String(Math.ceil(ms)), this.#channel, this.#now()),
      () => this.#local.lockGlobal(ms),
    );
  }

  async get(bucketKey: string): Promise<BucketRecord | undefined> {
    return this.#run(
      async () => {
        const reply = await this.#store.redis.tollgateRead(this.#bucket(bucketKey), this.#now());
        if (reply === null) return undefined;
        return { limit: Number(reply[0]), remaining: Number(reply[1]), reset: Number(reply[2]) };
      },
      () => this.#local.get(bucketKey),
    );
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

/** A view's listeners on its pub/sub channel: subscribed on the store, all dropped on close. */
export class ChannelListeners {
  readonly #store: RedisStore;
  readonly #channel: string;
  readonly #listeners = new Set<(event: StoreEvent) => void>();

  constructor(store: RedisStore, channel: string) {
    this.#store = store;
    this.#channel = channel;
  }

  add(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener);
    void this.#store.listen(this.#channel, listener).catch(() => {});
    return () => {
      this.#listeners.delete(listener);
      this.#store.unlisten(this.#channel, listener);
    };
  }

  clear(): void {
    for (const listener of this.#listeners) this.#store.unlisten(this.#channel, listener);
    this.#listeners.clear();
  }
}

function parseAdmission(reply: unknown[]): Admission {
  const [kind, a, b, c] = reply as [string, unknown, unknown, unknown];
  switch (kind) {
    case 'global':
      return { kind: 'global', ms: Number(a) };
    case 'grant':
      return { kind: 'grant', reservation: { counted: Number(a) === 1, reset: Number(b), id: String(c) } };
    case 'sleep':
      return { kind: 'sleep', ms: Number(a), reset: Number(b) };
    case 'await':
      return { kind: 'await-response', retryMs: Number(a) };
    default:
      throw new StoreDataError(`unexpected reply from the admit script: ${JSON.stringify(reply).slice(0, 100)}`);
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}
