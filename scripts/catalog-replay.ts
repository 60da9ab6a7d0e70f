/**
 * `npm run catalog:replay`: replays Discord's published builds of its OpenAPI document since
 * 2024 (test/fixtures/openapi-history/) through `catalog:sync` on a copy of the catalog, and
 * prints each step: what the sync did, the public API as it reported it, whether the SDK
 * compiled, and whether every call of the step before still compiles where the report says it
 * should (scripts/sync/replay.ts). Exits 1 when a step fails either. `--from <build>` starts
 * later in the history; `--json` prints the steps for tools.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readHistory } from './sync/history.ts';
import { replay, type ReplayStep } from './sync/replay.ts';
import { runMain } from './run-main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const failed = (step: ReplayStep) => step.diagnostics.length > 0 || step.unreported.length > 0;

async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { from: { type: 'string' }, json: { type: 'boolean', default: false } },
      strict: true,
    }));
  } catch (error) {
    console.error(`catalog:replay: ${(error as Error).message}; usage: catalog:replay [--from <build>] [--json]`);
    return 2;
  }
  const builds = await readHistory();
  const start = values.from === undefined ? 0 : builds.findIndex((build) => build.build === values.from);
  if (start < 0) {
    console.error(`catalog:replay: no build ${values.from} in the history (${builds.map((b) => b.build).join(', ')})`);
    return 2;
  }
  const started = performance.now();
  const steps = await replay(builds.slice(start), {
    root,
    onStep: (step) => {
      if (values.json) return;
      const api = Object.entries(step.surface)
        .filter(([, count]) => count > 0)
        .map(([kind, count]) => `${count} ${kind}`)
        .join(', ');
      console.log(
        `${failed(step) ? 'FAIL' : 'ok  '} ${step.build.padEnd(7)} ${step.date}  +${step.added} -${step.removed} ~${step.changed}  api: ${api || 'unchanged'}${step.breaking.length > 0 ? `  breaking: ${step.breaking.join(', ')}` : ''}`,
      );
      for (const line of [
        ...step.diagnostics,
        ...step.unreported.map((m) => `${m}: a call that compiled no longer does, and the report did not say breaking`),
      ])
        console.log(`       ${line}`);
    },
  });
  if (values.json) console.log(JSON.stringify(steps, null, 2));
  const failures = steps.filter(failed).length;
  console.error(
    `catalog:replay: ${steps.length} builds, ${failures} failed, ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return failures === 0 ? 0 : 1;
}

runMain(main);
