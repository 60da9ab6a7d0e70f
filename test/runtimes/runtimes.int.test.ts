/**
 * The same scenario of real calls (scenario.ts) in each runtime tollgate supports: Node.js, Bun
 * and Deno run it with the reference service in the same process (host.ts); workerd runs it as a
 * Worker bundled as wrangler bundles, in miniflare with no compatibility flag, against the
 * reference service in this process. Each must: wait out a spent bucket (never more creates per
 * window than the limit), pace the global limit (the reads take longer than a second), raise a
 * typed HttpError, and draw no 429. In the same runs, tollgate/interactions (interactions.ts):
 * each runtime verifies a PING it signed and answers it PONG, and refuses it tampered with a 401,
 * through the fetch handler and, where there is `node:http`, the Node one.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceService } from '../../src/testing/index.ts';
import { bundleWorker, COMPATIBILITY_DATE, type WorkerBundle } from '../support/workers.ts';
import type { HandlerAnswers, InteractionsOutcome } from './interactions.ts';
import {
  EXPECTED,
  SCENARIO_SERVICE,
  scriptFaults,
  serviceFacts,
  type ScenarioOutcome,
  type ServiceFacts,
} from './scenario.ts';

const root = join(import.meta.dirname, '..', '..');
const host = join(import.meta.dirname, 'host.ts');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = promisify(execFile);

function expectScenarioPassed(outcome: ScenarioOutcome, service: ServiceFacts, runtime: RegExp): void {
  expect(outcome.runtime).toMatch(runtime);
  expect(service.tooManyRequests).toBe(0);
  expect(outcome.rateLimited).toBe(0);
  expect(outcome.messages.resolved).toBe(EXPECTED.messages);
  expect(outcome.messages.bucketWaits).toBeGreaterThan(0);
  expect(service.mostMessagesPerWindow).toBe(EXPECTED.messageLimit.limit);
  // 6 creates at 2 per window: the third window opens two windows after the first.
  expect(outcome.messages.elapsedMs).toBeGreaterThanOrEqual(2 * EXPECTED.messageLimit.windowMs);
  expect(outcome.reads.resolved).toBe(EXPECTED.reads);
  expect(outcome.reads.globalWaits).toBeGreaterThan(0);
  // 15 reads at 10 a second: the last waits for the next second.
  expect(outcome.reads.elapsedMs).toBeGreaterThanOrEqual(1000);
  expect(outcome.httpError).toEqual({ isHttpError: true, status: 404, name: 'HttpError' });
  expect(service.requests).toBe(EXPECTED.messages + EXPECTED.reads + 1);
}

/** A handler's answers: PONG to the signed PING, 401 to it tampered with, and the user's function never called. */
const HANDLER_ANSWERS: HandlerAnswers = {
  ping: { status: 200, body: { type: 1 } },
  tamperedStatus: 401,
  handleCalls: 0,
};

function expectInteractionsPassed(interactions: InteractionsOutcome, withNodeHandler: boolean): void {
  expect(interactions).toEqual({
    verified: true,
    tamperedVerified: false,
    fetch: HANDLER_ANSWERS,
    ...(withNodeHandler && { node: HANDLER_ANSWERS }),
  });
}

interface HostOutput {
  readonly outcome: ScenarioOutcome;
  readonly service: ServiceFacts;
  readonly interactions: InteractionsOutcome;
}

async function hostIn(command: string, args: readonly string[]): Promise<HostOutput> {
  const { stdout } = await run(command, [...args, host], { cwd: root, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as HostOutput;
}

describe.concurrent('one scenario in every runtime', () => {
  it('Node.js (the reference service in the same process; tollgate/interactions)', async () => {
    const { outcome, service, interactions } = await hostIn(process.execPath, []);
    expectScenarioPassed(outcome, service, /^node (2[2-9]|[3-9]\d)\./);
    expectInteractionsPassed(interactions, true);
  });

  it('Bun (the reference service in the same process; tollgate/interactions)', async () => {
    const { outcome, service, interactions } = await hostIn(bin('bun'), []);
    expectScenarioPassed(outcome, service, /^bun 1\./);
    expectInteractionsPassed(interactions, true);
  });

  it('Deno (the reference service in the same process; tollgate/interactions)', async () => {
    const { outcome, service, interactions } = await hostIn(bin('deno'), [
      'run',
      '--allow-net',
      '--allow-read',
      '--allow-env',
    ]);
    expectScenarioPassed(outcome, service, /^deno 2\./);
    expectInteractionsPassed(interactions, true);
  });

  describe('workerd (a Worker bundled as wrangler does, no compatibility flag)', () => {
    let service: ReferenceService;
    let miniflare: Miniflare;
    let bundle: WorkerBundle;
    beforeAll(async () => {
      service = await new ReferenceService(SCENARIO_SERVICE).start();
      bundle = await bundleWorker(join(import.meta.dirname, 'worker.ts'));
      miniflare = new Miniflare({ modules: true, script: bundle.code, compatibilityDate: COMPATIBILITY_DATE });
    });
    afterAll(async () => {
      await miniflare?.dispose();
      await service?.stop();
    });

    it('runs the scenario against the reference service', async () => {
      scriptFaults(service);
      const response = await miniflare.dispatchFetch(`http://worker/?service=${encodeURIComponent(service.baseUrl)}`);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expectScenarioPassed(JSON.parse(text) as ScenarioOutcome, serviceFacts(service), /^workerd$/);
    });

    it('verifies a signed PING and refuses it tampered with, through tollgate/interactions', async () => {
      const response = await miniflare.dispatchFetch('http://worker/interactions');
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expectInteractionsPassed(JSON.parse(text) as InteractionsOutcome, false);
    });

    it("bundles far under Workers' size limit (3 MB gzipped on the free plan)", () => {
      // 137 KB gzipped here (docs/benchmarks.md); a tenth of the free plan's limit is the guard.
      expect(bundle.gzipBytes).toBeLessThan(300 * 1024);
      expect(bundle.code).not.toMatch(/from\s*["']node:/);
    });
  });
});
