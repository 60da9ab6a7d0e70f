/**
 * The scenario as a Worker, for workerd: `GET /?service=<the reference service's baseUrl>` runs
 * it against that service and answers the outcome as JSON (a failure: 500 with the error).
 */
import { runScenario } from './scenario.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const service = new URL(request.url).searchParams.get('service');
    if (!service) return new Response('?service=<base URL> is required', { status: 400 });
    try {
      return Response.json(await runScenario(service));
    } catch (error) {
      return new Response(error instanceof Error ? (error.stack ?? error.message) : String(error), { status: 500 });
    }
  },
};
