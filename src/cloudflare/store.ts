/**
 * `DurableObjectStore`: one token's limits in one Durable Object (`TollgateLimits`), shared by
 * every Worker and isolate bound to its namespace, the way `RedisStore` shares them between
 * processes. Each view method is one RPC call to the token's object, which decides with the
 * dialect's memory view (`limits-host.ts`). With `onUnavailable: 'local'`, a view decides with
 * its own memory view while the object cannot be reached (`FallbackView`, as Redis's).
 */
import type { Clock } from '../clock.ts';
import {
  DEFAULT_LEASE_MS,
  type Admission,
  type BucketRef,
  type BucketSnapshot,
  type Reservation,
  type SettleResult,
  type Store,
  type StoreView,
  type ViewRequest,
} from '../contracts/store.ts';
import { StoreUnavailableError, TollgateArgumentError } from '../errors.ts';
import { DIALECTS, type ApiVersion } from '../dialects/index.ts';
import { FallbackView } from '../stores/fallback-view.ts';
import {
  errorOf,
  LIMITS_RPC_METHOD,
  type LimitsAnswers,
  type LimitsCall,
  type LimitsMethod,
  type WireReservation,
} from './protocol.ts';
import { newStoreSlots } from '../stores/slots.ts';
import { TokenViews } from '../stores/token-views.ts';

/** The calls a stub of `TollgateLimits` takes. */
export interface LimitsStub {
  /** One store-view call, made over RPC to `TollgateLimits.decide`. */
  decide(call: LimitsCall): Promise<unknown>;
}

/** What tollgate needs of a Durable Object namespace binding (`env.TOLLGATE_LIMITS`). */
export interface LimitsNamespace {
  /** The object's id for a name: the store names one object per token. */
  idFromName(name: string): unknown;
  /** A stub of the object with that id. */
  get(id: never): LimitsStub;
}

/** What `DurableObjectStore` does while the token's object is away, and how it names the objects. */
export interface DurableObjectStoreOptions {
  /**
   * When the token's object cannot be reached: `fail` (default) fails the requests with
   * `StoreUnavailableError`, nothing sent; `local` limits each isolate on its own, conservatively
   * (every bucket starts unknown), until the object answers again.
   */
  readonly onUnavailable?: 'fail' | 'local';
  /** How long a reservation counts as in flight without an answer (ms): then a lost isolate's place comes back. Default 30000. */
  readonly leaseMs?: number;
  /** Names the objects (`<prefix>:<SHA-256 of the token>`): stores with different prefixes share nothing. Default `tollgate`. */
  readonly prefix?: string;
}

const PREFIX = /^[A-Za-z0-9_.:-]{1,64}$/;
/** What workerd answers when the bound class is not `TollgateLimits` (or takes no RPC). */
const NOT_TOLLGATE_LIMITS = /does not implement the method|does not support RPC|not a function/i;

/** The object name of a token: the token never leaves the isolate in clear. */
async function objectName(prefix: string, token: string | undefined): Promise<string> {
  if (token === undefined) return `${prefix}:no-token`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return `${prefix}:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export class DurableObjectStore implements Store {
  readonly #namespace: LimitsNamespace;
  readonly #onUnavailable: 'fail' | 'local';
  readonly #leaseMs: number;
  readonly #prefix: string;
  /** Clients of one token in this isolate share a view (and its fallback). */
  readonly #views = new TokenViews();
  readonly #slot = newStoreSlots();

  constructor(namespace: LimitsNamespace, options: DurableObjectStoreOptions = {}) {
    const candidate = namespace as Partial<LimitsNamespace> | null | undefined;
    if (typeof candidate?.idFromName !== 'function' || typeof candidate.get !== 'function') {
      throw new TollgateArgumentError(
        `DurableObjectStore: the first argument must be a Durable Object namespace binding (env.TOLLGATE_LIMITS), got ${
          candidate === undefined ? 'undefined: is the binding missing or misnamed in wrangler.toml?' : typeof candidate
        }`,
      );
    }
    const { onUnavailable = 'fail', leaseMs = DEFAULT_LEASE_MS, prefix = 'tollgate' } = options;
    if (onUnavailable !== 'fail' && onUnavailable !== 'local') {
      throw new TollgateArgumentError("DurableObjectStore: onUnavailable must be 'fail' or 'local'");
    }
    if (!Number.isInteger(leaseMs) || leaseMs < 100) {
      throw new TollgateArgumentError('DurableObjectStore: leaseMs must be a whole number of ms, at least 100');
    }
    if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
      throw new TollgateArgumentError('DurableObjectStore: prefix must be 1–64 characters of [A-Za-z0-9_.:-]');
    }
    this.#namespace = namespace;
    this.#onUnavailable = onUnavailable;
    this.#leaseMs = leaseMs;
    this.#prefix = prefix;
  }

  view<B extends BucketRef>(request: ViewRequest<B>, token: string | undefined, clock: Clock): StoreView<B> {
    return this.#views.of(request, token, clock, () => {
      const stub = objectName(this.#prefix, token).then((name) =>
        this.#namespace.get(this.#namespace.idFromName(name) as never),
      );
      const local = request.memoryView(clock, this.#slot);
      const remote = new DurableObjectView<B>(stub, request, clock, this.#leaseMs, local);
      return this.#onUnavailable === 'local' ? new FallbackView(remote, local) : remote;
    });
  }
}

/** A (dialect, token) view whose every decision is one call to the token's object. */
class DurableObjectView<B extends BucketRef> implements StoreView<B> {
  readonly #stub: Promise<LimitsStub>;
  readonly #api: string;
  readonly #settings: unknown;
  readonly #clock: Clock;
  readonly #leaseMs: number;
  /** Whether the dialect's view keeps windows that end when slept past (v6). */
  readonly #sleptPast: boolean;

  constructor(stub: Promise<LimitsStub>, request: ViewRequest<B>, clock: Clock, leaseMs: number, local: StoreView<B>) {
    this.#stub = stub;
    this.#api = request.api;
    this.#settings = request.settings;
    this.#clock = clock;
    this.#leaseMs = leaseMs;
    this.#sleptPast = typeof local.markSleptPast === 'function';
  }

  async #call<M extends LimitsMethod>(call: LimitsCall & { method: M }): Promise<LimitsAnswers[M]> {
    let stub: LimitsStub;
    try {
      stub = await this.#stub;
      return (await stub[LIMITS_RPC_METHOD](call)) as LimitsAnswers[M];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (NOT_TOLLGATE_LIMITS.test(message)) {
        throw new TollgateArgumentError(
          `DurableObjectStore: the namespace is bound to a class that is not tollgate's TollgateLimits (${message}); ` +
            'export { TollgateLimits } from \'tollgate/cloudflare\' in the Worker and bind it with class_name = "TollgateLimits"',
        );
      }
      throw new StoreUnavailableError(`DurableObjectStore: the token's limits object cannot be reached: ${message}`, {
        cause: error,
      });
    }
  }

  #base(): { api: string; settings: unknown } {
    return { api: this.#api, settings: this.#settings };
  }

  /** The reservation to send back: its answer as an age, since the object's clock is not this isolate's. */
  #wire({ answeredAt, ...reservation }: Reservation): WireReservation {
    return answeredAt === undefined
      ? reservation
      : { ...reservation, answerAgeMs: Math.max(0, this.#clock.now() - answeredAt) };
  }

  async admit(bucket: B | null): Promise<Admission> {
    const admission = await this.#call({ ...this.#base(), method: 'admit', bucket, leaseMs: this.#leaseMs });
    if (admission.kind !== 'refuse') return admission;
    return { kind: 'refuse', error: errorOf(admission.refusal, DIALECTS[this.#api as ApiVersion]?.refusals) };
  }

  async markSleptPast(bucket: B, reset: number): Promise<void> {
    if (this.#sleptPast) await this.#call({ ...this.#base(), method: 'markSleptPast', bucket, reset });
  }

  settle(bucket: B, reservation: Reservation, update: unknown): Promise<SettleResult | undefined> {
    return this.#call({ ...this.#base(), method: 'settle', bucket, reservation: this.#wire(reservation), update });
  }

  async release(bucket: B, reservation: Reservation): Promise<void> {
    await this.#call({ ...this.#base(), method: 'release', bucket, reservation: this.#wire(reservation) });
  }

  async giveBack(bucket: B, reservation: Reservation): Promise<void> {
    await this.#call({ ...this.#base(), method: 'giveBack', bucket, reservation: this.#wire(reservation) });
  }

  async lockGlobal(ms: number): Promise<void> {
    await this.#call({ ...this.#base(), method: 'lockGlobal', ms });
  }

  noteInvalid(): Promise<SettleResult> {
    return this.#call({ ...this.#base(), method: 'noteInvalid' });
  }

  invalidRequests(): Promise<number> {
    return this.#call({ ...this.#base(), method: 'invalidRequests' });
  }

  get(bucket: B): Promise<BucketSnapshot | undefined> {
    return this.#call({ ...this.#base(), method: 'get', bucket });
  }

  /** Other isolates' changes reach a waiting call through the object's held admits, not events. */
  subscribe(): () => void {
    return () => {};
  }

  async close(): Promise<void> {}
}
