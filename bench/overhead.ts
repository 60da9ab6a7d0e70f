/**
 * Overhead: requests per second through each client against one upstream in a process of its own
 * (bench/upstream.ts: answers at once, with generous rate-limit headers like the service's), 32
 * callers, two mixes. What it is for: the client's own cost per call, above all tollgate's against
 * bare ky on the same fetch, since ky is tollgate's HTTP layer.
 *
 * Each client runs in a fresh process of its own (what else a process has loaded changes V8's
 * speed), all started at once and kept; after a warm-up they take turns, round after round, so a
 * slower moment of the machine falls on every client alike. A client's figure is the median of
 * its rounds; a ratio of two clients is the median of their ratios round by round.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { Agent, request as undiciRequest } from 'undici';
import { createClient, type Store } from '../src/index.ts';
import { laneKy } from '../src/http/sender.ts';
import { undiciFetch } from '../src/undici/index.ts';
import { countAllocations } from './allocation.ts';
import { childArgument, CHILD_FLAG } from './child.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN = 'Bot overhead-bench';
const CHANNELS = 50;

export interface OverheadOptions {
  readonly concurrency: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly rounds: number;
}

export interface OverheadResult {
  readonly mix: Mix;
  readonly client: string;
  /** Median over the rounds. */
  readonly requestsPerSecond: number;
  readonly rounds: readonly number[];
  /** Against undici's request, the ceiling. */
  readonly ofCeiling: number;
  /** The client process's CPU time (user + system) per request, in µs: the median over the rounds. */
  readonly cpuMicrosPerRequest?: number;
  /** Garbage collections per 1000 requests, and their time in µs per request: medians over the rounds. */
  readonly gcPerThousand?: number;
  readonly gcMicrosPerRequest?: number;
  /** Bytes allocated on the JS heap per request: the median over the rounds. */
  readonly allocatedBytesPerRequest?: number;
}

/** What one round of one client measured. */
export interface RoundMeasure {
  readonly completed: number;
  readonly cpuMicros: number;
  readonly gcCount: number;
  readonly gcMicros: number;
  /** Bytes the round allocated on the JS heap (from the heap's size around each collection). */
  readonly allocatedBytes: number;
}

/** One client's requests/s against another's, per mix: the median of the rounds' ratios. */
export interface OverheadRatio {
  readonly mix: Mix;
  readonly transport: string;
  readonly client: string;
  readonly against: string;
  /** tollgate against ky with two hooks doing nothing, on the same fetch: the goal (the others say whose the gap is). */
  readonly goal?: boolean;
  readonly ratio: number;
  readonly rounds: readonly number[];
}

/** One request of a mix. */
interface Call {
  readonly route: 0 | 1 | 2;
  readonly id: string;
}

/**
 * The request mixes: `spread` cycles three routes over fifty channel/guild ids (150 buckets, more
 * than the concurrency); `one bucket` sends every request to one channel, as a busy channel does.
 */
export const MIXES = {
  spread: (index: number): Call => ({ route: (index % 3) as Call['route'], id: String(100_000 + (index % CHANNELS)) }),
  'one bucket': (): Call => ({ route: 0, id: '100000' }),
} as const;
export type Mix = keyof typeof MIXES;
const pathOf = ({ route, id }: Call): string =>
  route === 0 ? `/channels/${id}` : route === 1 ? `/channels/${id}/messages` : `/guilds/${id}/members`;

interface BenchClient {
  send(call: Call): Promise<unknown>;
  close(): Promise<void>;
}

type ClientFactory = (baseUrl: string) => Promise<BenchClient>;

/**
 * tollgate on a store (memory unless given) and a transport (the runtime's fetch, or undiciFetch),
 * as a user sets it up, its global pace raised as @discordjs/rest's is (the upstream's limits are
 * generous; the default 50 a second would measure the pace).
 */
function tollgate(
  transport: 'fetch' | 'undici',
  openStore?: () => Promise<Store & { close(): Promise<void> }>,
): ClientFactory {
  return async (baseUrl) => {
    const store = await openStore?.();
    const send = transport === 'undici' ? undiciFetch() : undefined;
    const client = createClient({
      baseUrl,
      token: TOKEN,
      globalLimit: 100_000,
      ...(store && { store }),
      ...(send && { fetch: send }),
    });
    return {
      send: ({ route, id }) =>
        route === 0
          ? client.channels.get(id)
          : route === 1
            ? client.channels.messages.list(id)
            : client.guilds.members.list(id),
      close: async () => {
        await client.close();
        await send?.close();
        await store?.close();
      },
    };
  };
}

/** Bare ky as a user sets it up: its defaults (retry, timeout, hooks none), the token in a header. */
function bareKy(transport: 'fetch' | 'undici'): ClientFactory {
  return async (baseUrl) => {
    const send = transport === 'undici' ? undiciFetch() : undefined;
    const api = ky.create({ prefix: baseUrl, headers: { authorization: TOKEN }, ...(send && { fetch: send }) });
    return { send: (call) => api.get(pathOf(call).slice(1)).json(), close: async () => await send?.close() };
  };
}

/** ky with the options and hooks tollgate gives it, doing nothing: the bound on tollgate's ratio to bare ky. */
export const KY_WITH_SEAM = "ky + tollgate's options and hooks, doing nothing (global fetch)";

/** Bare ky with the two hooks a limiter needs, doing nothing: what tollgate is measured against (the goal). */
export const KY_WITH_TWO_HOOKS = 'ky + beforeRequest and afterResponse hooks, doing nothing (global fetch)';

/**
 * ky with the seam tollgate needs and nothing behind it: a lane's ky as the client makes it
 * (`laneKy`: user agent, timeout, manual redirects, no HTTP errors thrown, the transport retries,
 * the token in the instance) with the limiter's three hooks doing nothing, and a context per call.
 * What any client keeping ky as its HTTP layer and its hooks as the limiter's seam pays before
 * doing any work of its own: the bound on tollgate's ratio to bare ky. `hooks: 'afterResponse'`
 * keeps one hook and ky's defaults, to show what the response clone ky makes for an afterResponse
 * hook costs by itself; `'two'` adds a `beforeRequest` hook: the seam any limiter on ky needs, and
 * the client tollgate's goal is measured against.
 */
function kyWithSeam(hooks: 'afterResponse' | 'two' | 'tollgate'): ClientFactory {
  return async (baseUrl) => {
    const nothing = async () => {};
    const api =
      hooks !== 'tollgate'
        ? ky.create({
            prefix: baseUrl,
            headers: { authorization: TOKEN },
            hooks:
              hooks === 'two' ? { beforeRequest: [nothing], afterResponse: [nothing] } : { afterResponse: [nothing] },
          })
        : laneKy(
            { fetch: undefined, headers: { 'user-agent': 'tollgate-bench' }, timeoutMs: 15_000 },
            { beforeRequest: [nothing], beforeRetry: [nothing], afterResponse: [nothing] },
            TOKEN,
          ).kyWithToken!.extend({ prefix: baseUrl });
    return {
      send: (call) =>
        api.get(pathOf(call).slice(1), hooks === 'tollgate' ? { context: { routeKey: '', bucketKey: '' } } : {}).json(),
      close: async () => {},
    };
  };
}

async function redisStore() {
  // Loaded only in the process that measures it.
  const { RedisStore } = await import('../src/redis/index.ts');
  const store = new RedisStore({ url: REDIS_URL, prefix: `tollgate-bench:${randomUUID().slice(0, 8)}` });
  await store.connect();
  return store;
}

/**
 * @discordjs/rest as a bot sets it up, plain (its own undici request) or through tollgate's
 * makeRequest on a transport; its proactive global limit (50/s by default) raised, and
 * tollgate's too, so each is compared like for like.
 */
function discordjsRest(bridge: 'fetch' | 'undici' | undefined): ClientFactory {
  return async (baseUrl) => {
    const { REST } = await import('@discordjs/rest');
    const { makeRequest } = await import('../src/discordjs/index.ts');
    const { origin, pathname } = new URL(baseUrl);
    const version = /\/v(\d+)$/.exec(pathname)?.[1] ?? '10';
    const api = origin + pathname.replace(/\/v\d+$/, '');
    const send = bridge === 'undici' ? undiciFetch() : undefined;
    const bridged = bridge && makeRequest({ apiRoot: api, globalLimit: 100_000, ...(send && { fetch: send }) });
    const rest = new REST({
      api,
      version,
      globalRequestsPerSecond: 1_000_000_000,
      ...(bridged && { makeRequest: bridged }),
    }).setToken(TOKEN.replace(/^Bot /, ''));
    return {
      send: (call) => rest.get(pathOf(call) as `/${string}`),
      close: async () => {
        rest.clearHashSweeper();
        rest.clearHandlerSweeper();
        await bridged?.close();
        await send?.close();
      },
    };
  };
}

export const CLIENTS: Readonly<Record<string, ClientFactory>> = {
  'undici request': async (baseUrl) => {
    const agent = new Agent();
    return {
      send: async (call) => {
        const { body } = await undiciRequest(baseUrl + pathOf(call), {
          dispatcher: agent,
          headers: { authorization: TOKEN },
        });
        return body.json();
      },
      close: () => agent.close(),
    };
  },
  'fetch (global)': async (baseUrl) => ({
    send: async (call) => (await fetch(baseUrl + pathOf(call), { headers: { authorization: TOKEN } })).json(),
    close: async () => {},
  }),
  'ky (global fetch)': bareKy('fetch'),
  'ky + an afterResponse hook (global fetch)': kyWithSeam('afterResponse'),
  [KY_WITH_TWO_HOOKS]: kyWithSeam('two'),
  [KY_WITH_SEAM]: kyWithSeam('tollgate'),
  'tollgate (memory, global fetch)': tollgate('fetch'),
  'ky (undiciFetch)': bareKy('undici'),
  'tollgate (memory, undiciFetch)': tollgate('undici'),
  '@discordjs/rest': discordjsRest(undefined),
  '@discordjs/rest + tollgate/discordjs (global fetch)': discordjsRest('fetch'),
  '@discordjs/rest + tollgate/discordjs (undiciFetch)': discordjsRest('undici'),
  'tollgate (redis, undiciFetch)': tollgate('undici', redisStore),
};

/**
 * The pairs whose ratio the suite reports: tollgate against ky with the two hooks a limiter needs
 * doing nothing, on the same fetch (the goal); tollgate against bare ky on each fetch; and, to say
 * whose the gap is, ky with tollgate's seam against bare ky, and tollgate against that seam.
 */
export const PAIRS = [
  { transport: 'global fetch', client: 'tollgate (memory, global fetch)', against: KY_WITH_TWO_HOOKS, goal: true },
  { transport: 'global fetch', client: 'tollgate (memory, global fetch)', against: 'ky (global fetch)', goal: false },
  { transport: 'undiciFetch', client: 'tollgate (memory, undiciFetch)', against: 'ky (undiciFetch)', goal: false },
  { transport: 'global fetch', client: KY_WITH_TWO_HOOKS, against: 'ky (global fetch)', goal: false },
  {
    transport: 'global fetch',
    client: 'ky + an afterResponse hook (global fetch)',
    against: 'ky (global fetch)',
    goal: false,
  },
  { transport: 'global fetch', client: KY_WITH_SEAM, against: 'ky (global fetch)', goal: false },
  { transport: 'global fetch', client: 'tollgate (memory, global fetch)', against: KY_WITH_SEAM, goal: false },
  // What tollgate/discordjs costs a discord.js bot per request, on each transport.
  {
    transport: 'global fetch',
    client: '@discordjs/rest + tollgate/discordjs (global fetch)',
    against: '@discordjs/rest',
    goal: false,
  },
  {
    transport: 'undiciFetch',
    client: '@discordjs/rest + tollgate/discordjs (undiciFetch)',
    against: '@discordjs/rest',
    goal: false,
  },
] as const;

async function drive(client: BenchClient, mix: Mix, seconds: number, concurrency: number): Promise<number> {
  const callOf = MIXES[mix];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  let completed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await client.send(callOf(next++));
        completed += 1;
      }
    }),
  );
  return completed;
}

/** A process started from `file` that prints `listening: <url>`; resolves to the URL and the process. */
async function startListening(file: string): Promise<{ baseUrl: string; child: ReturnType<typeof spawn> }> {
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /listening: (\S+)/.exec(line)?.[1];
    if (url) return { baseUrl: url, child };
  }
  throw new Error(`${file} exited before listening`);
}

/** The upstream (bench/upstream.ts) in its own process. */
export const startUpstream = () => startListening(fileURLToPath(new URL('./upstream.ts', import.meta.url)));

/** A client in a process of its own, kept for the whole run: one line of JSON per command. */
class ClientProcess {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #lines: AsyncIterator<string>;

  constructor(name: string, baseUrl: string) {
    this.#child = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), CHILD_FLAG, JSON.stringify({ name, baseUrl })],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    this.#lines = createInterface({ input: this.#child.stdout })[Symbol.asyncIterator]();
  }

  async #answer<T>(command: object): Promise<T> {
    this.#child.stdin.write(`${JSON.stringify(command)}\n`);
    const { value, done } = await this.#lines.next();
    if (done) throw new Error('bench: a client process ended early');
    return JSON.parse(value) as T;
  }

  /** What `seconds` of `mix` did in the client's process. */
  run(mix: Mix, seconds: number, concurrency: number): Promise<RoundMeasure> {
    return this.#answer<RoundMeasure>({ mix, seconds, concurrency });
  }

  async close(): Promise<void> {
    await this.#answer({ close: true });
  }
}

export async function runOverheadBench(
  options: OverheadOptions,
  names = Object.keys(CLIENTS),
): Promise<{ results: OverheadResult[]; ratios: OverheadRatio[] }> {
  const { baseUrl, child } = await startUpstream();
  const mixes = Object.keys(MIXES) as Mix[];
  const perRound = new Map(names.map((name) => [name, { spread: [], 'one bucket': [] } as Record<Mix, number[]>]));
  const measures = new Map(
    names.map((name) => [name, { spread: [], 'one bucket': [] } as Record<Mix, RoundMeasure[]>]),
  );
  const clients = names.map((name) => new ClientProcess(name, baseUrl));
  try {
    for (const client of clients) {
      for (const mix of mixes) await client.run(mix, options.warmupSeconds / mixes.length, options.concurrency);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const mix of mixes) {
        // Each round starts with another client, so no client always follows the same one.
        for (let turn = 0; turn < clients.length; turn++) {
          const index = (round + turn) % clients.length;
          const measure = await clients[index]!.run(mix, options.seconds, options.concurrency);
          perRound.get(names[index]!)![mix].push(measure.completed / options.seconds);
          measures.get(names[index]!)![mix].push(measure);
        }
      }
    }
    await Promise.all(clients.map((client) => client.close()));
  } finally {
    child.kill();
  }
  const results = mixes.flatMap((mix) => {
    const ceiling = median(perRound.get(names[0]!)![mix]);
    return names.map((name) => {
      const rounds = perRound.get(name)![mix];
      const requestsPerSecond = median(rounds);
      const each = measures.get(name)![mix];
      const perRequest = (value: (measure: RoundMeasure) => number) =>
        median(each.map((measure) => value(measure) / measure.completed));
      return {
        mix,
        client: name,
        requestsPerSecond,
        rounds,
        ofCeiling: requestsPerSecond / ceiling,
        cpuMicrosPerRequest: perRequest((measure) => measure.cpuMicros),
        gcPerThousand: perRequest((measure) => measure.gcCount * 1000),
        gcMicrosPerRequest: perRequest((measure) => measure.gcMicros),
        allocatedBytesPerRequest: perRequest((measure) => measure.allocatedBytes),
      };
    });
  });
  const ratios = mixes.flatMap((mix) =>
    PAIRS.filter((pair) => perRound.has(pair.client) && perRound.has(pair.against)).map((pair) => {
      const against = perRound.get(pair.against)![mix];
      const rounds = perRound.get(pair.client)![mix].map((value, round) => value / against[round]!);
      return { ...pair, mix, ratio: median(rounds), rounds };
    }),
  );
  return { results, ratios };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** In a client's process: set it up, say so, then run each command line until told to close. */
async function serve({ name, baseUrl }: { name: string; baseUrl: string }): Promise<void> {
  const client = await CLIENTS[name]!(baseUrl);
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { mix: Mix; seconds: number; concurrency: number } | { close: true };
    if ('close' in command) {
      await client.close();
      console.log('{}');
      return;
    }
    const stop = countAllocations();
    const cpu = process.cpuUsage();
    const completed = await drive(client, command.mix, command.seconds, command.concurrency);
    const { user, system } = process.cpuUsage(cpu);
    const measure: RoundMeasure = { completed, cpuMicros: user + system, ...stop() };
    console.log(JSON.stringify(measure));
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  await serve(childArgument<{ name: string; baseUrl: string }>()!);
  process.exit(0);
}
