/** The smallest Worker that uses tollgate: one client, one call. Its bundle's size is the core's cost on Workers. */
import { createClient } from '../../src/index.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const client = createClient({ token: 'Bot size', baseUrl: new URL(request.url).searchParams.get('service')! });
    const channel = await client.channels.get('81384788765712384');
    await client.close();
    return Response.json(channel);
  },
};
