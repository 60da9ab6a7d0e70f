/** `npm start` runs to its report (a short run of the same script, as a child process). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it('the demo drives the SDK against the bundled reference service and reports', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/demo.ts', '--requests', '24', '--concurrency', '6'],
    {
      cwd: root,
      timeout: 60_000,
    },
  );
  expect(stdout).toMatch(/calls completed\s+24 of 24/);
  expect(stdout).toMatch(/429s received\s+\d+ \(global: \d+, bucket: 0\)/);
  expect(stdout).toMatch(/most per bucket window\s+[1-5] \(limit 5\)/);
  expect(stdout).toMatch(/achieved \/ allowed/);
}, 70_000);
