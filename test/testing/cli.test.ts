/** The reference service from the command line: both APIs, and bad flags in one line. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

async function start(args: string[]): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, ['src/testing/cli.ts', '--port', '0', '--quiet', ...args], { cwd: root });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = (await lines.next()).value as string;
  const baseUrl = /listening: (\S+)/.exec(first)?.[1];
  if (!baseUrl) throw new Error(`unexpected output: ${first}`);
  return { baseUrl, stop: () => child.kill() };
}

it.each([
  ['v10', /\/api\/v10$/, (headers: Headers) => expect(headers.get('x-ratelimit-reset-after')).toMatch(/^\d+\.\d{3}$/)],
  ['v6', /\/api\/v6$/, (headers: Headers) => expect(headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)],
])('--api %s serves that API', async (api, path, check) => {
  const { baseUrl, stop } = await start(['--api', api]);
  try {
    expect(baseUrl).toMatch(path);
    const response = await fetch(`${baseUrl}/channels/1`, { headers: { authorization: 'Bot cli' } });
    expect(response.status).toBe(200);
    check(response.headers);
  } finally {
    stop();
  }
}, 20_000);

it('--api with another value is one clear line and exit 2', async () => {
  const child = spawn(process.execPath, ['src/testing/cli.ts', '--api', 'v7'], { cwd: root });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(2);
  expect(stderr).toBe('--api must be v6 or v10, got v7\n');
}, 20_000);
