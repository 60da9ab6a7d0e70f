/**
 * The v10 service as it is today, with 40 ms of network latency per round trip: tollgate and
 * @discordjs/rest against the reference service speaking v10 (real time, a fresh service per
 * client and scenario). For each: the span at the service (first arrival → last accepted)
 * against the least time the limits allow, 429s, and 429s after first contact.
 *
 * Scenarios (limits as the service publishes them for these routes):
 * - per-route: message creates on 4 channels, 5 per 5 s per channel;
 * - shared hash: reaction PUT and DELETE alternating on 2 channels, one hash, 5 per 5 s;
 * - global: one read on each of 150 channels; the token's global 50 per second binds.
 */
import { REST } from '@discordjs/rest';
import { createClient } from '../src/index.ts';
import { ReferenceService, type RateLimit } from '../src/testing/index.ts';
import { undiciFetch } from '../src/undici/index.ts';

export const LATENCY_MS = 40;
const TOKEN = 'Bot v10-bench';

interface Job {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
}

export interface V10Scenario {
  readonly name: string;
  readonly description: string;
  readonly jobs: readonly Job[];
  readonly callers: number;
  readonly limit: RateLimit;
  readonly global: RateLimit;
  /** The least time (s) the limits allow: the binding limit's windows after the first. */
  readonly minimumSeconds: number;
}

const channel = (index: number) => String(300_000 + index);
const windowsAfterFirst = (count: number, limit: RateLimit) => (Math.ceil(count / limit.limit) - 1) * limit.windowMs;

function scenarios(): V10Scenario[] {
  const fivePerFive: RateLimit = { limit: 5, windowMs: 5000 };
  const global: RateLimit = { limit: 50, windowMs: 1000 };
  const perRoute = Array.from({ length: 4 * 15 }, (_, i): Job => ({
    method: 'POST',
    path: `/channels/${channel(i % 4)}/messages`,
    body: { content: `message ${i}` },
  }));
  const reactions = Array.from({ length: 2 * 15 }, (_, i): Job => ({
    method: i % 4 < 2 ? 'PUT' : 'DELETE',
    path: `/channels/${channel(i % 2)}/messages/1/reactions/%F0%9F%91%8D/@me`,
  }));
  const reads = Array.from({ length: 150 }, (_, i): Job => ({ method: 'GET', path: `/channels/${channel(i)}` }));
  return [
    {
      name: 'per-route',
      description: '4 channels × 15 message creates, 5 per 5 s per channel, 16 callers',
      jobs: perRoute,
      callers: 16,
      limit: fivePerFive,
      global,
      minimumSeconds: windowsAfterFirst(15, fivePerFive) / 1000,
    },
    {
      name: 'shared hash',
      description: '2 channels × 15 reaction PUT/DELETE (one hash), 5 per 5 s per channel, 8 callers',
      jobs: reactions,
      callers: 8,
      limit: fivePerFive,
      global,
      minimumSeconds: windowsAfterFirst(15, fivePerFive) / 1000,
    },
    {
      name: 'global',
      description: '150 channels × 1 read, global 50 per second, 64 callers',
      jobs: reads,
      callers: 64,
      limit: fivePerFive,
      global,
      minimumSeconds: windowsAfterFirst(150, global) / 1000,
    },
  ];
}

export interface V10Run {
  readonly scenario: string;
  readonly client: string;
  readonly requests: number;
  /** At the service: from the first arrival to the last accepted request. */
  readonly spanSeconds: number;
  readonly minimumSeconds: number;
  readonly status429: number;
  readonly status429AfterFirstContact: number;
  readonly global429: number;
}

type Send = (job: Job) => Promise<unknown>;

const CLIENTS: Readonly<Record<string, (baseUrl: string) => { send: Send; close(): Promise<void> }>> = {
  tollgate(baseUrl) {
    const transport = undiciFetch();
    const client = createClient({ baseUrl, token: TOKEN, fetch: transport });
    return {
      send: async (job) => {
        const response = await client.request(job.method, job.path, job.body === undefined ? {} : { json: job.body });
        if (!response.ok) throw new Error(`status ${response.status}`);
        await response.arrayBuffer();
      },
      close: async () => {
        await client.close();
        await transport.close();
      },
    };
  },
  '@discordjs/rest'(baseUrl) {
    const { origin, pathname } = new URL(baseUrl);
    const rest = new REST({ api: origin + pathname.replace(/\/v\d+$/, ''), version: '10' }).setToken(
      TOKEN.replace(/^Bot /, ''),
    );
    const methods = { GET: 'get', POST: 'post', PUT: 'put', DELETE: 'delete' } as const;
    return {
      send: (job) =>
        rest[methods[job.method]](job.path as `/${string}`, job.body === undefined ? {} : { body: job.body }),
      close: async () => {
        rest.clearHashSweeper();
        rest.clearHandlerSweeper();
      },
    };
  },
};

async function runOne(scenario: V10Scenario, name: string): Promise<V10Run> {
  const service = await new ReferenceService({
    api: 'v10',
    defaultLimit: scenario.limit,
    global: scenario.global,
    latencyMs: LATENCY_MS,
  }).start();
  const client = CLIENTS[name]!(service.baseUrl);
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: scenario.callers }, async () => {
        while (next < scenario.jobs.length) await client.send(scenario.jobs[next++]!);
      }),
    );
  } finally {
    await client.close();
    await service.stop();
  }
  const requests = service.requests;
  const limited = requests.filter((request) => request.status === 429);
  const accepted = requests.filter((request) => request.status < 400);
  // First contact: a route's first answer, which leaves the service half the latency after it
  // arrived. A 429 for a request that arrived after that could have been avoided.
  const firstAnswerOut = new Map<string, number>();
  for (const request of requests) {
    if (!firstAnswerOut.has(request.routeKey)) firstAnswerOut.set(request.routeKey, request.at + LATENCY_MS);
  }
  return {
    scenario: scenario.name,
    client: name,
    requests: requests.length,
    spanSeconds: (accepted.at(-1)!.at - requests[0]!.at) / 1000,
    minimumSeconds: scenario.minimumSeconds,
    status429: limited.length,
    status429AfterFirstContact: limited.filter((request) => request.at > firstAnswerOut.get(request.routeKey)!).length,
    global429: limited.filter((request) => request.global).length,
  };
}

export async function runV10Bench(): Promise<{
  scenarios: (Omit<V10Scenario, 'jobs'> & { requests: number })[];
  runs: V10Run[];
}> {
  const runs: V10Run[] = [];
  const all = scenarios();
  for (const scenario of all) for (const name of Object.keys(CLIENTS)) runs.push(await runOne(scenario, name));
  const described = all.map((scenario) => ({
    name: scenario.name,
    description: scenario.description,
    callers: scenario.callers,
    limit: scenario.limit,
    global: scenario.global,
    minimumSeconds: scenario.minimumSeconds,
    requests: scenario.jobs.length,
  }));
  return { scenarios: described, runs };
}
