/** What a limiter is made of: its clock, its store view and judge, where it reports, and its bound on header resends (a call's own bounds are in its description). */
import type { Clock } from '../clock.ts';
import type { Judge } from '../contracts/dialect.ts';
import type { StoreView } from '../contracts/store.ts';
import type { EventSink, LimiterEvents } from './events.ts';
import type { CallObserver } from './observer.ts';

export interface LimiterOptions {
  readonly clock: Clock;
  /** This client's view of the store, for its dialect and token. */
  readonly store: StoreView;
  /** Reads responses: the dialect's judge. */
  readonly judge: Judge;
  /**
   * Buckets shared by several local keys (v10: routes with one hash): a settle or release wakes
   * every queue awaiting a response, not only the call's own.
   */
  readonly sharedBuckets?: boolean;
  /** Told the store's invalid-request count (V15) after each settle or note that changed it. */
  readonly onInvalidCount?: ((count: number) => void) | undefined;
  /** Where its events go (waits, responses, 429s, decisions in words). */
  readonly events?: EventSink<LimiterEvents> | undefined;
  /** Follows each call's steps (telemetry); none by default. */
  readonly observer?: CallObserver | undefined;
  /** How many times a response with unparseable rate-limit headers is sent again (the judge's verdict). Default: 3. */
  readonly maxHeaderResends?: number | undefined;
}
