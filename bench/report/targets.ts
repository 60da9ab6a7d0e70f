/**
 * The report's targets: what each suite's latest results are held to, one function a suite, in
 * the order the report lists them.
 */
import { LATENCY_MS } from '../v10.ts';
import type { Latest, PaginationResult, Target } from './latest.ts';
import { fixed } from './rows.ts';

/** The targets one suite's latest results are held to (none when it has no results). */
type SuiteTargets = (results: Latest) => Target[];

const yes = (ok: boolean) => (ok ? 'yes' : 'NO');

/** Each suite's targets, in the report's order. */
const SUITE_TARGETS: readonly SuiteTargets[] = [
  overheadTargets,
  decisionTargets,
  firstContactTargets,
  sharedStoreTargets,
  globalPaceTargets,
  v10Targets,
  memoryTargets,
  paginationTargets,
  cloudflareTargets,
  discordjsTargets,
  proxyTargets,
];

/** Every target, from the latest results of every suite. */
export function summarise(results: Latest): Target[] {
  return SUITE_TARGETS.flatMap((targets) => targets(results));
}

function overheadTargets(results: Latest): Target[] {
  if (!results.overhead) return [];
  const targets: Target[] = [];
  const { results: overhead, ratios } = results.overhead;
  for (const { mix, transport, ratio } of ratios.filter((r) => r.goal)) {
    targets.push({
      target: `tollgate ≥ 0.9× the requests/s of ky with two hooks doing nothing, same fetch (${transport}, ${mix})`,
      measured: `${fixed(ratio, 2)}×`,
      met: yes(ratio >= 0.9),
    });
  }
  for (const mix of new Set(overhead.map((r) => r.mix))) {
    const of = (client: string) => overhead.find((r) => r.mix === mix && r.client === client)?.requestsPerSecond ?? NaN;
    const ratio = of('tollgate (memory, undiciFetch)') / of('@discordjs/rest');
    targets.push({
      target: `tollgate with tollgate/undici ≥ @discordjs/rest requests/s (${mix})`,
      measured: `${fixed(ratio, 2)}×`,
      met: yes(ratio >= 1),
    });
  }
  return targets;
}

function decisionTargets(results: Latest): Target[] {
  if (!results.decision) return [];
  const pure = results.decision[0]!;
  return [
    {
      target: 'one decision < 300 ns',
      measured: `${fixed(pure.nsPerDecision)} ns`,
      met: yes(pure.nsPerDecision < 300),
    },
  ];
}

/** The rate-limit suite's tollgate runs and the shared-store suite together. */
function firstContactTargets(results: Latest): Target[] {
  const after = [
    ...(results.rateLimits?.filter((r) => r.client === 'tollgate').map((r) => r.status429AfterFirstContact) ?? []),
    ...(results.shared?.map((r) => r.bucket429s) ?? []),
  ];
  if (after.length === 0) return [];
  const total = after.reduce((sum, count) => sum + count, 0);
  return [
    {
      target: 'zero 429s after first contact (rate-limit and shared-store scenarios)',
      measured: String(total),
      met: yes(total === 0),
    },
  ];
}

function sharedStoreTargets(results: Latest): Target[] {
  const four = results.shared?.find((r) => r.scenario === 'limited' && r.processes === 4);
  if (four?.specClientSeconds === undefined) return [];
  const ratio = four.specClientSeconds / four.spanSeconds;
  return [
    {
      target: '4 processes on Redis ≥ 0.9× a spec client (time of a zero-latency client / span)',
      measured: `${fixed(ratio, 2)}×`,
      met: yes(ratio >= 0.9),
    },
  ];
}

function globalPaceTargets(results: Latest): Target[] {
  if (!results.globalPace) return [];
  const worst = Math.min(...results.globalPace.map((r) => r.minimumSeconds / r.spanSeconds));
  const limited = results.globalPace.reduce((sum, r) => sum + r.status429, 0);
  return [
    {
      target: 'v10 global pace over 4 and 8 processes on Redis: ≥ 0.97 of the least time, zero 429s',
      measured: `${fixed(worst, 3)}, ${limited} 429s`,
      met: yes(worst >= 0.97 && limited === 0),
    },
  ];
}

function v10Targets(results: Latest): Target[] {
  if (!results.v10) return [];
  const targets: Target[] = [];
  const ours = results.v10.filter((r) => r.client === 'tollgate');
  const worst = Math.min(...ours.map((r) => r.minimumSeconds / r.spanSeconds));
  targets.push({
    target: `v10, ${LATENCY_MS} ms latency: ≥ 0.95 of the least time the limits allow (worst scenario)`,
    measured: fixed(worst, 3),
    met: yes(worst >= 0.95),
  });
  const global = ours.find((r) => r.scenario === 'global');
  if (global)
    targets.push({
      target: 'v10 global pace: ≥ 0.97 of the least time, zero global 429s',
      measured: `${fixed(global.minimumSeconds / global.spanSeconds, 3)}, ${global.global429} global 429s`,
      met: yes(global.minimumSeconds / global.spanSeconds >= 0.97 && global.global429 === 0),
    });
  const after = ours.reduce((sum, r) => sum + r.status429AfterFirstContact, 0);
  targets.push({ target: 'v10: zero 429s after first contact', measured: String(after), met: yes(after === 0) });
  const versus = ours.map((r) => {
    const peer = results.v10!.find((p) => p.scenario === r.scenario && p.client === '@discordjs/rest')!;
    return `${r.scenario} ${fixed(r.spanSeconds, 2)} vs ${fixed(peer.spanSeconds, 2)} s`;
  });
  const ahead = ours.every((r) => {
    const peer = results.v10!.find((p) => p.scenario === r.scenario && p.client === '@discordjs/rest')!;
    return r.spanSeconds <= peer.spanSeconds * 1.01;
  });
  targets.push({
    target: 'v10: ahead of @discordjs/rest (span; within 1 % counts as even)',
    measured: versus.join('; '),
    met: yes(ahead),
  });
  return targets;
}

function memoryTargets(results: Latest): Target[] {
  if (!results.memory) return [];
  return [
    {
      target: 'bucket map bounded over a million distinct ids',
      measured: `${fixed(results.memory.heapPerBucketBytes)} B/bucket; most held in the long run ${results.memory.longRunMostBuckets}`,
      met: yes(
        results.memory.bucketsAfterShed <= 1 && results.memory.longRunMostBuckets < results.memory.longRunIds / 100,
      ),
    },
  ];
}

/** Heap growth between the first and the last checkpoint of the 100 000-item walk (MiB). */
function heapGrowth({ memory }: PaginationResult): number {
  return memory.heapMiB.at(-1)!.heapMiB - memory.heapMiB[0]!.heapMiB;
}

function paginationTargets(results: Latest): Target[] {
  if (!results.pagination) return [];
  const { walk } = results.pagination;
  const ratio = walk.minimumSeconds / walk.spanSeconds;
  const growth = heapGrowth(results.pagination);
  return [
    {
      target: 'walking 10 000 messages at 5 requests a second: ≥ 0.95 of the least time, no 429',
      measured: `${fixed(ratio, 3)} (${fixed(walk.spanSeconds, 2)} s for ${fixed(walk.minimumSeconds)} s), ${walk.status429} 429s`,
      met: yes(ratio >= 0.95 && walk.status429 === 0),
    },
    {
      target: 'walking 100 000 items lazily: the heap does not grow with them (< 1 MiB from 10 000 to 100 000)',
      measured: `${fixed(growth, 2)} MiB`,
      met: yes(growth < 1),
    },
  ];
}

function cloudflareTargets(results: Latest): Target[] {
  if (!results.cloudflare) return [];
  const targets: Target[] = [];
  const largest = Math.max(...results.cloudflare.bundles.map((bundle) => bundle.gzipKiB));
  targets.push({
    target: "a Worker with tollgate far under Workers' 3 MB gzipped (free plan): < 10 % of it",
    measured: `${fixed(largest, 1)} KiB gzipped`,
    met: yes(largest < 0.1 * 3 * 1024),
  });
  const object = results.cloudflare.runs.find((run) => run.store === 'durable-object');
  if (object) {
    targets.push({
      target: 'Durable Object store: 2 object calls per request (admit, settle), no 429',
      measured: `${fixed(object.objectCallsPerRequest, 2)} calls, ${object.status429} 429s`,
      met: yes(object.objectCallsPerRequest <= 2 && object.status429 === 0),
    });
  }
  return targets;
}

function discordjsTargets(results: Latest): Target[] {
  if (!results.discordjs) return [];
  const bridged = results.discordjs.filter((r) => r.client !== 'plain @discordjs/rest');
  const ratios = bridged.map((r) => r.leastSeconds / r.spanSeconds);
  const status429 = bridged.reduce((sum, r) => sum + r.bucket429s + r.global429s, 0);
  return [
    {
      target:
        'discord.js fleet (4 processes) through tollgate/discordjs: ≥ 0.95 of the least time in every run, zero 429s',
      measured: `${ratios.map((ratio) => fixed(ratio, 3)).join(', ')}; ${status429} 429s`,
      met: yes(ratios.length > 0 && ratios.every((ratio) => ratio >= 0.95) && status429 === 0),
    },
  ];
}

function proxyTargets(results: Latest): Target[] {
  if (!results.proxy) return [];
  const targets: Target[] = [];
  const { throughput, latency, replicas } = results.proxy;
  const ours = throughput.find((t) => t.proxy === 'tollgate proxy' && t.tokens === 1);
  const theirs = throughput.find((t) => t.proxy === '@discordjs/proxy');
  if (ours && theirs) {
    targets.push({
      target: 'tollgate proxy ≥ @discordjs/proxy requests/s on one token',
      measured: `${fixed(ours.requestsPerSecond / theirs.requestsPerSecond, 2)}× (${fixed(ours.requestsPerSecond, 0)} vs ${fixed(theirs.requestsPerSecond, 0)})`,
      met: yes(ours.requestsPerSecond >= theirs.requestsPerSecond),
    });
  }
  const at250 = (proxy: string) => latency.find((l) => l.proxy === proxy && l.rate === 250);
  const [ours250, theirs250] = [at250('tollgate proxy'), at250('@discordjs/proxy')];
  if (ours250 && theirs250) {
    targets.push({
      target: "tollgate proxy: p99 added latency at 250 requests/s ≤ 2× @discordjs/proxy's, same run",
      measured: `${fixed(ours250.addedP99Ms, 2)} vs ${fixed(theirs250.addedP99Ms, 2)} ms (p99 ${fixed(ours250.p99Ms, 2)} vs ${fixed(theirs250.p99Ms, 2)} ms)`,
      met: yes(ours250.addedP99Ms <= 2 * theirs250.addedP99Ms),
    });
  }
  const added = latency.find((l) => l.proxy === 'tollgate proxy' && l.rate === 1000);
  if (added) {
    targets.push({
      target: 'tollgate proxy: p99 added latency < 2 ms at 1000 requests/s',
      measured: `${fixed(added.addedP99Ms, 2)} ms`,
      met: yes(added.addedP99Ms < 2),
    });
  }
  targets.push({
    target: 'two proxy replicas on one Redis, 40 ms: ≥ 0.97 of the safe bound of the global limit, zero 429s',
    measured: `${fixed(replicas.ofSafe, 3)} (${fixed(replicas.ofLeast, 3)} of the least at 0 ms), ${replicas.status429} 429s`,
    met: yes(replicas.ofSafe >= 0.97 && replicas.status429 === 0),
  });
  return targets;
}
