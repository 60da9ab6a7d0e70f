/**
 * Inside a token's Durable Object: every call of every Worker and isolate on that token is
 * decided here, one at a time, by the dialect's own memory view (the same code `MemoryStore`
 * runs, not a copy). What the memory store never needs, since its callers live in its process:
 *
 * - leases: a caller that dies with a reservation (its isolate evicted mid-request) never gives
 *   its place back, so each place granted carries a lease, released when it runs out;
 * - a held await: while a bucket waits for an answer in flight (`await-response`), the admit is
 *   held here until a settle, release or give-back changes something, or `holdMs` passes, and
 *   then answers "ask again now": callers in other isolates are woken without polling.
 *
 * No `cloudflare:` import, so it runs (and is tested) anywhere; `limits-object.ts` is the shell.
 */
import type { Clock } from '../clock.ts';
import type { Reservation, StoreView } from '../contracts/store.ts';
import { DIALECTS, type ApiVersion } from '../dialects/index.ts';
import {
  refusalOf,
  type LimitsAnswers,
  type LimitsCall,
  type LimitsMethod,
  type WireAdmission,
  type WireReservation,
} from './protocol.ts';
import { newStoreSlots } from '../stores/slots.ts';

/** How long an admit that must await an answer is held before it is told to ask again. */
export const DEFAULT_HOLD_MS = 1000;

export interface LimitsHostOptions {
  /** The clock of a dialect's decisions. Default: the dialect's own (v10 monotonic, v6 wall time). */
  readonly clockOf?: (api: ApiVersion) => Clock;
  /** See `DEFAULT_HOLD_MS`; 0 answers at once. */
  readonly holdMs?: number;
}

interface Lease {
  readonly view: StoreView;
  readonly call: Extract<LimitsCall, { method: 'admit' }>;
  readonly reservation: Reservation;
  readonly endsAt: number;
  readonly clock: Clock;
}

const isApi = (api: string): api is ApiVersion => Object.hasOwn(DIALECTS, api);

export class LimitsHost {
  readonly #clockOf: (api: ApiVersion) => Clock;
  readonly #holdMs: number;
  /** One view per dialect: the first call of a dialect sets its settings, as in `MemoryStore`. */
  readonly #views = new Map<string, { view: StoreView; clock: Clock }>();
  readonly #slot = newStoreSlots();
  readonly #leases = new Map<string, Lease>();
  #nextLease = 0;
  /** Held admits, woken by the next change. */
  #held: (() => void)[] = [];

  constructor(options: LimitsHostOptions = {}) {
    this.#clockOf = options.clockOf ?? ((api) => DIALECTS[api].defaultClock);
    this.#holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
  }

  /** Reservations in flight, leased to callers. */
  get leases(): number {
    return this.#leases.size;
  }

  async decide<M extends LimitsMethod>(call: LimitsCall & { method: M }): Promise<LimitsAnswers[M]> {
    return (await this.#decide(call)) as LimitsAnswers[M];
  }

  async #decide(call: LimitsCall): Promise<LimitsAnswers[LimitsMethod]> {
    const { view, clock } = this.#viewOf(call);
    this.#expireLeases();
    switch (call.method) {
      case 'admit':
        return this.#admit(view, clock, call);
      case 'settle': {
        if (!this.#endLease(call.reservation)) return undefined;
        const result = await view.settle(call.bucket, this.#answered(call.reservation, clock), call.update);
        this.#wake();
        return result;
      }
      case 'release':
      case 'giveBack':
        if (!this.#endLease(call.reservation)) return undefined;
        await view[call.method](call.bucket, this.#answered(call.reservation, clock));
        this.#wake();
        return undefined;
      case 'markSleptPast':
        await view.markSleptPast?.(call.bucket, call.reset);
        return undefined;
      case 'lockGlobal':
        await view.lockGlobal(call.ms);
        return undefined;
      case 'noteInvalid':
        return (await view.noteInvalid?.()) ?? {};
      case 'invalidRequests':
        return (await view.invalidRequests?.()) ?? 0;
      case 'get':
        return view.get(call.bucket);
      default:
        throw new TypeError(`TollgateLimits: no method ${JSON.stringify((call as { method: unknown }).method)}`);
    }
  }

  #viewOf(call: LimitsCall): { view: StoreView; clock: Clock } {
    const { api } = call;
    let entry = this.#views.get(api);
    if (!entry) {
      if (!isApi(api)) throw new TypeError(`TollgateLimits: no dialect ${JSON.stringify(api)}`);
      const clock = this.#clockOf(api);
      const request = DIALECTS[api].viewRequest(call.settings);
      entry = { view: request.memoryView(clock, this.#slot) as StoreView, clock };
      this.#views.set(api, entry);
    }
    return entry;
  }

  async #admit(view: StoreView, clock: Clock, call: Extract<LimitsCall, { method: 'admit' }>): Promise<WireAdmission> {
    const admission = await view.admit(call.bucket);
    switch (admission.kind) {
      case 'refuse':
        return { kind: 'refuse', refusal: refusalOf(admission.error, DIALECTS[call.api as ApiVersion].refusals) };
      case 'grant': {
        // A call without a bucket is never settled: it holds no place to lease.
        if (call.bucket === null) return admission;
        const lease = String(++this.#nextLease);
        const { reservation } = admission;
        this.#leases.set(lease, { view, call, reservation, endsAt: clock.now() + call.leaseMs, clock });
        return { kind: 'grant', reservation: { ...reservation, lease } };
      }
      case 'await-response':
        await this.#hold(clock);
        return { kind: 'await-response', retryMs: 0 };
      default:
        return admission;
    }
  }

  /** Until the next change, the next lease to run out, or `holdMs`. */
  async #hold(clock: Clock): Promise<void> {
    const now = clock.now();
    let ms = this.#holdMs;
    for (const lease of this.#leases.values()) ms = Math.min(ms, Math.max(0, lease.endsAt - now));
    if (ms <= 0) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        cancel();
        this.#held = this.#held.filter((other) => other !== done);
        resolve();
      };
      const cancel = clock.setTimeout(done, ms);
      this.#held.push(done);
    });
  }

  #wake(): void {
    for (const done of [...this.#held]) done();
  }

  /** False when the lease already ran out: its place was released then, and the call comes too late to count. */
  #endLease(reservation: WireReservation): boolean {
    if (reservation.lease === undefined) return true;
    return this.#leases.delete(reservation.lease);
  }

  /** The reservation as the view handed it out, its answer placed on this object's clock. */
  #answered(wire: WireReservation, clock: Clock): Reservation {
    const { answerAgeMs, ...reservation } = wire;
    // The lease stays on it: the view reads only its own fields.
    return answerAgeMs === undefined ? reservation : { ...reservation, answeredAt: clock.now() - answerAgeMs };
  }

  #expireLeases(): void {
    let released = false;
    for (const [id, lease] of this.#leases) {
      if (lease.endsAt > lease.clock.now()) continue;
      this.#leases.delete(id);
      if (lease.call.bucket !== null) void lease.view.release(lease.call.bucket, lease.reservation);
      released = true;
    }
    if (released) this.#wake();
  }
}
