/**
 * One token's v6 buckets and global lock in Redis (`scripts.ts`), shared by every process on the
 * token. Each method is one script call, one round trip.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Admission, BucketSnapshot, Reservation, StoreEvent, StoreView } from '../../contracts/store.ts';
import type { V6Update } from '../../dialects/v6/rules.ts';
import type { V6Bucket } from '../../dialects/v6/target.ts';
import { ChannelListeners } from '../channel.ts';
import { nowArgument, type RedisViewContext } from '../context.ts';
import { runScript, type ScriptDefinition } from '../connection.ts';
import { StoreDataError } from '../errors.ts';
import { lockGlobal } from '../global-lock.ts';
import { ADMIT, READ, RELEASE, SETTLE, SLEPT } from './scripts.ts';

/** The v6 scripts, as ioredis commands. */
export const V6_SCRIPTS: Readonly<Record<string, ScriptDefinition>> = {
  tollgateAdmit: { numberOfKeys: 3, lua: ADMIT },
  tollgateSettle: { numberOfKeys: 2, lua: SETTLE },
  tollgateRelease: { numberOfKeys: 2, lua: RELEASE },
  tollgateSlept: { numberOfKeys: 1, lua: SLEPT },
  tollgateRead: { numberOfKeys: 1, lua: READ },
};

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

export class RedisV6View implements StoreView<V6Bucket, V6Update> {
  readonly #context: RedisViewContext;
  readonly #namespace: string;
  readonly #channel: string;
  readonly #global: string;
  readonly #clock: Clock;
  readonly #listeners: ChannelListeners;

  /** `namespace`: the token's keys (`<prefix>:{<token hash>}`). */
  constructor(context: RedisViewContext, namespace: string, clock: Clock) {
    this.#context = context;
    this.#namespace = namespace;
    this.#channel = `${namespace}:events`;
    this.#global = `${namespace}:global`;
    this.#clock = clock;
    this.#listeners = new ChannelListeners(context.pubsub, this.#channel);
  }

  #bucket(bucketKey: string): string {
    return `${this.#namespace}:bucket:${bucketKey}`;
  }
  #leases(bucketKey: string): string {
    return `${this.#namespace}:leases:${bucketKey}`;
  }

  /** One script, one round trip; the clock is always the last argument. */
  #script(name: keyof typeof V6_SCRIPTS, ...args: string[]): Promise<unknown> {
    return this.#context.connection.call((redis) =>
      runScript(redis, name, ...args, nowArgument(this.#context, this.#clock)),
    );
  }

  async admit(bucket: V6Bucket | null): Promise<Admission> {
    const key = bucket?.bucketKey ?? '';
    const reply = await this.#script(
      'tollgateAdmit',
      this.#bucket(key),
      this.#leases(key),
      this.#global,
      String(this.#context.leaseMs),
      randomUUID(),
      bucket === null ? '1' : '0',
    );
    return parseAdmission(reply as unknown[]);
  }

  async markSleptPast(bucket: V6Bucket, reset: number): Promise<void> {
    await this.#script('tollgateSlept', this.#bucket(bucket.bucketKey), String(reset));
  }

  async settle(bucket: V6Bucket, reservation: Reservation, update: V6Update): Promise<undefined> {
    const key = bucket.bucketKey;
    await this.#script(
      'tollgateSettle',
      this.#bucket(key),
      this.#leases(key),
      reservation.id ?? '',
      text(update.limit),
      text(update.remaining),
      text(update.reset),
      this.#channel,
      key,
    );
    return undefined;
  }

  release(bucket: V6Bucket, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(bucket, reservation, false);
  }

  giveBack(bucket: V6Bucket, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(bucket, reservation, true);
  }

  async #releaseOrGiveBack(bucket: V6Bucket, reservation: Reservation, never: boolean): Promise<void> {
    const key = bucket.bucketKey;
    await this.#script(
      'tollgateRelease',
      this.#bucket(key),
      this.#leases(key),
      reservation.id ?? '',
      this.#channel,
      key,
      never ? '1' : '0',
      reservation.counted ? '1' : '0',
      String(reservation.reset),
    );
  }

  async lockGlobal(ms: number): Promise<void> {
    await lockGlobal(this.#context, this.#clock, this.#global, this.#channel, ms);
  }

  async get(bucket: V6Bucket): Promise<BucketSnapshot | undefined> {
    const reply = (await this.#script('tollgateRead', this.#bucket(bucket.bucketKey))) as
      [string, string, string] | null;
    if (reply === null) return undefined;
    return { limit: Number(reply[0]), remaining: Number(reply[1]), reset: Number(reply[2]) };
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  async close(): Promise<void> {
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
