/**
 * The `createClient` options the v10 dialect brings, documented and checked here (its zod shapes
 * join the client's own in `http/options.ts` through `dialects/index.ts`), and its own event.
 */
import { z } from 'zod';
import type { InvalidRequestsEvent } from '../../contracts/dialect.ts';
import { listener, milliseconds, whole } from '../../option-shapes.ts';

export interface V10Options {
  /** v10, V13: requests per second per token, paced ahead (default 50; larger bots are granted more). */
  readonly globalLimit?: number;
  /** v10, V8: ms added after a window's end before sending again. Default 50. */
  readonly resetMargin?: number;
  /** v10, V13: ms added to the 1 s global window; each request already counts from its answer's arrival. Default 10. */
  readonly globalMargin?: number;
  /** v10, V15: invalid requests (401, 403, non-shared 429) in 10 minutes at which nothing more is sent. Default 9000 (the service bans at 10 000). */
  readonly invalidRequestLimit?: number;
  /** v10, V15: told when the invalid-request count reaches 50 % and 80 % of `invalidRequestLimit` (as the `invalidRequests` event). */
  readonly onInvalidRequests?: (event: InvalidRequestsEvent) => void;
}

/** What a v10 client tells its listeners besides the limiter's events. */
export interface V10Events {
  /** v10, V15: the invalid-request count reached a warning level (as `onInvalidRequests`). */
  readonly invalidRequests: InvalidRequestsEvent;
}

const INVALID_REQUEST_LIMIT = 'invalidRequestLimit must be a whole number from 1 to 10000';

/** One zod shape per option of `V10Options`. */
export const v10OptionShapes = {
  globalLimit: whole('globalLimit', 1, 100_000, ' of requests per second').optional(),
  resetMargin: milliseconds('resetMargin', 0, 60_000).optional(),
  globalMargin: milliseconds('globalMargin', 0, 60_000).optional(),
  invalidRequestLimit: z
    .number({ error: INVALID_REQUEST_LIMIT })
    .int(INVALID_REQUEST_LIMIT)
    .min(1, INVALID_REQUEST_LIMIT)
    .max(10_000, 'invalidRequestLimit above 10000 would let the service ban the IP first')
    .optional(),
  onInvalidRequests: listener<(event: InvalidRequestsEvent) => void>('onInvalidRequests').optional(),
} satisfies { readonly [Key in keyof Required<V10Options>]: z.ZodType<V10Options[Key]> };
