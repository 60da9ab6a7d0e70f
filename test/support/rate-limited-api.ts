/**
 * An msw stand-in for the service: the reference service's limits (`LimitEnforcer`: per-bucket
 * windows, x-ratelimit-limit/remaining/reset in whole seconds, 429 with retry-after in ms) on a
 * manual clock, with every request recorded. Scripted responses override it one at a time.
 */
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { routeKeyOf } from '../../src/index.ts';
import { LimitEnforcer } from '../../src/testing/index.ts';
import type { ManualClock } from './manual-clock.ts';

export const BASE_URL = 'http://api.test/api/v6';
export const TOKEN = 'Bot test-token-6f1d2a';

export interface RecordedRequest {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly bucketKey: string;
  readonly status: number;
  readonly headers: Headers;
}

export interface RateLimitedApiOptions {
  readonly clock: ManualClock;
  /** Requests per window; by bucket-key prefix (`ChannelsIdMessages`), else `default`. */
  readonly limits?: Readonly<Record<string, number>> & { readonly default?: number };
  readonly windowMs?: number;
}

/** A scripted response (undefined: enforce as usual); may be slow (a promise). */
export type Responder = (request: Request, bucketKey: string) => Response | undefined | Promise<Response | undefined>;

export class RateLimitedApi {
  /** Every request answered, in the order answered. */
  readonly requests: RecordedRequest[] = [];
  /** Requests received so far (answered or not). */
  arrivals = 0;
  readonly server: SetupServer;
  readonly #clock: ManualClock;
  readonly #limits: LimitEnforcer;
  readonly #scripted: Responder[] = [];

  constructor(options: RateLimitedApiOptions) {
    this.#clock = options.clock;
    const windowMs = options.windowMs ?? 1000;
    const { default: fallback = 5, ...byPrefix } = options.limits ?? {};
    this.#limits = new LimitEnforcer(
      {
        defaultLimit: { limit: fallback, windowMs },
        routes: Object.fromEntries(Object.entries(byPrefix).map(([prefix, limit]) => [prefix, { limit, windowMs }])),
        // These tests exercise bucket limits; global 429s are scripted where needed.
        global: { limit: Number.MAX_SAFE_INTEGER, windowMs },
      },
      options.clock,
    );
    this.server = setupServer(
      http.all(`${BASE_URL}/*`, async ({ request }) => {
        this.arrivals += 1;
        const url = new URL(request.url);
        const path = url.pathname.slice(new URL(BASE_URL).pathname.length);
        const bucketKey = routeKeyOf(request.method, path);
        const scripted = this.#scripted.shift();
        const response = (scripted && (await scripted(request, bucketKey))) ?? this.#enforce(bucketKey);
        this.requests.push({
          at: this.#clock.now(),
          method: request.method,
          path: path + url.search,
          bucketKey,
          status: response.status,
          headers: request.headers,
        });
        return response;
      }),
    );
  }

  listen(): this {
    this.server.listen({ onUnhandledFrame: 'error' });
    return this;
  }

  close(): void {
    this.server.close();
  }

  /** The next responses come from these responders, in order (undefined: enforce as usual). */
  script(...responders: Responder[]): void {
    this.#scripted.push(...responders);
  }

  #enforce(bucketKey: string): Response {
    if (bucketKey === 'None') return HttpResponse.json({ ok: true });
    const decision = this.#limits.count(bucketKey, '');
    if (decision.global) throw new Error('unreachable: the stand-in has no global limit');
    if (decision.limited) {
      return HttpResponse.json(
        { message: 'You are being rate limited.' },
        { status: 429, headers: { ...decision.headers, 'retry-after': String(decision.retryAfterMs) } },
      );
    }
    return HttpResponse.json({ ok: true, bucketKey }, { headers: decision.headers });
  }

  /** How many requests were answered with `status`. */
  count(status: number): number {
    return this.requests.filter((request) => request.status === status).length;
  }
}
