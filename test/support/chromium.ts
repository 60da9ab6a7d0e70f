/**
 * Debian's chromium for the browser tests. A fresh machine of this project's kind has none, and
 * `npm test` must pass there: as root with apt (this kind of machine, and CI), the test installs
 * Debian's package itself, once per machine (`.ci/run` does it before the tests, so CI never
 * waits here); elsewhere it fails, saying how to install it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const INSTALL = 'apt-get update && apt-get install -y chromium';

const onPath = (name: string): string | undefined =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, name))
    .find((candidate) => existsSync(candidate));

/** The path of chromium, installed first from Debian's packages where it is missing and this process may. */
export async function ensureChromium(): Promise<string> {
  const found = onPath('chromium');
  if (found) return found;
  if (process.getuid?.() !== 0 || onPath('apt-get') === undefined) {
    throw new Error(`no \`chromium\` on PATH: install Debian's (\`${INSTALL}\`, as root; docs/catalog.md)`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env, timeout: 300_000 });
  await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  const installed = onPath('chromium');
  if (!installed) throw new Error(`\`${INSTALL}\` ran, and there is still no \`chromium\` on PATH`);
  return installed;
}
