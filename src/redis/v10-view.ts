/**
 * One token's v10 state in Redis (`v10-scripts.ts`): hashes, buckets, holds, the global lock and
 * pace shared by every process on the token; the invalid-request log shared by every token of
 * the store. One script, one round trip, per decision.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from '../errors.ts';
import type { Reservation } from '../limiter/reservations.ts';
import type { Admission, BucketStore, SettleResult, StoreEvent, V10Settings } from '../limiter/store.ts';
import { InvalidRequestLog } from '../limiter/v10/buckets.ts';
import { MemoryV10View, type V10BucketRecord } from '../limiter/v10/memory-view.ts';
import type { V10Update } from '../limiter/v10/rules.ts';
import { isExemptRoute, splitBucketKey } from '../routing/v10-route.ts';
import { ChannelListeners, StoreDataError, type RedisStore } from './redis-store.ts';

type Reply = (string | number)[];

export interface V10Scripts {
  tollgateAdmitV10(routes: string, invalid: string, ...args: string[]): Promise<Reply>;
  tollgateSettleV10(routes: string, invalid: string, ...args: string[]): Promise<number>;
  tollgateReleaseV10(routes: string, invalid: string, ...args: string[]): Promise<number>;
  tollgateLockGlobalV10(routes: string, invalid: string, ...args: string[]): Promise<number>;
  tollgateNoteInvalidV10(routes: string, invalid: string, ...args: string[]): Promise<number>;
  tollgateInvalidCountV10(routes: string, invalid: string, ...args: string[]): Promise<number>;
  tollgateReadV10(routes: string, invalid: string, ...args: string[]): Promise<[string, string, string, string] | null>;
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));
const flag = (value: boolean | undefined) => (value ? '1' : '0');

export class RedisV10View implements BucketStore<V10Update> {
  readonly #store: RedisStore;
  readonly #redis: V10Scripts;
  readonly #namespace: string;
  readonly #routes: string;
  readonly #invalid: string;
  readonly #channel: string;
  readonly #clock: Clock;
  readonly #settings: V10Settings;
  readonly #local: MemoryV10View;
  readonly #listeners: ChannelListeners;

  constructor(
    store: RedisStore,
    redis: V10Scripts,
    prefix: string,
    tokenHash: string,
    clock: Clock,
    settings: V10Settings,
  ) {
    this.#store = store;
    this.#redis = redis;
    this.#namespace = `{${prefix}}:v10:${tokenHash}`;
    this.#routes = `${this.#namespace}:routes`;
    this.#invalid = `{${prefix}}:v10:invalid`;
    this.#channel = `${this.#namespace}:events`;
    this.#listeners = new ChannelListeners(store, this.#channel);
    this.#clock = clock;
    this.#settings = settings;
    this.#local = new MemoryV10View(clock, settings, new InvalidRequestLog());
  }

  #now(): string {
    return this.#store.usesClientTime ? String(Math.floor(this.#clock.now())) : '';
  }

  #run<T>(remote: () => Promise<T>, local: () => T): Promise<T> {
    return this.#store.run(remote, local);
  }

  /** One v10 script: its two keys first, the clock last (see v10-scripts.ts). */
  #script<K extends keyof V10Scripts>(name: K, ...args: string[]): ReturnType<V10Scripts[K]> {
    const run = this.#redis[name] as (...all: string[]) => ReturnType<V10Scripts[K]>;
    return run.call(this.#redis, this.#routes, this.#invalid, ...args, this.#now());
  }

  async admit(bucketKey: string | null): Promise<Admission> {
    const key = bucketKey ?? '- -';
    const { route, resource } = splitBucketKey(key);
    const id = randomUUID();
    return this.#run(
      async () => {
        const reply = await this.#script(
          'tollgateAdmitV10',
          this.#namespace,
          key,
          route,
          resource,
          flag(isExemptRoute(route)),
          String(this.#store.leaseMs),
          id,
          String(this.#settings.globalLimit),
          String(this.#settings.marginMs),
          String(this.#settings.invalidRequestLimit),
          String(this.#settings.globalMarginMs),
        );
        return parseAdmission(reply, resource, this.#settings.invalidRequestLimit);
      },
      () => this.#local.admit(bucketKey),
    );
  }

  markSleptPast(): void {
    // v10 windows end at an instant: the clock alone says when one is over.
  }

  async settle(bucketKey: string, reservation: Reservation, update: V10Update): Promise<SettleResult> {
    const { route, resource } = splitBucketKey(bucketKey);
    return this.#run(
      async () => {
        const count = await this.#script(
          'tollgateSettleV10',
          this.#namespace,
          bucketKey,
          route,
          resource,
          reservation.id ?? '',
          reservation.bucket ?? '',
          text(update.limit),
          text(update.remaining),
          text(update.windowLeftMs),
          update.hash ?? '',
          text(update.holdBucketMs),
          text(update.holdRouteMs),
          flag(update.invalid),
          flag(update.tokenInvalid),
          flag(update.gone),
          this.#channel,
          text(update.resetMs),
        );
        return Number(count) >= 0 ? { invalidRequests: Number(count) } : {};
      },
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
    const { route, resource } = splitBucketKey(bucketKey);
    await this.#run(
      async () => {
        await this.#script(
          'tollgateReleaseV10',
          this.#namespace,
          bucketKey,
          route,
          resource,
          reservation.id ?? '',
          reservation.bucket ?? '',
          flag(never),
          flag(reservation.counted),
          String(reservation.reset),
          this.#channel,
        );
      },
      () => (never ? this.#local.giveBack(bucketKey, reservation) : this.#local.release(bucketKey, reservation)),
    );
  }

  async lockGlobal(ms: number): Promise<void> {
    await this.#run(
      async () => {
        await this.#script('tollgateLockGlobalV10', this.#namespace, String(Math.ceil(ms)), this.#channel);
      },
      () => this.#local.lockGlobal(ms),
    );
  }

  async noteInvalid(): Promise<SettleResult> {
    return this.#run(
      async () => ({
        invalidRequests: Number(await this.#script('tollgateNoteInvalidV10', randomUUID())),
      }),
      () => this.#local.noteInvalid(),
    );
  }

  async invalidRequests(): Promise<number> {
    return this.#run(
      async () => Number(await this.#script('tollgateInvalidCountV10')),
      () => this.#local.invalidRequests(),
    );
  }

  async get(bucketKey: string): Promise<V10BucketRecord | undefined> {
    const { route, resource } = splitBucketKey(bucketKey);
    return this.#run(
      async () => {
        const reply = await this.#script('tollgateReadV10', this.#namespace, bucketKey, route, resource);
        if (reply === null) return undefined;
        const [limit, remaining, end, hash] = reply;
        return {
          limit: Number(limit),
          remaining: Number(remaining),
          reset: Number(end) / 1000,
          ...(hash !== '' && { bucket: hash }),
        };
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

function parseAdmission(reply: Reply, resource: string, guardLimit: number): Admission {
  const [kind, a, b, c, d] = reply;
  switch (kind) {
    case 'global':
      return { kind: 'global', ms: Number(a) };
    case 'pace':
      return { kind: 'global', ms: Number(a), pace: true };
    case 'grant':
      return {
        kind: 'grant',
        reservation: { counted: Number(a) === 1, reset: Number(b), id: String(c), bucket: String(d) },
      };
    case 'sleep':
      return { kind: 'sleep', ms: Number(a), reset: Number(b) };
    case 'await':
      return { kind: 'await-response', retryMs: Number(a) };
    case 'refuse':
      if (a === 'token') return { kind: 'refuse', error: new TokenInvalidError() };
      if (a === 'gone') return { kind: 'refuse', error: new WebhookGoneError(resource) };
      return { kind: 'refuse', error: new InvalidRequestGuardError(Number(b), guardLimit, Number(c)) };
    default:
      throw new StoreDataError(`unexpected reply from the v10 admit script: ${JSON.stringify(reply).slice(0, 100)}`);
  }
}
