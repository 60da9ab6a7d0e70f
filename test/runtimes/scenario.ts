/**
 * One scenario of real calls, the same in every runtime tollgate runs on (Node.js, Bun, Deno,
 * workerd): a spent bucket waited out, the global limit paced, a typed HttpError, and no 429. The
 * client side (`runScenario`) imports only the core, so it bundles for workerd; the service side
 * (`SCENARIO_SERVICE`, `serviceFacts`) is what the runtime holding the reference service reads.
 * Real time throughout: these are other processes, so nothing here can share a manual clock.
 */
import { createClient, HttpError, type Store } from '../../src/index.ts';
import { currentRuntime } from '../../src/runtime-check.ts';
import type { FaultRule, RecordedRequest, ReferenceServiceOptions } from '../../src/testing/index.ts';
import { mostInFixedWindows } from '../../src/testing/limits.ts';

export const SCENARIO_TOKEN = 'Bot runtime-scenario-0f3a';
export const MESSAGE_CHANNEL = '81384788765712384';
/** The message bucket: 2 per 400 ms, so 6 creates on one channel wait out two spent windows. */
const MESSAGE_LIMIT = { limit: 2, windowMs: 400 };
const MESSAGES = 6;
/** The global limit: 10 a second, so 15 reads of 15 channels wait for the next second. */
const GLOBAL_LIMIT = 10;
const READS = 15;
/** The delete that the service answers 404 (a fault scripted on its route), for a typed HttpError. */
const FAILING_ROUTE = 'DELETE /channels/:id/messages/:id';
const OLD_MESSAGE = '81384788765712390';

export const SCENARIO_SERVICE: ReferenceServiceOptions = {
  routes: { 'POST /channels/:id/messages': MESSAGE_LIMIT },
  defaultLimit: { limit: 50, windowMs: 1000 },
  global: { limit: GLOBAL_LIMIT, windowMs: 1000 },
  validTokens: [SCENARIO_TOKEN],
};

/** What the runtime holding the service scripts before the scenario runs. */
export function scriptFaults(service: { inject(rule: FaultRule): void }): void {
  service.inject({ fault: { kind: 'status', status: 404 }, bucketKeyPrefix: FAILING_ROUTE });
}

/** What the client saw, as plain data (it crosses processes and isolates as JSON). */
export interface ScenarioOutcome {
  readonly runtime: string;
  /** The creates on one channel: how many resolved, the bucket waits, ms from first to last. */
  readonly messages: { readonly resolved: number; readonly bucketWaits: number; readonly elapsedMs: number };
  /** The reads over many channels: how many resolved, the global waits, ms from first to last. */
  readonly reads: { readonly resolved: number; readonly globalWaits: number; readonly elapsedMs: number };
  /** The delete the service answers 404. */
  readonly httpError: { readonly isHttpError: boolean; readonly status: number; readonly name: string };
  /** 429s the client was answered. */
  readonly rateLimited: number;
}

/** The name a runtime gives itself: its kind and version, as the runtime check reads them. */
export function runtimeName(): string {
  const { bun, deno, node } = currentRuntime();
  if (bun !== undefined) return `bun ${bun}`;
  if (deno !== undefined) return `deno ${deno}`;
  if (node !== undefined) return `node ${node}`;
  return globalThis.navigator?.userAgent === 'Cloudflare-Workers' ? 'workerd' : 'unknown';
}

const elapsed = async (calls: () => Promise<unknown>[]): Promise<{ resolved: number; elapsedMs: number }> => {
  const start = Date.now();
  const results = await Promise.allSettled(calls());
  return { resolved: results.filter((result) => result.status === 'fulfilled').length, elapsedMs: Date.now() - start };
};

/** Runs the scenario against a reference service at `baseUrl` (its `baseUrl`), with `store` if given. */
export async function runScenario(baseUrl: string, store?: Store): Promise<ScenarioOutcome> {
  const waits: string[] = [];
  let rateLimited = 0;
  const client = createClient({
    baseUrl,
    token: SCENARIO_TOKEN,
    globalLimit: GLOBAL_LIMIT,
    ...(store && { store }),
    onWait: (event) => waits.push(event.reason),
  });
  client.on('rateLimited', () => (rateLimited += 1));
  try {
    const messages = await elapsed(() =>
      Array.from({ length: MESSAGES }, (_, i) =>
        client.channels.messages.create(MESSAGE_CHANNEL, { content: `message ${i}` }),
      ),
    );
    const bucketWaits = waits.filter((reason) => reason === 'bucket').length;
    const reads = await elapsed(() =>
      Array.from({ length: READS }, (_, i) => client.channels.get(String(BigInt(MESSAGE_CHANNEL) + 1n + BigInt(i)))),
    );
    const globalWaits = waits.filter((reason) => reason === 'global').length;
    const error = await client.channels.messages.delete(MESSAGE_CHANNEL, OLD_MESSAGE).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    return {
      runtime: runtimeName(),
      messages: { ...messages, bucketWaits },
      reads: { ...reads, globalWaits },
      httpError: {
        isHttpError: error instanceof HttpError,
        status: error instanceof HttpError ? error.status : 0,
        name: error instanceof Error ? error.name : String(error),
      },
      rateLimited,
    };
  } finally {
    await client.close();
  }
}

/** What the service saw: its 429s, and the most message creates it counted in one window. */
export interface ServiceFacts {
  readonly requests: number;
  readonly tooManyRequests: number;
  readonly mostMessagesPerWindow: number;
}

export function serviceFacts(service: { readonly requests: readonly RecordedRequest[] }): ServiceFacts {
  const bucketKey = service.requests.find((request) => request.method === 'POST')?.bucketKey;
  const creates = service.requests.filter((request) => request.bucketKey === bucketKey && request.status !== 429);
  return {
    requests: service.requests.length,
    tooManyRequests: service.requests.filter((request) => request.status === 429).length,
    // Counted as the service counts, in its fixed windows: the client waits out each reset
    // exactly, so a sliding span can hold one more when the window's first request was late.
    mostMessagesPerWindow: mostInFixedWindows(
      creates.map((request) => request.at),
      MESSAGE_LIMIT,
    ),
  };
}

/** The scenario's expectations, shared by every runtime's test. */
export const EXPECTED = {
  messages: MESSAGES,
  messageLimit: MESSAGE_LIMIT,
  reads: READS,
  globalLimit: GLOBAL_LIMIT,
} as const;
