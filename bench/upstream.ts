/**
 * The overhead suite's upstream: a small HTTP/1.1 server (keep-alive) that answers every request
 * at once with a small JSON body and rate-limit headers like the service's (v10's and v6's:
 * Limit, Remaining, Reset, Reset-After, Bucket), generous enough that no client ever waits. It
 * does as little as a server can, so what a run measures is the clients. Run in a process of its
 * own: `node bench/upstream.ts` prints `listening: <base URL>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const BASE_PATH = '/api/v10';
const BODY = JSON.stringify({ id: '100000', type: 0, name: 'general', position: 0, flags: 0 });
const LIST = JSON.stringify([{ id: '100001', content: 'hi', channel_id: '100000' }]);
const WINDOW_SECONDS = 60;

/** The bucket a path counts in, named as the service names it: one name per route, its ids left out. */
const bucketOf = (path: string) => path.slice(BASE_PATH.length).replace(/\d+/g, 'id').replace(/\W/g, '');

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const path = request.url ?? '/';
  const body = path.endsWith('/messages') || path.endsWith('/members') ? LIST : BODY;
  const reset = Math.ceil(Date.now() / 1000) + WINDOW_SECONDS;
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-ratelimit-limit': '1000000',
    'x-ratelimit-remaining': '999999',
    'x-ratelimit-reset': String(reset),
    'x-ratelimit-reset-after': `${WINDOW_SECONDS}.000`,
    'x-ratelimit-bucket': bucketOf(path),
  });
  response.end(body);
  // The request body (none here) would be drained by node:http itself.
  request.resume();
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening: http://127.0.0.1:${port}${BASE_PATH}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
