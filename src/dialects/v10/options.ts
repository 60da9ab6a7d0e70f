/**
 * The `createClient` options the v10 dialect brings, documented and checked here (its zod shapes
 * join the client's own in `http/options.ts` through `dialects/index.ts`), and its own event.
 */
import { z } from 'zod';
import type { InvalidRequestsEvent } from '../../contracts/dialect.ts';
import { listener, milliseconds, whole } from '../../option-shapes.ts';
import { isBotId } from '../../tokens.ts';

/** v10's own options (docs/options.md): the global limit, a bot's own, the margins and the invalid-request guard. */
export interface V10Options {
  /** v10, V13: requests per second per token, paced ahead (default 50; larger bots are granted more). */
  readonly globalLimit?: number;
  /**
   * v10, V13: a bot's own requests per second, by its id, over `globalLimit`, for bots Discord
   * granted more: `{ '80351110224678912': 500 }` (quote the id: a number loses its last digits). A
   * lane's bot is read from its token (`Bot <id in base64>.…`); other tokens, OAuth2's included,
   * get `globalLimit`.
   */
  readonly botGlobalLimits?: Readonly<Record<string, number>>;
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

/** A global limit, the default's or a bot's: `what` names it in the messages. */
const perSecond = (what: string) => whole(what, 1, 100_000, ' of requests per second');

const BOT_GLOBAL_LIMITS =
  "botGlobalLimits must be an object of bot ids to limits, such as { '80351110224678912': 500 }";

/** Each bot's limit, by its id; every message names the id, as the proxy's one line shows no path. */
const botGlobalLimits = z
  .custom<Readonly<Record<string, number>>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map),
    BOT_GLOBAL_LIMITS,
  )
  .superRefine((limits, context) => {
    for (const [id, limit] of Object.entries(limits)) {
      if (!isBotId(id)) {
        context.addIssue({
          code: 'custom',
          message: `botGlobalLimits names ${JSON.stringify(id.slice(0, 40))}, which is not a bot id (a bot's user id: 15 to 20 digits, no leading zero)`,
        });
      }
      const checked = perSecond(`botGlobalLimits["${id.slice(0, 40)}"]`).safeParse(limit);
      if (!checked.success) context.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
    }
  });

/** One zod shape per option of `V10Options`. */
export const v10OptionShapes = {
  globalLimit: perSecond('globalLimit').optional(),
  botGlobalLimits: botGlobalLimits.optional(),
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
