/** What `tollgate/redis` raises when Redis cannot decide. */

/** Redis cannot be reached; nothing was sent. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Data under tollgate's keys that tollgate cannot read (written by something else). */
export class StoreDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreDataError';
  }
}
