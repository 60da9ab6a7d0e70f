/**
 * A Worker for the Durable Object store's tests: it exports `TollgateLimits`, and each request
 * runs a burst of calls through tollgate against the reference service, with its limits in the
 * namespace bound as `LIMITS` (or, `?store=memory`, in this isolate alone), and answers what
 * happened as JSON. Two Workers of this script bound to one namespace share one token's limits.
 *
 *   GET /burst?service=<baseUrl>&creates=<n>&reads=<n>&channels=<n>&globalLimit=<n>&store=durable-object|memory
 *   GET /misbound?service=<baseUrl>   the store on `WRONG_CLASS`, a namespace of another class
 *   GET /unbound                      the store on `env.MISSING`
 */
import { createClient, MemoryStore, type Store } from '../../src/index.ts';
import { DurableObjectStore, TollgateLimits, type LimitsNamespace } from '../../src/cloudflare/index.ts';

export { TollgateLimits };

/** A Durable Object that is not tollgate's: a misnamed binding. */
export class SomethingElse {
  fetch(): Response {
    return new Response('not limits');
  }
}

interface Env {
  readonly LIMITS: LimitsNamespace;
  readonly WRONG_CLASS?: LimitsNamespace;
  readonly MISSING?: LimitsNamespace;
  readonly TOKEN: string;
}

const errorOf = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message } : { name: 'unknown', message: String(error) };

async function burst(url: URL, env: Env): Promise<Response> {
  const number = (name: string) => Number(url.searchParams.get(name) ?? '0');
  const store: Store =
    url.searchParams.get('store') === 'memory' ? new MemoryStore() : new DurableObjectStore(env.LIMITS);
  let rateLimited = 0;
  const client = createClient({
    baseUrl: url.searchParams.get('service')!,
    token: env.TOKEN,
    store,
    globalLimit: number('globalLimit') || undefined,
  });
  client.on('rateLimited', () => (rateLimited += 1));
  const channel = (i: number) => String(81384788765712384n + BigInt(i % number('channels')));
  const started = Date.now();
  const calls = [
    ...Array.from({ length: number('creates') }, (_, i) =>
      client.channels.messages.create(channel(i), { content: `${i}` }),
    ),
    ...Array.from({ length: number('reads') }, (_, i) => client.channels.get(channel(i))),
  ];
  const results = await Promise.allSettled(calls);
  await client.close();
  return Response.json({
    resolved: results.filter((result) => result.status === 'fulfilled').length,
    errors: results.flatMap((result) => (result.status === 'rejected' ? [errorOf(result.reason)] : [])),
    rateLimited,
    elapsedMs: Date.now() - started,
  });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    try {
      switch (url.pathname) {
        case '/burst':
          return await burst(url, env);
        case '/misbound': {
          const client = createClient({
            baseUrl: url.searchParams.get('service')!,
            token: env.TOKEN,
            store: new DurableObjectStore(env.WRONG_CLASS!),
          });
          const outcome = await client.channels.get('81384788765712384').then(() => undefined, errorOf);
          await client.close();
          return Response.json(outcome ?? { name: 'none', message: 'resolved' });
        }
        case '/unbound':
          new DurableObjectStore(env.MISSING!);
          return Response.json({ name: 'none', message: 'constructed' });
        default:
          return new Response('not found', { status: 404 });
      }
    } catch (error) {
      return Response.json(errorOf(error), { status: 500 });
    }
  },
};
