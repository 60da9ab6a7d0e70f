/**
 * Where a client's time goes: `node bench/profile.ts ['<client>'] [<mix>] [<seconds>]` runs one
 * client of the overhead suite (default `tollgate (memory, global fetch)`, both mixes, 8 s), or
 * one of the proxy suite's proxies (`'tollgate proxy'`, `'@discordjs/proxy'`: the proxy's own
 * process, one token), against the upstream under `--cpu-prof`, then prints the profile's top functions by self time
 * and the share of each package (ky, undici, tollgate's src/, generated/, node: internals, GC).
 * For finding what to take out of the hot path; the overhead suite stays the measure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startUpstream } from './overhead.ts';
import { discordjsProxy, stop, throughput, tollgateProxy } from './proxy.ts';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [client = 'tollgate (memory, global fetch)', mix = 'both', seconds = '8'] = process.argv.slice(2);

/** Which part of the program a frame belongs to. */
function packageOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)' || name === '(idle)') return name;
  if (url.includes('/node_modules/')) return url.split('/node_modules/')[1]!.split('/')[0]!;
  if (url.includes('/src/')) return `tollgate src/${url.split('/src/')[1]!.split('/')[0]}`;
  if (url.includes('/generated/')) return 'tollgate generated/';
  if (url.includes('/bench/')) return 'bench';
  if (url.startsWith('node:') || url === '') return 'node internals';
  return url;
}

/** The overhead suite's child for `client`, under the profiler: requests completed and its CPU. */
async function profileClient(
  baseUrl: string,
  dir: string,
): Promise<{ completed: number; cpuMicros: number; what: string }> {
  const overhead = fileURLToPath(new URL('./overhead.ts', import.meta.url));
  const worker = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, overhead, '--child', JSON.stringify({ name: client, baseUrl })],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const mixes = mix === 'both' ? ['spread', 'one bucket'] : [mix];
  for (const each of mixes) {
    worker.stdin.write(`${JSON.stringify({ mix: each, seconds: Number(seconds) / mixes.length, concurrency: 32 })}\n`);
  }
  worker.stdin.write('{"close":true}\n');
  let output = '';
  worker.stdout.on('data', (chunk: Buffer) => (output += chunk));
  await new Promise((resolve) => worker.on('close', resolve));
  const rounds = output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { completed?: number; cpuMicros?: number });
  return {
    completed: rounds.reduce((sum, round) => sum + (round.completed ?? 0), 0),
    cpuMicros: rounds.reduce((sum, round) => sum + (round.cpuMicros ?? 0), 0),
    what: `${client}, ${mixes.join(' + ')}`,
  };
}

/** A proxy of the proxy suite under the profiler, driven as its throughput is measured (one token). */
async function profileProxy(
  baseUrl: string,
  dir: string,
): Promise<{ completed: number; cpuMicros: number; what: string }> {
  const upstream = new URL(baseUrl).origin;
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  const proxy =
    client === 'tollgate proxy'
      ? await tollgateProxy(upstream, undefined, nodeArgs)
      : await discordjsProxy(upstream, nodeArgs);
  try {
    const measured = await throughput(proxy, client, 1, Number(seconds));
    // The profile covers the warm-up too: its requests count.
    return {
      completed: measured.sent,
      cpuMicros: measured.cpuMicrosPerRequest * measured.sent,
      what: `${client}, one token, 32 callers`,
    };
  } finally {
    await stop(proxy); // the profile is written as it exits
  }
}

const { baseUrl, child: upstream } = await startUpstream();
const dir = mkdtempSync(join(tmpdir(), 'tollgate-profile-'));
try {
  const proxied = client === 'tollgate proxy' || client === '@discordjs/proxy';
  const { completed, cpuMicros, what } = await (proxied ? profileProxy : profileClient)(baseUrl, dir);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  // Each sample's time to the nearest frame of tollgate's own code above it (else ky's, else
  // the bench's): what tollgate's functions cost with everything they call in node and ky.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byOwner = new Map<string, number>();
  const ownerOf = (id: number): string => {
    let fallback: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = nodes.get(at)!.callFrame;
      const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|generated|node_modules|bench)\//, '$1/')}:${lineNumber + 1}`;
      if (url.includes('/src/') || url.includes('/generated/')) return name;
      if (fallback === undefined && url.includes('/node_modules/ky/')) fallback = `ky: ${name}`;
    }
    return fallback ?? 'outside tollgate and ky (the event loop, undici, GC, the bench)';
  };
  for (const [id, us] of self) byOwner.set(ownerOf(id), (byOwner.get(ownerOf(id)) ?? 0) + us);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*\/(node_modules|src|generated|bench)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  // CPU time per request, in µs: comparable between clients that complete different numbers.
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ '%': ((us / total) * 100).toFixed(1), 'µs/request': (us / completed).toFixed(1), name }));
  if (process.env.PROFILE_JSON) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      process.env.PROFILE_JSON,
      JSON.stringify({ completed, byFunction: [...byFunction], byPackage: [...byPackage] }),
    );
  }
  console.log(
    `${what}, ${seconds} s: ${completed} requests, ${(cpuMicros / completed).toFixed(1)} µs of CPU per request (profiler on)`,
  );
  console.table(top(byPackage, 14));
  console.table(top(byFunction, 40));
  console.log('with what they call (inclusive of node and ky below them):');
  console.table(top(byOwner, 30));
} finally {
  upstream.kill();
  rmSync(dir, { recursive: true, force: true });
}
