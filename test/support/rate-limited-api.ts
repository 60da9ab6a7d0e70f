/**
 * An msw stand-in for the service that enforces per-bucket windows the way the spec describes
 * them (x-ratelimit-limit/remaining/reset, reset in whole seconds; 429 with retry-after in ms),
 * on a manual clock, and records every request. Scripted responses override it one at a time.
 */
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { routeKeyOf } from '../../src/index.ts';
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

interface Window {
  count: number;
  endsAt: number;
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
  readonly #windows = new Map<string, Window>();
  readonly #scripted: Responder[] = [];
  readonly #options: RateLimitedApiOptions;

  constructor(options: RateLimitedApiOptions) {
    this.#options = options;
    this.#clock = options.clock;
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

  limitOf(bucketKey: string): number {
    const limits = this.#options.limits ?? {};
    const prefix = Object.keys(limits).find((key) => key !== 'default' && bucketKey.startsWith(key));
    return prefix ? limits[prefix]! : (limits.default ?? 5);
  }

  #enforce(bucketKey: string): Response {
    if (bucketKey === 'None') return HttpResponse.json({ ok: true });
    const now = this.#clock.now();
    const windowMs = this.#options.windowMs ?? 1000;
    let window = this.#windows.get(bucketKey);
    if (!window || now >= window.endsAt) {
      window = { count: 0, endsAt: now + windowMs };
      this.#windows.set(bucketKey, window);
    }
    const limit = this.limitOf(bucketKey);
    window.count += 1;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.count)),
      'x-ratelimit-reset': String(Math.ceil(window.endsAt / 1000)),
    };
    if (window.count > limit) {
      return HttpResponse.json(
        { message: 'You are being rate limited.' },
        { status: 429, headers: { ...headers, 'retry-after': String(window.endsAt - now) } },
      );
    }
    return HttpResponse.json({ ok: true, bucketKey }, { headers });
  }

  /** Requests per bucket within each window the server counted; never above the limit when the client behaves. */
  count(status: number): number {
    return this.requests.filter((request) => request.status === status).length;
  }
}
