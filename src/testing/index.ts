/** `tollgate/testing`: run your code against realistic rate limits, offline. */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
export { ReferenceService } from './reference-service.ts';
export type { RecordedRequest, ReferenceServiceOptions } from './reference-service.ts';
export type { Fault, FaultRule } from './faults.ts';
export { LimitEnforcer } from './limits.ts';
export type { LimitDecision, LimitOptions, RateLimit } from './limits.ts';
export { NONCE_WINDOW_MS } from './messages.ts';
export type { PagedLists, SeedOptions } from './pages.ts';
