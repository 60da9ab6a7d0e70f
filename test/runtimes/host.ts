/**
 * The scenario with its reference service, both in the runtime that runs this file (Node.js, Bun
 * or Deno): `bun test/runtimes/host.ts`. Prints one line of JSON, `{ outcome, service }`, and
 * exits 0; any failure exits 1 with the error on stderr.
 */
import { ReferenceService } from '../../src/testing/index.ts';
import { runScenario, SCENARIO_SERVICE, scriptFaults, serviceFacts } from './scenario.ts';

const service = await new ReferenceService(SCENARIO_SERVICE).start();
scriptFaults(service);
try {
  const outcome = await runScenario(service.baseUrl);
  console.log(JSON.stringify({ outcome, service: serviceFacts(service) }));
} finally {
  await service.stop();
}
