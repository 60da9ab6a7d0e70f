/** `tollgate/testing`: run your code against realistic rate limits, offline. */
export { ReferenceService } from './reference-service.ts';
export type { RecordedRequest, ReferenceServiceOptions } from './reference-service.ts';
export type { Fault, FaultRule } from './faults.ts';
export { LimitEnforcer } from './limits.ts';
export type { LimitDecision, LimitOptions, RateLimit } from './limits.ts';
