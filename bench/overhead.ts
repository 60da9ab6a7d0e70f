/**
 * Overhead: requests per second through each client against one upstream in a separate process
 * (the reference service with limits far above what is sent, keep-alive, Discord's header
 * dialect on top of the spec's so @discordjs/rest reads its limits too). Every client runs the
 * same request mixes at the same concurrency for the same time, in a fresh process of its own
 * (what else a process has loaded changes V8's speed), after a warm-up; the median of the rounds
 * counts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { Agent, request as undiciRequest } from 'undici';
import { createClient, type Store } from '../src/index.ts';
import { undiciFetch } from '../src/undici/index.ts';
import { childArgument, CHILD_FLAG, runInChild } from './child.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN = 'Bot overhead-bench';
const CHANNELS = 16;

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
}

/** One request of a mix. */
interface Call {
  readonly route: 0 | 1 | 2;
  readonly id: string;
}

/**
 * The request mixes: `spread` cycles three routes over sixteen channel/guild ids (48 buckets,
 * more than the concurrency); `one bucket` sends every request to one channel, as a busy
 * channel does.
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

/** tollgate on a store (memory unless given) and a transport (the runtime's fetch, or undiciFetch). */
function tollgate(
  transport: 'fetch' | 'undici',
  openStore?: () => Promise<Store & { close(): Promise<void> }>,
): ClientFactory {
  return async (baseUrl) => {
    const store = await openStore?.();
    const send = transport === 'undici' ? undiciFetch() : undefined;
    const client = createClient({ baseUrl, token: TOKEN, ...(store && { store }), ...(send && { fetch: send }) });
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

async function redisStore() {
  // Loaded only in the process that measures it (see child.ts).
  const { RedisStore } = await import('../src/redis/index.ts');
  const store = new RedisStore({ url: REDIS_URL, prefix: `tollgate-bench:${randomUUID().slice(0, 8)}` });
  await store.connect();
  return store;
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
  'ky (global fetch)': async (baseUrl) => {
    const api = ky.create({ prefix: baseUrl, headers: { authorization: TOKEN } });
    return { send: (call) => api.get(pathOf(call).slice(1)).json(), close: async () => {} };
  },
  'ky (undiciFetch)': async (baseUrl) => {
    const transport = undiciFetch();
    const api = ky.create({ prefix: baseUrl, headers: { authorization: TOKEN }, fetch: transport });
    return { send: (call) => api.get(pathOf(call).slice(1)).json(), close: () => transport.close() };
  },
  '@discordjs/rest': async (baseUrl) => {
    const { REST } = await import('@discordjs/rest');
    const { origin, pathname } = new URL(baseUrl);
    const version = /\/v(\d+)$/.exec(pathname)?.[1] ?? '6';
    // Its proactive global limit (50/s by default) raised, so it is compared like for like.
    const rest = new REST({
      api: origin + pathname.replace(/\/v\d+$/, ''),
      version,
      globalRequestsPerSecond: 1_000_000_000,
    }).setToken(TOKEN.replace(/^Bot /, ''));
    return {
      send: (call) => rest.get(pathOf(call) as `/${string}`),
      close: async () => {
        rest.clearHashSweeper();
        rest.clearHandlerSweeper();
      },
    };
  },
  'tollgate (memory, global fetch)': tollgate('fetch'),
  'tollgate (memory, undiciFetch)': tollgate('undici'),
  'tollgate (redis, undiciFetch)': tollgate('undici', redisStore),
};

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

/** Starts the upstream in its own process; resolves to its base URL and the process. */
export async function startUpstream(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const cli = fileURLToPath(new URL('../src/testing/cli.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    // v6, as this suite has always measured: a v10 client paces itself at its token's 50 per second.
    [
      cli,
      '--api',
      'v6',
      '--port',
      '0',
      '--limit',
      '1000000000',
      '--global-limit',
      '1000000000',
      '--dialect',
      'discord',
      '--quiet',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const url = /listening: (\S+)/.exec(line)?.[1];
    if (url) return { baseUrl: url, child };
  }
  throw new Error('upstream: the reference service exited before listening');
}

export async function runOverheadBench(
  options: OverheadOptions,
  names = Object.keys(CLIENTS),
): Promise<OverheadResult[]> {
  const { baseUrl, child } = await startUpstream();
  const mixes = Object.keys(MIXES) as Mix[];
  // rounds[name][mix]: requests/s of each round.
  const rounds = new Map<string, Record<Mix, number[]>>();
  try {
    for (const name of names)
      rounds.set(name, await runInChild<Record<Mix, number[]>>(import.meta.url, [], { name, baseUrl, ...options }));
  } finally {
    child.kill();
  }
  return mixes.flatMap((mix) => {
    const ceiling = median(rounds.get(names[0]!)![mix]);
    return names.map((name) => {
      const perRound = rounds.get(name)![mix];
      const requestsPerSecond = median(perRound);
      return { mix, client: name, requestsPerSecond, rounds: perRound, ofCeiling: requestsPerSecond / ceiling };
    });
  });
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Measurement extends OverheadOptions {
  readonly name: string;
  readonly baseUrl: string;
}

/**
 * One client in this (fresh) process: a warm-up over both mixes (the JIT needs a while for
 * ky's code paths), then `rounds` rounds of each mix, interleaved.
 */
async function measure({
  name,
  baseUrl,
  concurrency,
  seconds,
  warmupSeconds,
  rounds,
}: Measurement): Promise<Record<Mix, number[]>> {
  const client = await CLIENTS[name]!(baseUrl);
  const mixes = Object.keys(MIXES) as Mix[];
  const perMix = Object.fromEntries(mixes.map((mix) => [mix, [] as number[]])) as Record<Mix, number[]>;
  try {
    for (const mix of mixes) await drive(client, mix, warmupSeconds / mixes.length, concurrency);
    for (let round = 0; round < rounds; round++) {
      for (const mix of mixes) perMix[mix].push((await drive(client, mix, seconds, concurrency)) / seconds);
    }
  } finally {
    await client.close();
  }
  return perMix;
}

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measure(childArgument<Measurement>()!)));
