/**
 * `tollgate/cloudflare`: one token's limits shared by every Worker and isolate of a bot, in a
 * Durable Object. Export `TollgateLimits` from the Worker, bind it, and give the binding to
 * `DurableObjectStore`. Loads only in workerd (it imports `cloudflare:workers`).
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
export { DurableObjectStore } from './store.ts';
export type { DurableObjectStoreOptions, LimitsNamespace, LimitsStub } from './store.ts';
export { TollgateLimits } from './limits-object.ts';
export { StoreUnavailableError } from '../errors.ts';
