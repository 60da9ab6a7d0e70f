/**
 * The scenario with its reference service, both in the runtime that runs this file (Node.js, Bun
 * or Deno): `bun test/runtimes/host.ts`; then tollgate/interactions' check (interactions.ts),
 * its Node handler on this runtime's `node:http`. Prints one line of JSON,
 * `{ outcome, service, interactions }`, and exits 0; any failure exits 1 with the error on stderr.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReferenceService } from '../../src/testing/index.ts';
import { checkInteractions, type NodeServe } from './interactions.ts';
import { runScenario, SCENARIO_SERVICE, scriptFaults, serviceFacts } from './scenario.ts';

const serveNode: NodeServe = async (handler) => {
  const server = createServer((request, response) => void handler.node(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const service = await new ReferenceService(SCENARIO_SERVICE).start();
scriptFaults(service);
try {
  const outcome = await runScenario(service.baseUrl);
  const interactions = await checkInteractions(serveNode);
  console.log(JSON.stringify({ outcome, service: serviceFacts(service), interactions }));
} finally {
  await service.stop();
}
