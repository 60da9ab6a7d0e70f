/**
 * The Worker of the cloudflare bench:
 * - `GET /calls?service=<baseUrl>&calls=<n>&store=memory|durable-object` sends n calls one after
 *   the other on one token, and answers how long they took and how many calls reached the Durable
 *   Object (through a namespace that counts them);
 * - `GET /round-trips?calls=<n>` makes n bare calls to the object (the cheapest: a count), one
 *   after the other, and answers how long they took.
 */
import { createClient, MemoryStore } from '../../src/index.ts';
import { DurableObjectStore, TollgateLimits, type LimitsNamespace } from '../../src/cloudflare/index.ts';

export { TollgateLimits };

interface Env {
  readonly LIMITS: LimitsNamespace;
}

/** `namespace`, counting the calls its objects take. */
function counting(namespace: LimitsNamespace, counter: { calls: number }): LimitsNamespace {
  return {
    idFromName: (name) => namespace.idFromName(name),
    get: (id) => {
      const stub = namespace.get(id);
      return {
        decide: (call) => {
          counter.calls += 1;
          return stub.decide(call);
        },
      };
    },
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const calls = Number(url.searchParams.get('calls'));
    if (url.pathname === '/round-trips') {
      const stub = env.LIMITS.get(env.LIMITS.idFromName('round-trips') as never);
      const started = Date.now();
      for (let i = 0; i < calls; i++) await stub.decide({ api: 'v10', settings: {}, method: 'invalidRequests' });
      return Response.json({ calls, elapsedMs: Date.now() - started });
    }
    const counter = { calls: 0 };
    const store =
      url.searchParams.get('store') === 'memory'
        ? new MemoryStore()
        : new DurableObjectStore(counting(env.LIMITS, counter));
    const client = createClient({
      token: 'Bot bench',
      baseUrl: url.searchParams.get('service')!,
      store,
      globalLimit: 100_000,
    });
    let status429 = 0;
    client.on('rateLimited', () => (status429 += 1));
    const started = Date.now();
    for (let i = 0; i < calls; i++) await client.channels.get('81384788765712384');
    const elapsedMs = Date.now() - started;
    await client.close();
    return Response.json({ calls, elapsedMs, objectCalls: counter.calls, status429 });
  },
};
