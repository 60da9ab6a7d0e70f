/** What `tollgate/redis` raises when Redis cannot decide. */
import { TollgateError } from '../errors.ts';

/** Redis cannot be reached; nothing was sent. */
export class StoreUnavailableError extends TollgateError {
  readonly code = 'STORE_UNAVAILABLE' as const;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Data under tollgate's keys that tollgate cannot read (written by something else). */
export class StoreDataError extends TollgateError {
  readonly code = 'STORE_DATA' as const;
  constructor(message: string) {
    super(message);
    this.name = 'StoreDataError';
  }
}
