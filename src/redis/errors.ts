/** What `tollgate/redis` raises when Redis cannot decide (and `StoreUnavailableError`, which every shared store raises). */
import { TollgateError } from '../errors.ts';

export { StoreUnavailableError } from '../errors.ts';

/** Data under tollgate's keys that tollgate cannot read (written by something else). */
export class StoreDataError extends TollgateError {
  readonly code = 'STORE_DATA' as const;
  constructor(message: string) {
    super(message);
    this.name = 'StoreDataError';
  }
}
