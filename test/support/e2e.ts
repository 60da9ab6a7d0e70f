/**
 * End-to-end harness: the reference service over real HTTP on loopback, a client against it,
 * and one manual clock shared by both. Virtual time only moves when no request is in flight, so
 * what the service counts per window does not depend on how fast the machine is.
 */
import {
  createClient,
  createRelay,
  type ClientOptions,
  type Relay,
  type RelayOptions,
  type TollgateClient,
  type WaitEvent,
} from '../../src/index.ts';
import { ReferenceService, type ReferenceServiceOptions } from '../../src/testing/index.ts';
import { ManualClock, settle } from './manual-clock.ts';

export const E2E_TOKEN = 'Bot e2e-token-9c41';

export interface E2E {
  readonly clock: ManualClock;
  readonly service: ReferenceService;
  readonly events: WaitEvent[];
  client: TollgateClient;
  newClient(options?: Partial<ClientOptions>): TollgateClient;
  /** A relay to the service (its API root: the base URL without the version), on the harness's clock and transport. */
  newRelay(options?: RelayOptions): Relay;
  /** Advances virtual time in steps until every promise settled (bounded). */
  drive<T>(promises: Promise<T>[], stepMs?: number, maxSteps?: number): Promise<PromiseSettledResult<T>[]>;
  stop(): Promise<void>;
}

/** A transport for the clients: the runtime's fetch (default) or another, closed with the harness. */
export type Transport = typeof fetch & { close?(): Promise<void> };

export async function startE2E(
  options: Omit<ReferenceServiceOptions, 'clock'> = {},
  transport: Transport = fetch,
): Promise<E2E> {
  let inFlight = 0;
  const countingFetch: typeof fetch = async (input, init) => {
    inFlight += 1;
    try {
      return await transport(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  // The clock needs to see the service's requests, and the service needs the clock.
  const started: { service?: ReferenceService } = {};
  const quiet = () => inFlight === 0 && (started.service?.inFlight ?? 0) === 0;
  const idle = async () => {
    for (let attempt = 0; attempt < 2000; attempt++) {
      await settle();
      if (quiet()) {
        await settle();
        if (quiet()) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    throw new Error('requests in flight did not finish');
  };
  const clock = new ManualClock(undefined, idle);
  const service = await new ReferenceService({ ...options, clock }).start();
  started.service = service;
  const events: WaitEvent[] = [];
  const clients: TollgateClient[] = [];
  const newClient = (clientOptions: Partial<ClientOptions> = {}) => {
    const client = createClient({
      baseUrl: service.baseUrl,
      token: E2E_TOKEN,
      clock,
      fetch: countingFetch,
      onWait: (event) => events.push(event),
      ...clientOptions,
    });
    clients.push(client);
    return client;
  };
  const relays: Relay[] = [];
  const newRelay = (relayOptions: RelayOptions = {}) => {
    const relay = createRelay({
      apiRoot: service.baseUrl.replace(/\/v\d+$/, ''),
      clock,
      fetch: countingFetch,
      onWait: (event) => events.push(event),
      ...relayOptions,
    });
    relays.push(relay);
    return relay;
  };
  const e2e: E2E = {
    clock,
    service,
    events,
    client: newClient(),
    newClient,
    newRelay,
    async drive(promises, stepMs = 100, maxSteps = 3000) {
      let done = false;
      const all = Promise.allSettled(promises).then((results) => {
        done = true;
        return results;
      });
      await idle();
      for (let step = 0; step < maxSteps && !done; step++) await clock.advance(stepMs);
      if (!done) throw new Error('calls did not settle');
      return all;
    },
    async stop() {
      await Promise.all([...clients, ...relays].map((each) => each.close()));
      await service.stop();
      await transport.close?.();
    },
  };
  return e2e;
}
