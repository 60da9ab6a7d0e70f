/**
 * Pub/sub between the processes of a token: a settle or release publishes `b:<bucket key>`, a
 * global lock `g:<ms>`; every view listening on the token's channel hears it and wakes its
 * waiting calls. One subscriber connection per store; ioredis restores its subscriptions after a
 * reconnect.
 */
import type { Redis } from 'ioredis';
import type { StoreEvent } from '../contracts/store.ts';

type Listener = (event: StoreEvent) => void;

export class PubSub {
  readonly #listeners = new Map<string, Set<Listener>>();
  #subscriber: Redis | undefined;

  /** Opens the subscriber (once) beside `redis`, and subscribes every channel listened to so far. */
  async open(redis: Redis): Promise<void> {
    if (this.#subscriber) return;
    const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: true });
    subscriber.on('error', () => {});
    subscriber.on('message', (channel: string, message: string) => this.#dispatch(channel, message));
    await subscriber.connect();
    this.#subscriber = subscriber;
    for (const channel of this.#listeners.keys()) await subscriber.subscribe(channel);
  }

  close(): void {
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
