/**
 * `RedisStore`: buckets and the global lock shared by every process (and machine) on a token.
 * One view per (dialect, token), chosen from a two-row table; each decision is one Lua script,
 * one round trip. Waiting processes are woken by pub/sub and by lease expiry, never by polling
 * in a loop. With `onUnavailable: 'local'`, each view falls back to the dialect's memory view
 * while Redis is away (`src/stores/fallback-view.ts`).
 *
 * ioredis is an optional peer dependency: it reconnects by itself, runs the same API against a
 * Redis Cluster, and its `defineCommand` handles the script cache.
 */
import { Redis, type Cluster } from 'ioredis';
import { TollgateArgumentError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import {
  DEFAULT_LEASE_MS,
  type BucketRef,
  type Store,
  type StoreSlots,
  type StoreView,
  type ViewRequest,
} from '../contracts/store.ts';
import type { V10Settings } from '../dialects/v10/settings.ts';
import { PubSub } from './channel.ts';
import { RedisConnection, type RedisClient } from './connection.ts';
import type { RedisViewContext } from './context.ts';
import { FallbackView } from '../stores/fallback-view.ts';
import { TokenViews } from '../stores/token-views.ts';
import { invalidLogKey, KEY_PART, namespaceOf } from './keys.ts';
import { GLOBAL_LOCK_SCRIPTS } from './global-lock.ts';
import { RedisV6View, V6_SCRIPTS } from './v6/view.ts';
import { RedisV10View, V10_SCRIPTS } from './v10/view.ts';

export { StoreDataError, StoreUnavailableError } from './errors.ts';

/** Where `RedisStore` keeps the limits (a URL or your client), under which prefix, and what it does while Redis is away. */
export interface RedisStoreOptions {
  /** Default `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /**
   * Your own ioredis client instead of `url`; you close it. A `Redis` (one node, or through
   * Sentinel: `new Redis({ sentinels, name })`) or a `Cluster`, lazy, connecting or ready: the
   * store connects a lazy one, and waits (up to 10 s) for one on its way.
   */
  readonly client?: Redis | Cluster;
  /** Prepended to every key and channel. Default `tollgate`. */
  readonly prefix?: string;
  /**
   * The processes that reach the service from one egress IP (v10): they share one invalid-request
   * count (V15: the service bans an IP after 10 000 in 10 minutes) and one budget for calls sent
   * without a token (V13). Give the machines of a fleet with IPs of their own a group each (their
   * host name, say); processes behind one NAT, one group. Default `default`: every process on
   * this prefix is one IP. 1–64 characters of [A-Za-z0-9_.:-].
   */
  readonly ipGroup?: string;
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

/** A dialect's view in Redis, from the dialect's settings (opaque here: its own row reads them). */
type RedisViewMaker = (
  settings: unknown,
  context: RedisViewContext,
  /** The token's keys, or the IP group's without a token (`keys.ts`). */
  namespace: string,
  /** The IP group's invalid-request log (v10, V15). */
  invalidLog: string,
  clock: Clock,
) => StoreView<BucketRef>;

/** Each dialect's Redis view, by its key in `DIALECTS`: its folder of scripts (`v6/`, `v10/`). */
const REDIS_VIEWS: Readonly<Record<string, RedisViewMaker>> = {
  v6: (_, context, namespace, _invalidLog, clock) => new RedisV6View(context, namespace, clock),
  v10: (settings, context, namespace, invalidLog, clock) =>
    new RedisV10View(context, `${namespace}:v10`, invalidLog, clock, settings as V10Settings),
};

/**
 * While Redis is away each token's local view falls back on slots of its own (a fresh
 * invalid-request log per view, V15), as each fallback view had before the dialects brought their views.
 */
const OWN_SLOTS: StoreSlots = (_name, make) => make();

export class RedisStore implements Store {
  readonly #connection: RedisConnection;
  readonly #pubsub = new PubSub();
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #ipGroup: string;
  readonly #onUnavailable: 'fail' | 'local';
  readonly #context: RedisViewContext;
  /**
   * `onUnavailable: 'local'`: the memory view each (dialect, token) decides with while Redis is
   * away, shared by the token's clients in this process (a window one spent, the next finds).
   */
  readonly #localViews = new TokenViews();

  constructor(options: RedisStoreOptions = {}) {
    const prefix = options.prefix ?? 'tollgate';
    if (!KEY_PART.test(prefix))
      throw new TollgateArgumentError('RedisStore: prefix must be 1–64 characters of [A-Za-z0-9_.:-]');
    const ipGroup = options.ipGroup ?? 'default';
    if (typeof ipGroup !== 'string' || !KEY_PART.test(ipGroup))
      throw new TollgateArgumentError(
        'RedisStore: ipGroup must be 1–64 characters of [A-Za-z0-9_.:-] (it names the processes behind one egress IP)',
      );
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isInteger(leaseMs) || leaseMs < 100)
      throw new TollgateArgumentError('RedisStore: leaseMs must be a whole number of ms, at least 100');
    if (options.onUnavailable !== undefined && !['fail', 'local'].includes(options.onUnavailable)) {
      throw new TollgateArgumentError("RedisStore: onUnavailable must be 'fail' or 'local'");
    }
    if (options.time !== undefined && !['redis', 'client'].includes(options.time)) {
      throw new TollgateArgumentError("RedisStore: time must be 'redis' or 'client'");
    }
    if (options.url !== undefined && options.client !== undefined)
      throw new TollgateArgumentError('RedisStore: pass either url or client, not both');
    if (options.url !== undefined && !(typeof options.url === 'string' && /^rediss?:\/\//i.test(options.url))) {
      throw new TollgateArgumentError('RedisStore: url must be a redis:// or rediss:// URL');
    }
    if (
      options.client !== undefined &&
      typeof (options.client as { defineCommand?: unknown })?.defineCommand !== 'function'
    ) {
      throw new TollgateArgumentError('RedisStore: client must be an ioredis connection (Redis or Cluster)');
    }
    const url = options.url ?? 'redis://127.0.0.1:6379';
    this.#ownsClient = options.client === undefined;
    const redis =
      options.client ?? new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.#connection = new RedisConnection(
      redis,
      options.client ? describeClient(options.client) : `Redis at ${redactUrl(url)}`,
      { ...V6_SCRIPTS, ...V10_SCRIPTS, ...GLOBAL_LOCK_SCRIPTS },
      (timeoutMs) => this.#pubsub.open(redis, timeoutMs),
      { owned: this.#ownsClient },
    );
    this.#prefix = prefix;
    this.#ipGroup = ipGroup;
    this.#onUnavailable = options.onUnavailable ?? 'fail';
    this.#context = {
      connection: this.#connection,
      pubsub: this.#pubsub,
      leaseMs,
      clientTime: options.time === 'client',
    };
  }

  /** Connects (and subscribes) now; rejects with StoreUnavailableError when Redis cannot be reached. */
  connect(): Promise<void> {
    return this.#connection.connect();
  }

  view<B extends BucketRef>(request: ViewRequest<B>, token: string | undefined, clock: Clock): StoreView<B> {
    const make = REDIS_VIEWS[request.api];
    if (!make) throw new TollgateArgumentError(`RedisStore: no Redis view for the ${request.api} dialect`);
    const namespace = namespaceOf(this.#prefix, token, this.#ipGroup);
    // The row of `request.api` is that dialect's view, on its bucket references.
    const remote = make(
      request.settings,
      this.#context,
      namespace,
      invalidLogKey(this.#prefix, this.#ipGroup),
      clock,
    ) as StoreView<B>;
    if (this.#onUnavailable !== 'local') return remote;
    return new FallbackView(
      remote,
      this.#localViews.of(request, token, clock, () => request.memoryView(clock, OWN_SLOTS)),
    );
  }

  /** Closes the connections this store opened (not a `client` you passed in). */
  async close(): Promise<void> {
    this.#pubsub.close();
    const redis = this.#connection.redis;
    if (this.#ownsClient) {
      // Closed once it says so (when open, it ends with an event): a call after close() then opens
      // it again, rather than meeting it half-closed.
      const ended = ['connecting', 'connect', 'ready'].includes(redis.status)
        ? new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 1000);
            redis.once('end', () => {
              clearTimeout(timer);
              resolve();
            });
          })
        : undefined;
      redis.disconnect();
      await ended;
    }
    this.#connection.reset();
  }

  /** The connection the scripts run on (the `client` you passed in, or the store's own). */
  get redis(): RedisClient {
    return this.#connection.redis;
  }

  /** The key prefix this store was made with. */
  get prefix(): string {
    return this.#prefix;
  }

  /** The egress IP group this store counts invalid requests (and calls without a token) for. */
  get ipGroup(): string {
    return this.#ipGroup;
  }

  /** Round trips made, for measurement. */
  get roundTrips(): number {
    return this.#connection.roundTrips;
  }
}

/** Names a connection handed over, for errors: a Cluster, a master through Sentinel, or one node. */
function describeClient(client: RedisClient): string {
  if (client.isCluster) return 'the given Redis Cluster';
  const name = (client.options as { sentinels?: unknown; name?: unknown }).sentinels
    ? (client.options as { name?: unknown }).name
    : undefined;
  return typeof name === 'string'
    ? `the given Redis connection (Sentinel master "${name}")`
    : 'the given Redis connection';
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
