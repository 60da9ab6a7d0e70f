/** The v6 dialect (docs/spec/rate-limit-spec.md): the seed's rules, as a plug-in of the limiter. */
import { systemClock } from '../../clock.ts';
import type { Dialect } from '../../contracts/dialect.ts';
import type { StoreView } from '../../contracts/store.ts';
import { judgeV6 } from './judge.ts';
import { v6TargetOfOperation, v6TargetOfRequest, type V6Bucket } from './target.ts';

/** The service's public v6 API. */
export const V6_BASE_URL = 'https://discord.com/api/v6';

export const v6: Dialect<V6Bucket> = {
  api: 'v6',
  defaultBaseUrl: V6_BASE_URL,
  // Resets are whole Unix seconds: wall time.
  defaultClock: systemClock,
  anonymousLane: false,
  sharedBuckets: false,
  targetOfOperation: (operation, _path, values) => v6TargetOfOperation(operation, values),
  targetOfRequest: (method, path) => v6TargetOfRequest(method, path),
  bucketOfKey: (bucketKey) => ({ bucketKey }),
  judge: () => judgeV6,
  view: (store, token, clock) => store.view({ api: 'v6' }, token, clock) as StoreView<V6Bucket>,
};
