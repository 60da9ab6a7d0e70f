/** Type tests of the client's events: each name has its event type, and an unknown name does not compile. */
import { expectTypeOf, it } from 'vitest';
import {
  createClient,
  type InvalidRequestsEvent,
  type RateLimitedEvent,
  type ResponseEvent,
  type TollgateClient,
  type WaitEvent,
} from '../../src/index.ts';

const client = createClient();

it('each event name brings its event type, and on/off/once chain', () => {
  expectTypeOf(
    client.on('response', (event) => expectTypeOf(event).toEqualTypeOf<ResponseEvent>()),
  ).toEqualTypeOf<TollgateClient>();
  client.on('rateLimited', (event) => expectTypeOf(event).toEqualTypeOf<RateLimitedEvent>());
  client.once('wait', (event) => expectTypeOf(event).toEqualTypeOf<WaitEvent>());
  client.on('invalidRequests', (event) => expectTypeOf(event).toEqualTypeOf<InvalidRequestsEvent>());
  client.off('debug', (line) => expectTypeOf(line).toEqualTypeOf<string>());
  expectTypeOf<RateLimitedEvent['scope']>().toEqualTypeOf<'user' | 'shared' | 'global' | 'sublimit' | 'ban'>();
});

it('an unknown event name, or a listener of another event, does not compile', () => {
  // @ts-expect-error no such event
  client.on('responses', () => {});
  // @ts-expect-error a response listener takes a ResponseEvent, not a string
  client.on('response', (line: string) => line);
});
