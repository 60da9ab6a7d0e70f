/**
 * What a client tells its listeners: a typed event map and a small emitter. A listener that
 * throws never breaks the call it observes; an event nobody listens to is not even built. No
 * event carries a token: routes are templates (`/webhooks/:id/:token`), resources name ids only.
 */
import type { RateLimitScope } from '../contracts/dialect.ts';
import type { CallIdentity, WaitReason } from '../errors.ts';
import { TollgateArgumentError } from '../errors.ts';

export type { CallIdentity, RateLimitScope };

/** Reported for every wait a call makes; never carries the token or the request path. */
export interface WaitEvent extends CallIdentity {
  readonly reason: WaitReason;
  /** The wait in ms: planned for bucket, global, retry-after and retry waits; as waited for queue waits. */
  readonly waitMs: number;
}

export type WaitListener = (event: WaitEvent) => void;

/** Every response an attempt got (429s and 5xx included). */
export interface ResponseEvent extends CallIdentity {
  readonly status: number;
  /** From the attempt being let through to its response's headers, in ms. */
  readonly durationMs: number;
  /** 1 for the first attempt, 2 for the first resend… */
  readonly attempt: number;
}

/** Every 429. */
export interface RateLimitedEvent extends CallIdentity {
  readonly scope: RateLimitScope;
  /** The hash the answer named (v10's `X-RateLimit-Bucket`), if any. */
  readonly hash: string | undefined;
  /** The wait the answer asked for, in ms (0 when it named none). */
  readonly waitMs: number;
  /** Whether the call will be sent again (false when it fails, or the wait is past its `maxWait`). */
  readonly retried: boolean;
}

/** The limiter's events; the client adds its own (see `ClientEvents`). */
export interface LimiterEvents {
  readonly wait: WaitEvent;
  readonly response: ResponseEvent;
  readonly rateLimited: RateLimitedEvent;
  /** Decisions, in words. */
  readonly debug: string;
}

/** Where the limiter sends its events. */
export interface EventSink<Events> {
  /** True when someone listens: an event nobody hears is not built. */
  has(name: keyof Events): boolean;
  emit<Name extends keyof Events>(name: Name, event: Events[Name]): void;
}

type Listener<Event> = (event: Event) => void;

/** A typed emitter: `on`, `off`, `once`, with listeners that cannot break the emitter's caller. */
export class EventHub<Events> implements EventSink<Events> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  on<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): this {
    if (typeof listener !== 'function')
      throw new TollgateArgumentError(`on('${String(name)}'): the listener must be a function`);
    let set = this.#listeners.get(name);
    if (!set) {
      set = new Set();
      this.#listeners.set(name, set);
    }
    set.add(listener as Listener<never>);
    return this;
  }

  off<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): this {
    const set = this.#listeners.get(name);
    set?.delete(listener as Listener<never>);
    if (set?.size === 0) this.#listeners.delete(name);
    return this;
  }

  once<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): this {
    const wrapped: Listener<Events[Name]> = (event) => {
      this.off(name, wrapped);
      listener(event);
    };
    return this.on(name, wrapped);
  }

  has(name: keyof Events): boolean {
    return this.#listeners.has(name);
  }

  emit<Name extends keyof Events>(name: Name, event: Events[Name]): void {
    const set = this.#listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[Name]>)(event);
      } catch {
        // A failing listener must not fail the request it observes.
      }
    }
  }
}
