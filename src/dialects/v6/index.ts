/** The v6 dialect (docs/spec/rate-limit-spec.md): the seed's rules, as a plug-in of the limiter. */
import { systemClock } from '../../clock.ts';
import type { Dialect } from '../../contracts/dialect.ts';
import type { ViewRequest } from '../../contracts/store.ts';
import { judgeV6 } from './judge.ts';
import { MemoryV6View } from './memory-view.ts';
import type { RouteDefinition } from './classify.ts';
import { v6Targets, type V6Bucket } from './target.ts';

/** The service's public v6 API. */
export const V6_BASE_URL = 'https://discord.com/api/v6';

/** What a token's v6 view runs on, asked of a store: buckets and the global lock, no settings. */
export const V6_VIEW_REQUEST: ViewRequest<V6Bucket> = {
  api: 'v6',
  settings: undefined,
  memoryView: (clock) => new MemoryV6View(clock),
};

export const v6: Dialect<V6Bucket, object, readonly RouteDefinition[]> = {
  api: 'v6',
  defaultBaseUrl: V6_BASE_URL,
  speaks: (version) => version === undefined || version < 8,
  // Resets are whole Unix seconds: wall time.
  defaultClock: systemClock,
  anonymousLane: false,
  sharedBuckets: false,
  targets: v6Targets,
  bucketOfKey: (bucketKey) => ({ bucketKey }),
  judge: () => judgeV6,
  view: (store, token, clock) => store.view(V6_VIEW_REQUEST, token, clock),
  viewRequest: () => V6_VIEW_REQUEST,
};
