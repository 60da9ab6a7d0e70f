/** `tollgate/testing`: run your code against realistic rate limits, offline. */
export { ReferenceService } from './reference-service.ts';
export type { Fault, FaultRule, RateLimit, RecordedRequest, ReferenceServiceOptions } from './reference-service.ts';
