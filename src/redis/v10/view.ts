/**
 * One token's v10 state in Redis (`scripts.ts`): hashes, buckets, holds, the global lock and pace
 * shared by every process on the token, in the token's slot; the invalid-request log shared by
 * every token of the egress IP group, in the group's. Each method is one round trip: one script,
 * or two sent together on the two slots (an admission and the guard; an invalid answer's settle
 * and its note). Only a grant the guard refuses takes a second, to give the place back.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Admission, BucketSnapshot, SettleResult, StoreEvent, StoreView } from '../../contracts/store.ts';
import { answerAgeMs } from '../../dialects/v10/pace.ts';
import { NO_BUCKET_REF, type V10Bucket } from '../../dialects/v10/route.ts';
import type { V10Update } from '../../dialects/v10/rules.ts';
import type { V10Reservation as Reservation, V10Settings } from '../../dialects/v10/settings.ts';
import { InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from '../../dialects/v10/errors.ts';
import { ChannelListeners } from '../channel.ts';
import { runScript, type RedisRun, type ScriptDefinition } from '../connection.ts';
import { nowArgument, type RedisViewContext } from '../context.ts';
import { StoreDataError } from '../errors.ts';
import { lockGlobal } from '../global-lock.ts';
import { GUARD_V10, NOTE_INVALID_V10 } from './invalid-log-scripts.ts';
import { ADMIT_V10, READ_V10, RELEASE_V10, SETTLE_V10 } from './scripts.ts';

/** The v10 scripts, as ioredis commands: the token's take its routes hash as their key; the guard's, the group's log. */
export const V10_SCRIPTS: Readonly<Record<string, ScriptDefinition>> = {
  tollgateAdmitV10: { numberOfKeys: 1, lua: ADMIT_V10 },
  tollgateSettleV10: { numberOfKeys: 1, lua: SETTLE_V10 },
  tollgateReleaseV10: { numberOfKeys: 1, lua: RELEASE_V10 },
  tollgateReadV10: { numberOfKeys: 1, lua: READ_V10 },
  tollgateNoteInvalidV10: { numberOfKeys: 1, lua: NOTE_INVALID_V10 },
  tollgateGuardV10: { numberOfKeys: 1, lua: GUARD_V10 },
};

type TokenScript = 'tollgateAdmitV10' | 'tollgateSettleV10' | 'tollgateReleaseV10' | 'tollgateReadV10';
type GroupScript = 'tollgateNoteInvalidV10' | 'tollgateGuardV10';

type Reply = (string | number)[];
/** The guard script's: the group's count, and while at the guard, the ms until it falls below. */
type GuardReply = [count: number, ms: number];

const text = (value: number | undefined) => (value === undefined ? '' : String(value));
const flag = (value: boolean | undefined) => (value ? '1' : '0');

export class RedisV10View implements StoreView<V10Bucket, V10Update> {
  readonly #context: RedisViewContext;
  readonly #namespace: string;
  readonly #routes: string;
  readonly #invalid: string;
  readonly #global: string;
  readonly #channel: string;
  readonly #clock: Clock;
  readonly #settings: V10Settings;
  readonly #listeners: ChannelListeners;

  /** `namespace`: the token's v10 keys (`../keys.ts`); `invalidLog`: the IP group's log. */
  constructor(context: RedisViewContext, namespace: string, invalidLog: string, clock: Clock, settings: V10Settings) {
    this.#context = context;
    this.#namespace = namespace;
    this.#routes = `${this.#namespace}:routes`;
    this.#invalid = invalidLog;
    this.#global = `${this.#namespace}:global`;
    this.#channel = `${this.#namespace}:events`;
    this.#listeners = new ChannelListeners(context.pubsub, this.#channel);
    this.#clock = clock;
    this.#settings = settings;
  }

  /** One script in the token's slot: the routes hash its key, the clock last (see scripts.ts). */
  #tokenScript<T>(name: TokenScript, ...args: string[]): RedisRun<T> {
    return this.#scriptOn<T>(name, this.#routes, args);
  }

  /** One script on the group's invalid-request log. */
  #groupScript<T>(name: GroupScript, ...args: string[]): RedisRun<T> {
    return this.#scriptOn<T>(name, this.#invalid, args);
  }

  #scriptOn<T>(name: keyof typeof V10_SCRIPTS, key: string, args: string[]): RedisRun<T> {
    return (redis) => runScript(redis, name, key, ...args, nowArgument(this.#context, this.#clock)) as Promise<T>;
  }

  /**
   * The token's decision and the group's guard (V15), sent together: one round trip. A place the
   * token granted while the guard refuses is given back (a second round trip, only then).
   */
  async admit(target: V10Bucket | null): Promise<Admission> {
    const routed = target ?? NO_BUCKET_REF;
    const { bucketKey, route, resource, exempt } = routed;
    const limit = this.#settings.invalidRequestLimit;
    const [decided, guarded] = await this.#context.connection.callTogether(
      this.#tokenScript<Reply>(
        'tollgateAdmitV10',
        this.#namespace,
        bucketKey,
        route,
        resource,
        flag(exempt),
        String(this.#context.leaseMs),
        randomUUID(),
        String(this.#settings.globalLimit),
        String(this.#settings.resetMarginMs),
        String(this.#settings.globalMarginMs),
      ),
      this.#groupScript<GuardReply>('tollgateGuardV10', String(limit)),
    );
    if (decided.status === 'rejected') throw decided.reason;
    const admission = parseAdmission(decided.value, resource);
    if (admission.kind === 'refuse') return admission;
    if (guarded.status === 'fulfilled' && Number(guarded.value[0]) < limit) return admission;
    // Best effort: a place not given back is freed when its lease ends.
    if (admission.kind === 'grant') await this.giveBack(routed, admission.reservation).catch(() => {});
    if (guarded.status === 'rejected') throw guarded.reason;
    const [count, ms] = guarded.value;
    return { kind: 'refuse', error: new InvalidRequestGuardError(Number(count), limit, Number(ms)) };
  }

  async settle(target: V10Bucket, reservation: Reservation, update: V10Update): Promise<SettleResult> {
    const age = target.exempt ? 0 : answerAgeMs(this.#clock.now(), reservation.answeredAt);
    const settle = this.#tokenScript(
      'tollgateSettleV10',
      ...this.#reservationArgs(target, reservation),
      text(update.limit),
      text(update.remaining),
      text(update.windowLeftMs),
      update.hash ?? '',
      text(update.holdBucketMs),
      text(update.holdRouteMs),
      flag(update.tokenInvalid),
      flag(update.gone),
      this.#channel,
      text(update.resetMs),
      flag(update.limitsUnknown),
      String(age),
    );
    const { connection } = this.#context;
    if (!update.invalid) return connection.call(settle).then(() => ({}));
    // An invalid answer is noted in the group's log beside the settle: still one round trip.
    const [settled, noted] = await connection.callTogether(settle, this.#noteInvalid());
    if (settled.status === 'rejected') throw settled.reason;
    if (noted.status === 'rejected') throw noted.reason;
    return { invalidRequests: Number(noted.value) };
  }

  release(target: V10Bucket, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(target, reservation, false);
  }

  giveBack(target: V10Bucket, reservation: Reservation): Promise<void> {
    return this.#releaseOrGiveBack(target, reservation, true);
  }

  async #releaseOrGiveBack(target: V10Bucket, reservation: Reservation, never: boolean): Promise<void> {
    await this.#context.connection.call(
      this.#tokenScript(
        'tollgateReleaseV10',
        ...this.#reservationArgs(target, reservation),
        flag(never),
        flag(reservation.counted),
        String(reservation.reset),
        this.#channel,
      ),
    );
  }

  /** The arguments settle and release open with: whose reservation, on which bucket (scripts.ts). */
  #reservationArgs(target: V10Bucket, reservation: Reservation): string[] {
    const { bucketKey, route, resource } = target;
    return [this.#namespace, bucketKey, route, resource, reservation.id ?? '', reservation.bucket ?? ''];
  }

  /** V12: the token's global lock; the one lock script, on the token's key. */
  async lockGlobal(ms: number): Promise<void> {
    await lockGlobal(this.#context, this.#clock, this.#global, this.#channel, ms);
  }

  #noteInvalid(): RedisRun<number> {
    return this.#groupScript<number>('tollgateNoteInvalidV10', randomUUID());
  }

  async noteInvalid(): Promise<SettleResult> {
    return { invalidRequests: Number(await this.#context.connection.call(this.#noteInvalid())) };
  }

  async invalidRequests(): Promise<number> {
    const limit = String(this.#settings.invalidRequestLimit);
    const [count] = await this.#context.connection.call(this.#groupScript<GuardReply>('tollgateGuardV10', limit));
    return Number(count);
  }

  async get(target: V10Bucket): Promise<BucketSnapshot | undefined> {
    const reply = await this.#context.connection.call(
      this.#tokenScript<[string, string, string, string] | null>(
        'tollgateReadV10',
        this.#namespace,
        target.bucketKey,
        target.route,
        target.resource,
      ),
    );
    if (reply === null) return undefined;
    const [limit, remaining, end, hash] = reply;
    return {
      limit: Number(limit),
      remaining: Number(remaining),
      reset: Number(end) / 1000,
      ...(hash !== '' && { hash }),
    };
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

function parseAdmission(reply: Reply, resource: string): Admission {
  const [kind, a, b, c, d] = reply;
  switch (kind) {
    case 'global':
      return { kind: 'global', ms: Number(a) };
    case 'pace':
      return { kind: 'global', ms: Number(a), pace: true };
    case 'grant': {
      const reservation: Reservation = { counted: Number(a) === 1, reset: Number(b), id: String(c), bucket: String(d) };
      return { kind: 'grant', reservation };
    }
    case 'sleep':
      return { kind: 'sleep', ms: Number(a), reset: Number(b) };
    case 'await':
      return { kind: 'await-response', retryMs: Number(a) };
    case 'refuse':
      if (a === 'token') return { kind: 'refuse', error: new TokenInvalidError() };
      if (a === 'gone') return { kind: 'refuse', error: new WebhookGoneError(resource) };
      throw unexpected(reply);
    default:
      throw unexpected(reply);
  }
}

const unexpected = (reply: Reply) =>
  new StoreDataError(`unexpected reply from the v10 admit script: ${JSON.stringify(reply).slice(0, 100)}`);
