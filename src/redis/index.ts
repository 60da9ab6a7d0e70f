/** `tollgate/redis`: buckets and the global lock shared through Redis (needs the `ioredis` package). */
export { RedisStore } from './store.ts';
export { StoreDataError, StoreUnavailableError } from './errors.ts';
export type { RedisStoreOptions } from './store.ts';
