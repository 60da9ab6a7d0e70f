/**
 * What a reference service can be told (`new ReferenceService(options)`), and the check of it:
 * a bad option is one TypeError naming it, before anything starts.
 */
import type { Clock } from '../clock.ts';
import type { LimitOptions } from './limits.ts';
import type { V10LimitOptions } from './v10-limits.ts';

/**
 * `api: 'v10'` (default, as the client's) enforces the service as it is today
 * (docs/spec/v10-rate-limits.md); `api: 'v6'` docs/spec/rate-limit-spec.md. `routes` is keyed by
 * route (`POST /channels/:id/messages`) or bucket hash under v10, by route key under v6.
 */
export interface ReferenceServiceOptions extends LimitOptions, V10LimitOptions {
  /** Which API the service speaks. Default v10, the API a client speaks unless told otherwise. */
  readonly api?: 'v6' | 'v10';
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** Path prefix of the API (default `/api/v10`, or `/api/v6` under v6). */
  readonly basePath?: string;
  /** Time source for windows and records (a test can share one with the client). */
  readonly clock?: Clock;
  /**
   * Header dialect. `spec` (default): the spec's headers, retry-after in ms. `discord`: also
   * Discord's x-ratelimit-reset-after (seconds), x-ratelimit-bucket and x-ratelimit-scope, and
   * retry-after in seconds, so Discord clients (@discordjs/rest) run against the same limits.
   */
  readonly dialect?: 'spec' | 'discord';
  /**
   * Network latency to simulate, in real ms per round trip: half before a request is counted,
   * half before its answer leaves. Default 0.
   */
  readonly latencyMs?: number;
}

/** Checks the options (the limits are checked by their enforcer); returns the API the service speaks. */
export function checkedApi(options: ReferenceServiceOptions): 'v6' | 'v10' {
  const { port, basePath, clock, api = 'v10' } = options;
  if (options.latencyMs !== undefined && !(Number.isFinite(options.latencyMs) && options.latencyMs >= 0)) {
    throw new TypeError(`reference service: latencyMs must be a number of ms ≥ 0, got ${String(options.latencyMs)}`);
  }
  if (api !== 'v6' && api !== 'v10') {
    throw new TypeError(`reference service: api must be 'v6' or 'v10', got ${JSON.stringify(api)}`);
  }
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new TypeError(`reference service: port must be a whole number from 0 to 65535, got ${String(port)}`);
  }
  if (basePath !== undefined && !(typeof basePath === 'string' && (basePath === '' || basePath.startsWith('/')))) {
    throw new TypeError(`reference service: basePath must be empty or start with "/", got ${JSON.stringify(basePath)}`);
  }
  if (clock !== undefined && !(typeof clock?.now === 'function' && typeof clock.setTimeout === 'function')) {
    throw new TypeError('reference service: clock must have now() and setTimeout()');
  }
  if (options.dialect !== undefined && options.dialect !== 'spec' && options.dialect !== 'discord') {
    throw new TypeError(
      `reference service: dialect must be 'spec' or 'discord', got ${JSON.stringify(options.dialect)}`,
    );
  }
  return api;
}
