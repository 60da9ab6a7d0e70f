/**
 * The proxy suite (`npm run bench -- proxy`): `tollgate proxy` beside @discordjs/proxy, each in a
 * process of its own in front of the overhead suite's upstream (an upstream that answers at once,
 * in its own process), driven by undici from this process.
 * - Throughput: requests/s through one proxy process, one token (both proxies in turns, three
 *   rounds, the median kept) and 100 tokens (@discordjs/proxy keeps one REST, so one token
 *   only), and the proxy process's CPU per request.
 * - Added latency: at fixed rates (250, 500 and the goal's 1000 requests/s), p50 and p99 through
 *   the proxy less those straight to the upstream at the same rate.
 * - Memory per token held: the proxy's resident memory after 1 token and after 1000; and in the
 *   heap, the relay's per token and after 10 000 tokens in turn (`relay-memory.ts`).
 * - Two replicas on one Redis, one token, against the reference service at 40 ms of latency: the
 *   global limit's pace (50 a second), time against the least it allows and against its safe
 *   bound at that latency (the median of three runs), and 429s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { ReferenceService } from '../src/testing/index.ts';
import { allocationFileOf, type HeapActivity } from './allocation.ts';
import { startUpstream } from './overhead.ts';
import { runRelayMemoryBench, type RelayMemoryResult } from './relay-memory.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN = 'Bot ODAzNTExMTAyMjQ2Nzg5MTI.bench.proxy';
/** Clock ticks per second of /proc's CPU times (Linux: 100). */
const TICKS = 100;

export interface ProxyThroughput {
  readonly proxy: string;
  readonly tokens: number;
  /** Requests answered while measured. */
  readonly completed: number;
  /** With the warm-up's. */
  readonly sent: number;
  /** Requests/s of each round, in order, where there were several (the figures are the median round's). */
  readonly roundsPerSecond?: readonly number[];
  readonly requestsPerSecond: number;
  readonly cpuMicrosPerRequest: number;
  /** Bytes the proxy's process allocated on its JS heap per request (with the allocation probe). */
  readonly allocatedBytesPerRequest?: number;
}

export interface ProxyLatency {
  readonly proxy: string;
  readonly rate: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly addedP50Ms: number;
  readonly addedP99Ms: number;
}

export interface ProxyMemory {
  readonly tokens: number;
  readonly rssMiBWithOne: number;
  readonly rssMiBWithAll: number;
  readonly kibPerToken: number;
}

export interface ProxyReplicas {
  readonly replicas: number;
  readonly latencyMs: number;
  readonly requests: number;
  /** Each run's span, in order; the figures below are the median run's. */
  readonly spansSeconds: readonly number[];
  readonly spanSeconds: number;
  /** The least time the global limit allows a client that sees every arrival (latency 0). */
  readonly leastSeconds: number;
  readonly ofLeast: number;
  /**
   * The safe bound at this latency: the service counts a request when it arrives, which no client
   * sees; the earliest a client knows a request has arrived is its answer, a round trip after it
   * sent it. So each further window starts a round trip after the last: (1 s + round trip) a window.
   */
  readonly safeSeconds: number;
  readonly ofSafe: number;
  /** Over every run. */
  readonly status429: number;
}

export interface ProxyBenchResult {
  readonly throughput: ProxyThroughput[];
  readonly latency: ProxyLatency[];
  readonly memory: ProxyMemory;
  /** The relay under the proxy, in the heap: per token, and held after many tokens in turn. */
  readonly relayMemory: RelayMemoryResult;
  readonly replicas: ProxyReplicas;
}

interface Started {
  readonly url: string;
  readonly child: ChildProcess;
  /** Started with the allocation probe (`servers/allocation-probe.ts`). */
  readonly probed: boolean;
}

/** Node's arguments that preload the allocation probe into a proxy's process. */
export const WITH_ALLOCATION_PROBE = [
  '--import',
  fileURLToPath(new URL('servers/allocation-probe.ts', import.meta.url)),
];

/** A server process, once it prints its address (`listening: <url>` or the proxy's own line). */
async function startServer(args: readonly string[], nodeArgs: readonly string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [...nodeArgs, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /(?:listening:|listening on) (http:\/\/\S+)/.exec(line)?.[1];
    if (url) return { url, child, probed: nodeArgs.includes(WITH_ALLOCATION_PROBE[1]!) };
  }
  throw new Error(`${args.join(' ')} exited before listening`);
}

/**
 * `tollgate proxy` as a user starts it; against the answer-at-once upstream its global pace is
 * raised (`--global-limit`), as @discordjs/proxy's is, or a run would measure the pace of 50 a second.
 */
export const tollgateProxy = (
  upstream: string,
  extra: readonly string[] = ['--global-limit', '100000'],
  nodeArgs: readonly string[] = [],
) =>
  startServer(
    ['src/proxy/cli.ts', 'proxy', '--port', '0', '--upstream', upstream, '--log-level', 'silent', ...extra],
    nodeArgs,
  );
export const discordjsProxy = (upstream: string, nodeArgs: readonly string[] = []) =>
  startServer(['bench/servers/discordjs-proxy.ts', upstream], nodeArgs);

export async function stop({ child }: Started): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A process's CPU time so far, in µs (Linux /proc). */
function cpuMicrosOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS) * 1e6;
}

function rssMiBOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

const tokenOf = (index: number) => (index === 0 ? TOKEN : `${TOKEN}-${index}`);
const pathOf = (index: number) => `/api/v10/channels/${100000 + (index % 64)}`;

/** Closed-loop load: `concurrency` lanes for `seconds`; requests/s and the proxy's CPU per request. */
export async function throughput(
  proxy: Started,
  name: string,
  tokens: number,
  seconds: number,
): Promise<ProxyThroughput> {
  const agent = new Agent({ connections: 64, pipelining: 1 });
  const drive = async (ms: number) => {
    const deadline = performance.now() + ms;
    let next = 0;
    let completed = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (performance.now() < deadline) {
          const index = next++;
          const { body, statusCode } = await request(proxy.url + pathOf(index), {
            dispatcher: agent,
            headers: { authorization: tokenOf(index % tokens) },
          });
          await body.dump();
          if (statusCode !== 200) throw new Error(`${name}: answered ${statusCode}`);
          completed += 1;
        }
      }),
    );
    return completed;
  };
  const warmUp = await drive(1500); // warm-up: connections, JIT, every token's lane
  const cpuBefore = cpuMicrosOf(proxy.child.pid!);
  if (proxy.probed) proxy.child.kill('SIGUSR2');
  const started = performance.now();
  const completed = await drive(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuMicrosOf(proxy.child.pid!) - cpuBefore;
  const allocated = proxy.probed ? await allocatedBytesOf(proxy.child) : undefined;
  await agent.close();
  return {
    proxy: name,
    tokens,
    completed,
    sent: warmUp + completed,
    requestsPerSecond: completed / elapsed,
    cpuMicrosPerRequest: cpu / completed,
    ...(allocated !== undefined && { allocatedBytesPerRequest: allocated / completed }),
  };
}

/** Stops the probe of `child` counting and reads what it counted (within 5 s). */
async function allocatedBytesOf(child: ChildProcess): Promise<number> {
  const file = allocationFileOf(child.pid!);
  child.kill('SIGUSR2');
  for (let tries = 0; tries < 100; tries++) {
    try {
      const { allocatedBytes } = JSON.parse(readFileSync(file, 'utf8')) as HeapActivity;
      rmSync(file);
      return allocatedBytes;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`the allocation probe of process ${child.pid} wrote nothing`);
}

/** Open-loop load at `rate` requests/s for `seconds`: each request's latency in ms. */
async function latencies(url: string, rate: number, seconds: number): Promise<number[]> {
  const agent = new Agent({ connections: 128 });
  const results: Promise<number>[] = [];
  const total = rate * seconds;
  const started = performance.now();
  for (let sent = 0; sent < total;) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    for (; sent < due; sent++) {
      const index = sent;
      const at = performance.now();
      results.push(
        request(url + pathOf(index), { dispatcher: agent, headers: { authorization: TOKEN } }).then(
          async ({ body }) => {
            await body.dump();
            return performance.now() - at;
          },
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const all = await Promise.all(results);
  await agent.close();
  return all.sort((a, b) => a - b);
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Rounds of the throughput comparison. */
const THROUGHPUT_ROUNDS = 3;

/**
 * Seconds of load before each latency is measured. With 1 s, every process's compiler was still
 * at work: the slowest requests of each run came about 1 s in, through the proxies and straight to
 * the upstream alike, and the p99s halved with 3 s.
 */
const LATENCY_WARM_UP_SECONDS = 3;

/** Requests a second the added latency is measured at: the goal's 1000, and below it, where the machine is less loaded. */
export const LATENCY_RATES = [250, 500, 1000] as const;

async function addedLatency(
  proxy: Started,
  name: string,
  direct: ReadonlyMap<number, number[]>,
): Promise<ProxyLatency[]> {
  const rows: ProxyLatency[] = [];
  for (const rate of LATENCY_RATES) {
    await latencies(proxy.url, rate, LATENCY_WARM_UP_SECONDS);
    const through = await latencies(proxy.url, rate, 3);
    const straight = direct.get(rate)!;
    rows.push({
      proxy: name,
      rate,
      p50Ms: percentile(through, 0.5),
      p99Ms: percentile(through, 0.99),
      addedP50Ms: percentile(through, 0.5) - percentile(straight, 0.5),
      addedP99Ms: percentile(through, 0.99) - percentile(straight, 0.99),
    });
  }
  return rows;
}

async function memoryPerToken(upstreamOrigin: string, tokens: number): Promise<ProxyMemory> {
  const proxy = await tollgateProxy(upstreamOrigin);
  try {
    const agent = new Agent({ connections: 16 });
    const send = async (token: string) => {
      const { body } = await request(proxy.url + pathOf(0), { dispatcher: agent, headers: { authorization: token } });
      await body.dump();
    };
    for (let i = 0; i < 200; i++) await send(TOKEN);
    const withOne = rssMiBOf(proxy.child.pid!);
    for (let i = 1; i < tokens; i += 16) await Promise.all(Array.from({ length: 16 }, (_, j) => send(tokenOf(i + j))));
    const withAll = rssMiBOf(proxy.child.pid!);
    await agent.close();
    return {
      tokens,
      rssMiBWithOne: withOne,
      rssMiBWithAll: withAll,
      kibPerToken: ((withAll - withOne) * 1024) / tokens,
    };
  } finally {
    await stop(proxy);
  }
}

/** Two replicas on one Redis, one token, one request per channel: the global pace is what binds. */
async function replicasOnRedis(latencyMs: number, requests: number, runs: number): Promise<ProxyReplicas> {
  const spans: number[] = [];
  let status429 = 0;
  for (let run = 0; run < runs; run++) {
    const result = await replicasRun(latencyMs, requests);
    spans.push(result.spanSeconds);
    status429 += result.status429;
  }
  const spanSeconds = [...spans].sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  const windows = Math.ceil(requests / 50) - 1;
  const leastSeconds = windows;
  const safeSeconds = windows * (1 + latencyMs / 1000);
  return {
    replicas: 2,
    latencyMs,
    requests,
    spansSeconds: spans,
    spanSeconds,
    leastSeconds,
    ofLeast: leastSeconds / spanSeconds,
    safeSeconds,
    ofSafe: safeSeconds / spanSeconds,
    status429,
  };
}

/** One run: its span at the service (first arrival to last accepted one) and its 429s. */
async function replicasRun(latencyMs: number, requests: number): Promise<{ spanSeconds: number; status429: number }> {
  const service = await new ReferenceService({
    dialect: 'discord',
    latencyMs,
    defaultLimit: { limit: 1000, windowMs: 1000 },
    global: { limit: 50, windowMs: 1000 },
  }).start();
  const origin = new URL(service.baseUrl).origin;
  const prefix = `tollgate-bench:${randomUUID().slice(0, 8)}`;
  const replicas = [
    await tollgateProxy(origin, ['--redis', REDIS_URL, '--prefix', prefix]),
    await tollgateProxy(origin, ['--redis', REDIS_URL, '--prefix', prefix]),
  ];
  try {
    await Promise.all(
      Array.from({ length: requests }, async (_, index) => {
        const answer = await fetch(
          `${replicas[index % 2]!.url}/api/v10/channels/${81384788765712384n + BigInt(index)}`,
          {
            headers: { authorization: TOKEN },
          },
        );
        await answer.arrayBuffer();
      }),
    );
    const accepted = service.requests.filter((r) => r.status < 400);
    return {
      spanSeconds: (accepted.at(-1)!.at - service.requests[0]!.at) / 1000,
      status429: service.requests.filter((r) => r.status === 429).length,
    };
  } finally {
    await Promise.all(replicas.map(stop));
    await service.stop();
  }
}

export async function runProxyBench(): Promise<ProxyBenchResult> {
  const { baseUrl, child: upstreamChild } = await startUpstream();
  const upstreamOrigin = new URL(baseUrl).origin;
  try {
    const throughputs: ProxyThroughput[] = [];
    const latency: ProxyLatency[] = [];
    // Straight to the upstream at each rate: what the proxies' latency is measured against.
    const direct = new Map<number, number[]>();
    for (const rate of LATENCY_RATES) {
      await latencies(upstreamOrigin, rate, LATENCY_WARM_UP_SECONDS);
      direct.set(rate, await latencies(upstreamOrigin, rate, 3));
    }
    // Both with the allocation probe: the same preload in each, counting only while measured.
    const proxies = [
      { name: '@discordjs/proxy', proxy: await discordjsProxy(upstreamOrigin, WITH_ALLOCATION_PROBE) },
      { name: 'tollgate proxy', proxy: await tollgateProxy(upstreamOrigin, undefined, WITH_ALLOCATION_PROBE) },
    ];
    try {
      // In turns, each proxy driven alone, for three rounds: a round's ratio moves with the
      // machine, so each proxy's median round is kept, with every round's figure beside it.
      const rounds = new Map<string, ProxyThroughput[]>();
      for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
        for (const { name, proxy } of proxies) {
          rounds.set(name, [...(rounds.get(name) ?? []), await throughput(proxy, name, 1, 3)]);
        }
      }
      for (const measured of rounds.values()) {
        const sorted = [...measured].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
        throughputs.push({
          ...sorted[Math.floor(sorted.length / 2)]!,
          roundsPerSecond: measured.map((each) => each.requestsPerSecond),
        });
      }
      throughputs.push(await throughput(proxies[1]!.proxy, 'tollgate proxy', 100, 3));
      for (const { name, proxy } of proxies) latency.push(...(await addedLatency(proxy, name, direct)));
    } finally {
      await Promise.all(proxies.map(({ proxy }) => stop(proxy)));
    }
    const memory = await memoryPerToken(upstreamOrigin, 1000);
    const relayMemory = await runRelayMemoryBench();
    const replicas = await replicasOnRedis(40, 250, 3);
    return { throughput: throughputs, latency, memory, relayMemory, replicas };
  } finally {
    upstreamChild.kill();
  }
}
