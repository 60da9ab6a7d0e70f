/** What a Redis view needs of its store: the connection, pub/sub, and the store's settings. */
import type { Clock } from '../clock.ts';
import type { PubSub } from './channel.ts';
import type { RedisConnection } from './connection.ts';

export interface RedisViewContext {
  readonly connection: RedisConnection;
  readonly pubsub: PubSub;
  /** How long a reservation counts as in flight without an answer (ms). */
  readonly leaseMs: number;
  /** Decide by the limiter's clock (`time: 'client'`) rather than Redis's. */
  readonly clientTime: boolean;
}

/** The scripts' last argument: the limiter's clock, or '' for Redis's own. */
export const nowArgument = (context: RedisViewContext, clock: Clock): string =>
  context.clientTime ? String(Math.floor(clock.now())) : '';
