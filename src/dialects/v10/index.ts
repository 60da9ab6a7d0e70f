/** The v10 dialect (docs/spec/v10-rate-limits.md, V1–V22): the service today, as a plug-in of the limiter. */
import { monotonicClock } from '../../clock.ts';
import type { CallTarget, Dialect, DialectOptions } from '../../contracts/dialect.ts';
import type { StoreView, V10Settings } from '../../contracts/store.ts';
import { v10Judge } from './judge.ts';
import { NONCE_SAFE_ROUTES } from './nonce.ts';
import { classifyV10, parseBucketKey, type V10Route } from './route.ts';
import {
  DEFAULT_GLOBAL_LIMIT,
  DEFAULT_GLOBAL_MARGIN_MS,
  DEFAULT_INVALID_REQUEST_LIMIT,
  DEFAULT_RESET_MARGIN_MS,
} from './rules.ts';

/** The service's public API, current version (v10). */
export const DEFAULT_BASE_URL = 'https://discord.com/api/v10';

/** The settings a token's view runs on, from `createClient`'s options and V8/V13/V15's defaults. */
export const v10Settings = (options: DialectOptions): V10Settings => ({
  globalLimit: options.globalLimit ?? DEFAULT_GLOBAL_LIMIT,
  marginMs: options.resetMargin ?? DEFAULT_RESET_MARGIN_MS,
  globalMarginMs: options.globalMargin ?? DEFAULT_GLOBAL_MARGIN_MS,
  invalidRequestLimit: options.invalidRequestLimit ?? DEFAULT_INVALID_REQUEST_LIMIT,
});

/**
 * A v10 call's target: its route and top-level resource (V4); events name the catalog key where
 * there is one, errors the route template.
 */
const target = (method: string, path: string, nowMs: number, catalogKey?: string): CallTarget<V10Route> => {
  const route = classifyV10(method, path, nowMs);
  return {
    routeKey: catalogKey ?? route.route,
    bucket: route,
    exempt: route.exempt,
    webhookWithToken: route.webhookWithToken,
    route: route.route,
    resource: route.resource,
    nonceSafe: NONCE_SAFE_ROUTES.has(route.route),
  };
};

export const v10: Dialect<V10Route> = {
  api: 'v10',
  defaultBaseUrl: DEFAULT_BASE_URL,
  defaultClock: monotonicClock,
  anonymousLane: true,
  sharedBuckets: true,
  targetOfOperation: (operation, path, _values, nowMs) => target(operation.method, path, nowMs, operation.routeKey),
  targetOfRequest: (method, path, nowMs) => target(method, path, nowMs),
  bucketOfKey: parseBucketKey,
  judge: (options) => v10Judge(options.bodyTimeoutMs),
  view: (store, token, clock, options) =>
    store.view({ api: 'v10', settings: v10Settings(options) }, token, clock) as StoreView<V10Route>,
};
