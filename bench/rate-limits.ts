/**
 * Rate-limit efficiency: several buckets, concurrent callers, a few windows, on the reference
 * service (real time, in this process; a fresh service per client). For tollgate and for
 * @discordjs/rest (the service speaks Discord's header dialect to it, same limits):
 * - completion time against a spec client: one that follows the
 *   spec's table exactly, one request at a time per bucket, with zero latency, simulated on the
 *   same limits and starting at the same point of the second (whole-second resets make it depend
 *   on that);
 * - 429s, and 429s after first contact (once the client has seen the bucket's headers);
 * - every accepted request's time, for the chart of requests over time against the allowed rate.
 */
import { REST } from '@discordjs/rest';
import { createClient } from '../src/index.ts';
import {
  applyUpdate,
  initialBucket,
  readBucketHeaders,
  wholeSeconds,
  type BucketRecord,
} from '../src/dialects/v6/rules.ts';
import { preCheck } from '../test/support/v6-oracle.ts';
import { LimitEnforcer, ReferenceService, type RateLimit, type RecordedRequest } from '../src/testing/index.ts';
import { undiciFetch } from '../src/undici/index.ts';

export interface RateLimitScenario {
  readonly buckets: number;
  readonly requestsPerBucket: number;
  readonly callers: number;
  readonly limit: RateLimit;
}

export const SCENARIO: RateLimitScenario = {
  buckets: 4,
  requestsPerBucket: 30,
  callers: 16,
  limit: { limit: 10, windowMs: 2000 },
};

export interface RateLimitRun {
  readonly client: string;
  readonly seconds: number;
  /** At the service: from the first request's arrival to the last accepted one's. */
  readonly spanSeconds: number;
  /**
   * When a spec client (the table exactly, one request at a time, zero latency) would be done,
   * from the same first arrival. Not a strict minimum: row 3's sleep counts from the whole
   * second, so a client that checks a little later can wake earlier.
   */
  readonly specClientSeconds: number;
  /** When each request leaves at best under the spec's rules (seconds from the first arrival, every bucket). */
  readonly specScheduleSeconds: readonly number[];
  /** What the limits alone allow at best (a window's worth at each window start). */
  readonly limitsMinimumSeconds: number;
  readonly requestsSent: number;
  readonly status429: number;
  readonly status429AfterFirstContact: number;
  readonly maxPerWindow: number;
  /** Seconds from the first arrival at which each request was accepted (2xx), in order. */
  readonly acceptedAt: readonly number[];
  /** Seconds from the first arrival of each 429. */
  readonly rejectedAt: readonly number[];
}

const TOKEN = 'Bot rate-limit-bench';
const channelOf = (bucket: number) => String(200_000 + bucket);

type Sender = (channel: string) => Promise<unknown>;

interface ClientUnderTest {
  readonly dialect: 'spec' | 'discord';
  open(baseUrl: string): { send: Sender; close(): Promise<void> };
}

const CLIENTS: Readonly<Record<string, ClientUnderTest>> = {
  tollgate: {
    dialect: 'spec',
    open(baseUrl) {
      const transport = undiciFetch();
      const client = createClient({ baseUrl, token: TOKEN, fetch: transport });
      return {
        send: (channel) => client.channels.get(channel),
        close: async () => {
          await client.close();
          await transport.close();
        },
      };
    },
  },
  '@discordjs/rest': {
    dialect: 'discord',
    open(baseUrl) {
      const { origin, pathname } = new URL(baseUrl);
      const rest = new REST({
        api: origin + pathname.replace(/\/v\d+$/, ''),
        version: /\/v(\d+)$/.exec(pathname)?.[1] ?? '6',
        globalRequestsPerSecond: 1_000_000,
      }).setToken(TOKEN.replace(/^Bot /, ''));
      return {
        send: (channel) => rest.get(`/channels/${channel}`),
        close: async () => {
          rest.clearHashSweeper();
          rest.clearHandlerSweeper();
        },
      };
    },
  },
};

async function runOne(name: string, scenario: RateLimitScenario): Promise<RateLimitRun> {
  const { dialect, open } = CLIENTS[name]!;
  const service = await new ReferenceService({
    api: 'v6',
    defaultLimit: scenario.limit,
    global: { limit: 1_000_000, windowMs: 1000 },
    dialect,
  }).start();
  const client = open(service.baseUrl);
  const jobs = Array.from({ length: scenario.buckets * scenario.requestsPerBucket }, (_, index) =>
    channelOf(index % scenario.buckets),
  );
  const started = Date.now();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: scenario.callers }, async () => {
        while (next < jobs.length) await client.send(jobs[next++]!);
      }),
    );
  } finally {
    await client.close();
    await service.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  const requests = service.requests;
  const firstAnswer = new Map<string, number>();
  for (const request of requests)
    if (!firstAnswer.has(request.bucketKey)) firstAnswer.set(request.bucketKey, request.at);
  const limited = requests.filter((request) => request.status === 429);
  const firstAt = requests[0]!.at;
  const accepted = requests.filter((request) => request.status < 400);
  const since = (at: number) => (at - firstAt) / 1000;
  const spec = specScheduleOfRun(requests, scenario.limit);
  return {
    client: name,
    seconds,
    spanSeconds: since(accepted.at(-1)!.at),
    specClientSeconds: since(spec.at(-1)!),
    specScheduleSeconds: spec.map(since),
    limitsMinimumSeconds:
      ((Math.ceil(scenario.requestsPerBucket / scenario.limit.limit) - 1) * scenario.limit.windowMs) / 1000,
    requestsSent: requests.length,
    status429: limited.length,
    // A request that left before the client had any answer for its bucket cannot know the limits.
    status429AfterFirstContact: limited.filter((request) => request.at > firstAnswer.get(request.bucketKey)!).length,
    maxPerWindow: Math.max(
      ...Array.from({ length: scenario.buckets }, (_, bucket) =>
        service.maxPerWindow(`ChannelsId:${channelOf(bucket)}`),
      ),
    ),
    acceptedAt: accepted.map((request) => since(request.at)),
    rejectedAt: limited.map((request) => since(request.at)),
  };
}

/**
 * The yardstick for a run, from what the service saw: for every bucket, the spec's best schedule
 * for as many requests as it accepted there, starting when that bucket's first request arrived
 * (whole-second resets make the time depend on the point of the second each bucket began
 * at). Service-clock times (ms), sorted.
 */
export function specScheduleOfRun(requests: readonly RecordedRequest[], limit: RateLimit): number[] {
  const byBucket = Map.groupBy(
    requests.filter((request) => request.status < 400),
    (request) => request.bucketKey,
  );
  return [...byBucket.values()]
    .flatMap((accepted) => {
      const first = accepted[0]!.at;
      const scenario = { buckets: 1, requestsPerBucket: accepted.length, callers: 1, limit };
      return specSchedule(first, scenario).map((ms) => first + ms);
    })
    .sort((a, b) => a - b);
}

/**
 * When (ms from `startMs`) each of one bucket's requests leaves at best under the spec's rules:
 * one request at a time, zero latency, the pre-check and post-response rows exactly as the spec
 * states them, against the reference service's window rules.
 */
export function specSchedule(startMs: number, scenario: RateLimitScenario): number[] {
  const sentAt: number[] = [];
  let now = startMs;
  const service = new LimitEnforcer(
    { defaultLimit: scenario.limit, global: { limit: Number.MAX_SAFE_INTEGER, windowMs: 1000 } },
    { now: () => now, setTimeout: () => () => {} },
  );
  let bucket: BucketRecord | undefined;
  for (let sent = 0; sent < scenario.requestsPerBucket;) {
    if (bucket) {
      const check = preCheck(bucket, wholeSeconds(now));
      bucket = check.bucket;
      now += check.sleepMs; // row 3: sleep, then the request proceeds
    }
    bucket ??= initialBucket();
    const decision = service.count('ChannelsId:1', TOKEN);
    if (decision.global) throw new Error('spec client: the global limit cannot bind here');
    if (decision.limited) throw new Error('spec client: the rules over-sent; the simulation is wrong');
    const { update } = readBucketHeaders((name) => decision.headers[name] ?? null);
    bucket = applyUpdate(bucket, update);
    sentAt.push(now - startMs);
    sent += 1;
  }
  return sentAt;
}

export async function runRateLimitBench(scenario: RateLimitScenario = SCENARIO): Promise<RateLimitRun[]> {
  const runs: RateLimitRun[] = [];
  for (const name of Object.keys(CLIENTS)) runs.push(await runOne(name, scenario));
  return runs;
}
