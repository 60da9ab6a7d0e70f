/** `tollgate/redis`: buckets and the global lock shared through Redis (needs the `ioredis` package). */
export { RedisStore, StoreDataError, StoreUnavailableError } from './redis-store.ts';
export type { RedisStoreOptions } from './redis-store.ts';
