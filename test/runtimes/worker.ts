/**
 * The scenario as a Worker, for workerd: `GET /?service=<the reference service's baseUrl>` runs
 * it against that service and answers the outcome as JSON; `GET /interactions` runs
 * tollgate/interactions' check (interactions.ts) and answers its outcome. A failure: 500 with the
 * error.
 */
import { checkInteractions } from './interactions.ts';
import { runScenario } from './scenario.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const service = url.searchParams.get('service');
    if (url.pathname !== '/interactions' && !service) {
      return new Response('?service=<base URL> is required', { status: 400 });
    }
    try {
      return Response.json(url.pathname === '/interactions' ? await checkInteractions() : await runScenario(service!));
    } catch (error) {
      return new Response(error instanceof Error ? (error.stack ?? error.message) : String(error), { status: 500 });
    }
  },
};
