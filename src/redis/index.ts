/** `tollgate/redis`: buckets and the global lock shared through Redis (needs the `ioredis` package). */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
export { RedisStore } from './store.ts';
export { StoreDataError, StoreUnavailableError } from './errors.ts';
export type { RedisStoreOptions } from './store.ts';
