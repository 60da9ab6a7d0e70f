/**
 * Pub/sub between the processes of a token: a settle or release publishes `b:<bucket key>`, a
 * global lock `g:<ms>`; every view listening on the token's channel hears it and wakes its
 * waiting calls. One subscriber connection per store, a duplicate of the store's: on a Cluster a
 * Cluster of its own, whose subscriber sits on one node (a PUBLISH reaches every node of a
 * cluster), and on Sentinel the master's. After a reconnect the subscriptions are restored: on a
 * Cluster by ioredis (on another node when its node goes), on one node or Sentinel by the
 * subscriber itself (ioredis's own resubscription there leaves its promise unhandled: a store
 * closed before the SUBSCRIBE is answered would end the user's process on that rejection).
 */
import type { Cluster, Redis } from 'ioredis';
import type { StoreEvent } from '../contracts/store.ts';
import type { RedisClient } from './connection.ts';

type Listener = (event: StoreEvent) => void;

export class PubSub {
  readonly #listeners = new Map<string, Set<Listener>>();
  #subscriber: RedisClient | undefined;
  /** Moves on at each close(), so that an open() still under way then does not keep its subscriber. */
  #generation = 0;

  /**
   * Opens the subscriber (once) beside `redis`, and subscribes every channel listened to so far;
   * gives up (closing it) after `timeoutMs`.
   */
  async open(redis: RedisClient, timeoutMs: number): Promise<void> {
    if (this.#subscriber) return;
    const generation = this.#generation;
    // A Cluster's duplicate() takes other startup nodes first, then options.
    const subscriber: RedisClient = redis.isCluster
      ? (redis as Cluster).duplicate([], { lazyConnect: true, enableOfflineQueue: true })
      : (redis as Redis).duplicate({
          enableOfflineQueue: true,
          maxRetriesPerRequest: null,
          lazyConnect: true,
          autoResubscribe: false,
        });
    subscriber.on('error', () => {});
    if (!redis.isCluster) subscriber.on('ready', () => this.#resubscribe(subscriber));
    subscriber.on('message', (channel: string, message: string) => this.#dispatch(channel, message));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('subscriber connection timed out'), { code: 'ETIMEDOUT' })),
        timeoutMs,
      );
    });
    try {
      await Promise.race([subscriber.connect(), late]);
      if (generation !== this.#generation || this.#subscriber) {
        // Closed meanwhile, or opened by a call that finished first.
        subscriber.disconnect();
        return;
      }
      this.#subscriber = subscriber;
      // Channels listened to from now on subscribe themselves (listen); these came before.
      const channels = [...this.#listeners.keys()];
      if (channels.length > 0) await Promise.race([subscriber.subscribe(...channels), late]);
    } catch (error) {
      if (this.#subscriber === subscriber) this.#subscriber = undefined;
      subscriber.disconnect();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** After a reconnect (the first connect's channels are subscribed by open), every channel listened to. */
  #resubscribe(subscriber: RedisClient): void {
    if (this.#subscriber !== subscriber) return;
    const channels = [...this.#listeners.keys()];
    if (channels.length > 0) subscriber.subscribe(...channels).catch(() => {});
  }

  close(): void {
    this.#generation += 1;
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
  }

  async listen(channel: string, listener: Listener): Promise<void> {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      if (this.#subscriber) await this.#subscriber.subscribe(channel);
    }
    set.add(listener);
  }

  unlisten(channel: string, listener: Listener): void {
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

/** A view's listeners on its token's channel: subscribed on the store, all dropped on close. */
export class ChannelListeners {
  readonly #pubsub: PubSub;
  readonly #channel: string;
  readonly #listeners = new Set<Listener>();

  constructor(pubsub: PubSub, channel: string) {
    this.#pubsub = pubsub;
    this.#channel = channel;
  }

  add(listener: Listener): () => void {
    this.#listeners.add(listener);
    void this.#pubsub.listen(this.#channel, listener).catch(() => {});
    return () => {
      this.#listeners.delete(listener);
      this.#pubsub.unlisten(this.#channel, listener);
    };
  }

  clear(): void {
    for (const listener of this.#listeners) this.#pubsub.unlisten(this.#channel, listener);
    this.#listeners.clear();
  }
}
