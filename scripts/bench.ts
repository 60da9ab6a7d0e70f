/**
 * `npm run bench`: the benchmarks (never part of `npm test`). Prints a table and writes JSON to
 * bench/results/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDecisionBench } from '../bench/decision.ts';
import { runSharedStoreBench } from '../bench/shared-store.ts';

const resultsDir = fileURLToPath(new URL('../bench/results/', import.meta.url));

const decisions = await runDecisionBench();
console.log('\nLimiter decision (pre-check + post-update, in memory)');
console.table(
  decisions.map((result) => ({
    task: result.name,
    'ns/decision': result.nsPerDecision.toFixed(1),
    '±%': result.relativeMarginPercent.toFixed(2),
    samples: result.samples,
  })),
);
await mkdir(resultsDir, { recursive: true });
await writeFile(
  join(resultsDir, 'decision.json'),
  `${JSON.stringify({ node: process.version, date: new Date().toISOString(), decisions }, null, 2)}\n`,
);
console.log(`results: ${join('bench', 'results', 'decision.json')}`);

const shared = await runSharedStoreBench();
console.log('\nShared store: processes on one Redis against the reference service (4 buckets)');
console.table(
  shared.map((result) => ({
    scenario: result.scenario,
    processes: result.processes,
    requests: result.requests,
    's': result.seconds.toFixed(2),
    'requests/s': result.requestsPerSecond.toFixed(1),
    'round trips/request': result.roundTripsPerRequest.toFixed(2),
    'bucket 429s': result.bucket429s,
    'max/window (limit)': `${result.maxPerWindow} (${result.limitPerWindow})`,
  })),
);
for (const scenario of ['limited', 'overhead'] as const) {
  const one = shared.find((result) => result.scenario === scenario && result.processes === 1)!;
  const four = shared.find((result) => result.scenario === scenario && result.processes === 4)!;
  console.log(`${scenario}: 4 processes / 1 process aggregate throughput = ${(four.requestsPerSecond / one.requestsPerSecond).toFixed(2)}×`);
}
await writeFile(
  join(resultsDir, 'shared-store.json'),
  `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results: shared }, null, 2)}\n`,
);
