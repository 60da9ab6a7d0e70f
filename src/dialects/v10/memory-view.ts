/**
 * One token's v10 state in process memory: the learned route → hash map (V4, V7), buckets per
 * (hash, resource) (rule V6), route holds (V10), the global lock and pace (V12, V13), the token's
 * validity (V16) and retired webhooks (V19). The invalid-request log (V15) belongs to the whole
 * store (every token of the process), and is passed in.
 */
import type { Clock } from '../../clock.ts';
import type { Admission, BucketSnapshot, SettleResult, StoreView } from '../../contracts/store.ts';
import { SHED_INTERVAL_MS } from '../../contracts/store.ts';
import { InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from './errors.ts';
import { answerAgeMs, GlobalPace, type InvalidRequestLog } from './pace.ts';
import {
  giveBackV10,
  isIdleV10,
  newV10BucketState,
  releaseV10,
  reserveV10,
  settleV10,
  type V10BucketState,
} from './policy.ts';
import { joinKey, NO_BUCKET_REF, type V10Bucket } from './route.ts';
import type { V10Update } from './rules.ts';
import type { V10Reservation as Reservation, V10Settings } from './settings.ts';

/** A bucket as `buckets.get` shows it: `reset` in seconds on the store's clock, `bucket` the hash. */
export type V10BucketRecord = BucketSnapshot;

export class MemoryV10View implements StoreView<V10Bucket, V10Update> {
  readonly #clock: Clock;
  readonly #settings: V10Settings;
  readonly #invalid: InvalidRequestLog;
  readonly #routes = new Map<string, string>();
  readonly #buckets = new Map<string, V10BucketState>();
  readonly #routeHolds = new Map<string, number>();
  readonly #gone = new Set<string>();
  /** First requests of routes whose hash is unknown, in flight, per resource. */
  readonly #firstContacts = new Map<string, number>();
  readonly #pace: GlobalPace;
  #globalUntil = 0;
  #tokenInvalid = false;
  /** Names paced reservations (V13) for their answer. */
  #nextPaceId = 0;
  #nextShedAt: number;

  constructor(clock: Clock, settings: V10Settings, invalid: InvalidRequestLog) {
    this.#clock = clock;
    this.#settings = settings;
    this.#invalid = invalid;
    this.#pace = new GlobalPace(settings.globalLimit, settings.globalMarginMs);
    this.#nextShedAt = clock.now() + SHED_INTERVAL_MS;
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** The bucket a route counts in now: its hash and resource once learned, else its local key. */
  #effective({ route, resource, bucketKey }: V10Bucket): string {
    const hash = this.#routes.get(route);
    return hash === undefined ? bucketKey : joinKey(hash, resource);
  }

  #state(effective: string): V10BucketState {
    let state = this.#buckets.get(effective);
    if (!state) {
      state = newV10BucketState();
      this.#buckets.set(effective, state);
    }
    return state;
  }

  /**
   * The token's decision, then the guard (V15): the Redis view reads the guard beside the
   * decision, in the IP group's slot, so a place granted while the guard refuses is given back.
   */
  admit(target: V10Bucket | null): Admission {
    const now = this.#clock.now();
    if (now >= this.#nextShedAt) this.#shed(now);
    const routed = target ?? NO_BUCKET_REF;
    const admission = this.#decide(routed, now);
    if (admission.kind === 'refuse') return admission;
    const invalid = this.#invalid.count(now);
    const guard = this.#settings.invalidRequestLimit;
    if (invalid < guard) return admission;
    if (admission.kind === 'grant') this.giveBack(routed, admission.reservation);
    return {
      kind: 'refuse',
      error: new InvalidRequestGuardError(invalid, guard, this.#invalid.msUntilBelow(guard, now)),
    };
  }

  #decide(target: V10Bucket, now: number): Admission {
    const { bucketKey: key, resource, exempt } = target;
    if (!exempt && this.#tokenInvalid) return { kind: 'refuse', error: new TokenInvalidError() };
    if (this.#gone.has(resource)) return { kind: 'refuse', error: new WebhookGoneError(resource) };
    if (!exempt) {
      if (now < this.#globalUntil) return { kind: 'global', ms: this.#globalUntil - now };
      const pace = this.#pace.waitMs(now);
      if (pace > 0) return { kind: 'global', ms: pace, pace: true };
    }
    const routeHold = this.#routeHolds.get(key) ?? 0;
    if (routeHold > now) return { kind: 'sleep', ms: routeHold - now, reset: 0 };
    const effective = this.#effective(target);
    const decision = reserveV10(
      this.#state(effective),
      now,
      this.#settings.resetMarginMs,
      this.#firstContacts.get(resource) ?? 0,
    );
    if (decision.kind !== 'grant') return decision;
    let id: string | undefined;
    if (!exempt) {
      id = String(++this.#nextPaceId);
      this.#pace.record(id);
    }
    const firstContact = decision.reservation.firstContact === true && effective === key;
    if (firstContact) this.#firstContacts.set(resource, (this.#firstContacts.get(resource) ?? 0) + 1);
    const reservation: Reservation = {
      ...decision.reservation,
      firstContact,
      bucket: effective,
      ...(id !== undefined && { id }),
    };
    return { kind: 'grant', reservation };
  }

  #endFirstContact({ resource }: V10Bucket, reservation: Reservation): void {
    if (!reservation.firstContact) return;
    const left = (this.#firstContacts.get(resource) ?? 1) - 1;
    if (left > 0) this.#firstContacts.set(resource, left);
    else this.#firstContacts.delete(resource);
  }

  settle(target: V10Bucket, reservation: Reservation, update: V10Update): SettleResult {
    const now = this.#clock.now();
    const { route, resource, bucketKey } = target;
    if (update.tokenInvalid) this.#tokenInvalid = true;
    // V19 retires a webhook: a call without a resource names none.
    if (update.gone && resource !== '') this.#gone.add(resource);
    if (update.holdRouteMs !== undefined) {
      this.#routeHolds.set(bucketKey, Math.max(this.#routeHolds.get(bucketKey) ?? 0, now + update.holdRouteMs));
    }
    this.#endFirstContact(target, reservation);
    if (reservation.id !== undefined) {
      this.#pace.answered(reservation.id, now, answerAgeMs(now, reservation.answeredAt));
    }
    const source = reservation.bucket ?? this.#effective(target);
    // V7: a new hash remaps the route; the reservation moves to the bucket it names.
    if (update.hash !== undefined) this.#routes.set(route, update.hash);
    const counted = this.#effective(target);
    if (source !== counted) {
      releaseV10(this.#state(source));
      this.#state(counted).inFlight += 1;
    }
    settleV10(this.#state(counted), update, now);
    return update.invalid ? this.noteInvalid() : {};
  }

  release(target: V10Bucket, reservation: Reservation): void {
    this.#endFirstContact(target, reservation);
    // No answer: it may have arrived as late as now.
    if (reservation.id !== undefined) this.#pace.answered(reservation.id, this.#clock.now(), 0);
    releaseV10(this.#state(reservation.bucket ?? this.#effective(target)));
  }

  giveBack(target: V10Bucket, reservation: Reservation): void {
    this.#endFirstContact(target, reservation);
    if (reservation.id !== undefined) this.#pace.forget(reservation.id);
    giveBackV10(this.#state(reservation.bucket ?? this.#effective(target)), reservation);
  }

  lockGlobal(ms: number): void {
    this.#globalUntil = Math.max(this.#globalUntil, this.#clock.now() + ms);
  }

  noteInvalid(): SettleResult {
    const now = this.#clock.now();
    this.#invalid.add(now);
    return { invalidRequests: this.#invalid.count(now) };
  }

  invalidRequests(): number {
    return this.#invalid.count(this.#clock.now());
  }

  get(target: V10Bucket): V10BucketRecord | undefined {
    const record = this.#buckets.get(this.#effective(target))?.record;
    if (!record) return undefined;
    const hash = this.#routes.get(target.route);
    return {
      limit: record.limit,
      remaining: record.remaining,
      reset: record.windowEnd / 1000,
      ...(hash !== undefined && { hash }),
    };
  }

  subscribe(): () => void {
    return () => {};
  }

  async close(): Promise<void> {}

  idle(now: number): boolean {
    if (now < this.#globalUntil || this.#firstContacts.size > 0 || !this.#pace.idle(now)) return false;
    for (const until of this.#routeHolds.values()) if (until > now) return false;
    for (const state of this.#buckets.values()) if (!isIdleV10(state, now, this.#settings.resetMarginMs)) return false;
    return true;
  }

  #shed(now: number): void {
    this.#nextShedAt = now + SHED_INTERVAL_MS;
    for (const [key, state] of this.#buckets) {
      if (isIdleV10(state, now, this.#settings.resetMarginMs)) this.#buckets.delete(key);
    }
    for (const [key, until] of this.#routeHolds) if (until <= now) this.#routeHolds.delete(key);
  }
}
