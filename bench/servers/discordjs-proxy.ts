/**
 * @discordjs/proxy as its README sets it up, for the proxy bench: one REST (rate limits answered
 * as 429s at once, no retries) behind node:http. `node bench/servers/discordjs-proxy.ts <upstream
 * origin>` prints `listening: <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { proxyRequests } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';

const upstream = process.argv[2]!;
const rest = new REST({
  api: `${upstream}/api`,
  rejectOnRateLimit: () => true,
  retries: 0,
  globalRequestsPerSecond: 1e9,
});
const server = createServer((request, response) => {
  void Promise.resolve(proxyRequests(rest)(request, response)).catch(() => response.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening: http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => process.exit(0));
