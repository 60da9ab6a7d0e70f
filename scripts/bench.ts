/**
 * `npm run bench`: the benchmarks (never part of `npm test`). Prints a table and writes JSON to
 * bench/results/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDecisionBench } from '../bench/decision.ts';

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
