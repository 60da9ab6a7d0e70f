/**
 * The `createClient` options and events the dialects bring, a row per dialect that has some (v6
 * has none). Apart from `DIALECTS`: the option shapes are zod, which only the client's checks
 * load (a Worker importing tollgate/cloudflare does not).
 */
import { v10OptionShapes, type V10Events, type V10Options } from './v10/options.ts';

/** The options the dialects take beside a client's own (v10's: `globalLimit`, `botGlobalLimits`, the margins, the guard). */
export type DialectOptions = V10Options;

/** Their zod shapes, which `http/options.ts` checks with the client's own. */
export const DIALECT_OPTION_SHAPES = { ...v10OptionShapes };

/** What the dialects tell a client's listeners besides the limiter's events. */
export type DialectEvents = V10Events;
