/** The v10 dialect (docs/spec/v10-rate-limits.md, V1–V22): the service today, as a plug-in of the limiter. */
import { monotonicClock } from '../../clock.ts';
import type { CallTarget, CallTargets, Dialect } from '../../contracts/dialect.ts';
import type { ViewRequest } from '../../contracts/store.ts';
import type { OperationDefinition, PathSegment, TokenKind } from '../../contracts/catalog.ts';
import { buildPath } from '../../paths/path.ts';
import { InvalidRequestWarnings } from './invalid-warnings.ts';
import { v10Judge } from './judge.ts';
import { refusalAnswerOf } from './answers.ts';
import { v10Refusals } from './refusals.ts';
import { MemoryV10View } from './memory-view.ts';
import { NONCE_SAFE_ROUTES, withEnforcedNonce } from './nonce.ts';
import { InvalidRequestLog } from './pace.ts';
import { classifyV10, parseBucketKey, v10BucketFinder, type V10Bucket, type V10BucketFinder } from './route.ts';
import type { V10Events, V10Options } from './options.ts';
import { v10Settings, type V10Settings } from './settings.ts';

/** The service's public API, current version (v10). */
export const DEFAULT_BASE_URL = 'https://discord.com/api/v10';

/** V15: one invalid-request log for every token of a store: the service counts per IP. */
const INVALID_LOG_SLOT = 'v10 invalid-request log';

/** What a token's v10 view runs on, asked of a store: in memory, the store's one invalid-request log. */
export const v10ViewRequest = (settings: V10Settings): ViewRequest<V10Bucket> => ({
  api: 'v10',
  settings,
  memoryView: (clock, slots) =>
    new MemoryV10View(
      clock,
      settings,
      slots(INVALID_LOG_SLOT, () => new InvalidRequestLog()),
    ),
});

/**
 * A v10 call's target: its route and top-level resource (V4); events name the catalog key where
 * there is one, errors the route template.
 */
const targetOf = (
  route: V10Bucket,
  catalogKey?: string,
  refusedTokens?: readonly TokenKind[],
): CallTarget<V10Bucket> => ({
  routeKey: catalogKey ?? route.route,
  bucket: route,
  exempt: route.exempt,
  webhookWithToken: route.webhookWithToken,
  route: route.route,
  resource: route.resource,
  nonceSafe: NONCE_SAFE_ROUTES.has(route.route),
  ...(refusedTokens && { refusedTokens }),
});

/** Each typed operation's bucket finder, made at its first call: the catalog fixes its template. */
const finders = new WeakMap<OperationDefinition, V10BucketFinder | undefined>();
const finderOf = (operation: OperationDefinition): V10BucketFinder | undefined => {
  if (!finders.has(operation)) finders.set(operation, v10BucketFinder(operation.method, operation.path));
  return finders.get(operation);
};

/** The catalog's operations, which v10 reads for the kinds of token each route turns away. */
export type V10CatalogData = Readonly<Record<string, OperationDefinition>> | undefined;

/** A route without a message delete's age class (V20), which does not change who may call it. */
const routeOfBucket = ({ route }: V10Bucket): string => {
  const age = route.indexOf('#');
  return age === -1 ? route : route.slice(0, age);
};

/** Stands for a parameter while an operation's route is worked out: an id, or a word that is none of the template's. */
const sampleOf = (segment: Exclude<PathSegment, string>): string =>
  segment.kind === 'snowflake' ? '81384788765712384' : 'sample';

/** The routes that turn away a kind of token, per catalog: worked out once, not once a client. */
const refusalMaps = new WeakMap<object, ReadonlyMap<string, readonly TokenKind[]>>();
/** Without a catalog no route is known to refuse a kind of token. */
const NO_REFUSALS: ReadonlyMap<string, readonly TokenKind[]> = new Map();

/**
 * The routes that turn away a kind of token, by method + template, from the catalog's operations,
 * made at the first call of the first client on that catalog (a client per request must not pay
 * for it again). A call is checked by the route its path classifies to, typed or raw alike (a
 * code that reads as a route word gives a typed call another route, and its own bucket).
 */
function refusalsOf(operations: V10CatalogData): ReadonlyMap<string, readonly TokenKind[]> {
  if (!operations) return NO_REFUSALS;
  const made = refusalMaps.get(operations);
  if (made) return made;
  const refusals = new Map<string, readonly TokenKind[]>();
  for (const operation of Object.values(operations)) {
    if (!operation.refusedTokens) continue;
    const { path } = buildPath(operation.path, operation.path.filter((s) => typeof s !== 'string').map(sampleOf));
    refusals.set(routeOfBucket(classifyV10(operation.method, path, 0)), operation.refusedTokens);
  }
  refusalMaps.set(operations, refusals);
  return refusals;
}

/** v10 finds buckets from the operation alone; of the catalog it reads which routes turn a kind of token away. */
function v10Targets(operations: V10CatalogData): CallTargets<V10Bucket> {
  let made: ReadonlyMap<string, readonly TokenKind[]> | undefined;
  const refusals = () => (made ??= refusalsOf(operations));
  return {
    targetOfOperation: (operation, path, values, nowMs) => {
      const route = finderOf(operation)?.bucketOf(values, nowMs) ?? classifyV10(operation.method, path, nowMs);
      return targetOf(route, operation.routeKey, refusals().get(routeOfBucket(route)));
    },
    targetOfRequest: (method, path, nowMs) => {
      const route = classifyV10(method, path, nowMs);
      return targetOf(route, undefined, refusals().get(routeOfBucket(route)));
    },
  };
}

export const v10: Dialect<V10Bucket, V10Options, V10CatalogData, V10Events> = {
  api: 'v10',
  defaultBaseUrl: DEFAULT_BASE_URL,
  // V1: the service answers v8 and v9 under today's rules.
  speaks: (version) => version !== undefined && version >= 8,
  defaultClock: monotonicClock,
  anonymousLane: true,
  sharedBuckets: true,
  targets: v10Targets,
  bucketOfKey: parseBucketKey,
  judge: (options) => v10Judge(options.bodyTimeoutMs, Date.now, options.tokenKind),
  refusalAnswer: refusalAnswerOf,
  refusals: v10Refusals,
  view: (store, token, clock, options) => store.view(v10ViewRequest(v10Settings(options, token)), token, clock),
  viewRequest: (settings) => v10ViewRequest(settings as V10Settings),
  invalidRequestLimit: (options) => v10Settings(options).invalidRequestLimit,
  watchInvalidRequests: (options, events) => {
    if (options.onInvalidRequests) events.on('invalidRequests', options.onInvalidRequests);
    // One per client: its lanes read one store-wide count, so a level is told once.
    const warnings = new InvalidRequestWarnings(v10Settings(options).invalidRequestLimit, (event) =>
      events.emit('invalidRequests', event),
    );
    return (count) => warnings.report(count);
  },
  // A create the service deduplicates by nonce can be resent safely once it enforces one.
  resendSafeBody: (call, body) => (call.nonceSafe ? withEnforcedNonce(body) : undefined),
};
