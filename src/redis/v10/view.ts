/**
 * One token's v10 state in Redis (`scripts.ts`): hashes, buckets, holds, the global lock and pace
 * shared by every process on the token; the invalid-request log shared by every token of the
 * store. Each method is one script call, one round trip.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type {
  Admission,
  BucketSnapshot,
  Reservation,
  SettleResult,
  StoreEvent,
  StoreView,
  V10Settings,
} from '../../contracts/store.ts';
import { RoundTripFloor } from '../../dialects/v10/pace.ts';
import { NO_ROUTE, type V10Route } from '../../dialects/v10/route.ts';
import type { V10Update } from '../../dialects/v10/rules.ts';
import { InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from '../../errors.ts';
import { ChannelListeners } from '../channel.ts';
import { runScript, type ScriptDefinition } from '../connection.ts';
import { nowArgument, type RedisViewContext } from '../context.ts';
import { StoreDataError } from '../errors.ts';
import { lockGlobal } from '../global-lock.ts';
import { ADMIT_V10, INVALID_COUNT_V10, NOTE_INVALID_V10, READ_V10, RELEASE_V10, SETTLE_V10 } from './scripts.ts';

/** The v10 scripts, as ioredis commands: each takes the routes hash and the invalid-request log as its keys. */
export const V10_SCRIPTS: Readonly<Record<string, ScriptDefinition>> = {
  tollgateAdmitV10: { numberOfKeys: 2, lua: ADMIT_V10 },
  tollgateSettleV10: { numberOfKeys: 2, lua: SETTLE_V10 },
  tollgateReleaseV10: { numberOfKeys: 2, lua: RELEASE_V10 },
  tollgateNoteInvalidV10: { numberOfKeys: 2, lua: NOTE_INVALID_V10 },
  tollgateInvalidCountV10: { numberOfKeys: 2, lua: INVALID_COUNT_V10 },
  tollgateReadV10: { numberOfKeys: 2, lua: READ_V10 },
};

type Reply = (string | number)[];

const text = (value: number | undefined) => (value === undefined ? '' : String(value));
const flag = (value: boolean | undefined) => (value ? '1' : '0');

export class RedisV10View implements StoreView<V10Route, V10Update> {
  readonly #context: RedisViewContext;
  readonly #namespace: string;
  readonly #routes: string;
  readonly #invalid: string;
  readonly #global: string;
  readonly #channel: string;
  readonly #clock: Clock;
  readonly #settings: V10Settings;
  readonly #listeners: ChannelListeners;
  /** This process's round trips: its requests' arrival credit in the token's pace (V13). */
  readonly #roundTrips = new RoundTripFloor();

  constructor(context: RedisViewContext, prefix: string, tokenHash: string, clock: Clock, settings: V10Settings) {
    this.#context = context;
    this.#namespace = `{${prefix}}:v10:${tokenHash}`;
    this.#routes = `${this.#namespace}:routes`;
    this.#invalid = `{${prefix}}:v10:invalid`;
    this.#global = `${this.#namespace}:global`;
    this.#channel = `${this.#namespace}:events`;
    this.#listeners = new ChannelListeners(context.pubsub, this.#channel);
    this.#clock = clock;
    this.#settings = settings;
  }

  /** One v10 script, one round trip: its two keys first, the clock last (see scripts.ts). */
  #script<T>(name: keyof typeof V10_SCRIPTS, ...args: string[]): Promise<T> {
    return this.#context.connection.call(
      (redis) =>
        runScript(
          redis,
          name,
          this.#routes,
          this.#invalid,
          ...args,
          nowArgument(this.#context, this.#clock),
        ) as Promise<T>,
    );
  }

  async admit(target: V10Route | null): Promise<Admission> {
    const { bucketKey, route, resource, exempt } = target ?? NO_ROUTE;
    const reply = await this.#script<Reply>(
      'tollgateAdmitV10',
      this.#namespace,
      bucketKey,
      route,
      resource,
      flag(exempt),
      String(this.#context.leaseMs),
      randomUUID(),
      String(this.#settings.globalLimit),
      String(this.#settings.marginMs),
      String(this.#settings.invalidRequestLimit),
      String(this.#settings.globalMarginMs),
      String(this.#roundTrips.creditMs(this.#clock.now())),
    );
    return parseAdmission(reply, resource, this.#settings.invalidRequestLimit, this.#clock.now());
  }

  async settle(target: V10Route, reservation: Reservation, update: V10Update): Promise<SettleResult> {
    const { grantedAt, answeredAt } = reservation;
    const backdate = target.exempt ? 0 : this.#roundTrips.backdateMs(this.#clock.now(), grantedAt, answeredAt);
    const count = await this.#script<number>(
      'tollgateSettleV10',
      this.#namespace,
      target.bucketKey,
      target.route,
      target.resource,
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
      flag(update.limitsUnknown),
      String(backdate),
    );
    return Number(count) >= 0 ? { invalidRequests: Number(count) } : {};
  }

  release(target: V10Route, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(target, reservation, false);
  }

  giveBack(target: V10Route, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(target, reservation, true);
  }

  async #releaseOrGiveBack(target: V10Route, reservation: Reservation, never: boolean): Promise<void> {
    await this.#script(
      'tollgateReleaseV10',
      this.#namespace,
      target.bucketKey,
      target.route,
      target.resource,
      reservation.id ?? '',
      reservation.bucket ?? '',
      flag(never),
      flag(reservation.counted),
      String(reservation.reset),
      this.#channel,
    );
  }

  /** V12: the token's global lock; the one lock script, on the token's key. */
  async lockGlobal(ms: number): Promise<void> {
    await lockGlobal(this.#context, this.#clock, this.#global, this.#channel, ms);
  }

  async noteInvalid(): Promise<SettleResult> {
    return { invalidRequests: Number(await this.#script('tollgateNoteInvalidV10', randomUUID())) };
  }

  async invalidRequests(): Promise<number> {
    return Number(await this.#script('tollgateInvalidCountV10'));
  }

  async get(target: V10Route): Promise<BucketSnapshot | undefined> {
    const reply = await this.#script<[string, string, string, string] | null>(
      'tollgateReadV10',
      this.#namespace,
      target.bucketKey,
      target.route,
      target.resource,
    );
    if (reply === null) return undefined;
    const [limit, remaining, end, hash] = reply;
    return {
      limit: Number(limit),
      remaining: Number(remaining),
      reset: Number(end) / 1000,
      ...(hash !== '' && { bucket: hash }),
    };
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

function parseAdmission(reply: Reply, resource: string, guardLimit: number, now: number): Admission {
  const [kind, a, b, c, d] = reply;
  switch (kind) {
    case 'global':
      return { kind: 'global', ms: Number(a) };
    case 'pace':
      return { kind: 'global', ms: Number(a), pace: true };
    case 'grant':
      return {
        kind: 'grant',
        reservation: { counted: Number(a) === 1, reset: Number(b), id: String(c), bucket: String(d), grantedAt: now },
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
