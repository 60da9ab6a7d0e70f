/** The reference service from the command line: both APIs (v10 unless --api v6); -h the usage; bad input one line, the usage, exit 2. */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { runToExit } from '../support/command-line.ts';

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
])(
  '--api %s serves that API',
  async (api, path, check) => {
    const { baseUrl, stop } = await start(['--api', api]);
    try {
      expect(baseUrl).toMatch(path);
      const response = await fetch(`${baseUrl}/channels/1`, { headers: { authorization: 'Bot cli' } });
      expect(response.status).toBe(200);
      check(response.headers);
    } finally {
      stop();
    }
  },
  20_000,
);

it('without --api it speaks v10, as the client does', async () => {
  const { baseUrl, stop } = await start([]);
  try {
    expect(baseUrl).toMatch(/\/api\/v10$/);
    const response = await fetch(`${baseUrl}/channels/1`, { headers: { authorization: 'Bot cli' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-reset-after')).toMatch(/^\d+\.\d{3}$/);
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
  expect(stderr).toBe('--api must be v10 or v6, got v7\n');
}, 20_000);

const USAGE =
  'usage: tollgate-reference-service [--port 8080] [--limit 5] [--window 1000] [--global-limit 50] [--global-window 1000] [--api v10|v6] [--dialect spec|discord] [--quiet]\n';

/** Runs the CLI to its exit: code, stdout and stderr. */
const run = (args: string[]) => runToExit('src/testing/cli.ts', args);

it.each([['-h'], ['--help']])(
  '%s prints the usage, exit 0',
  async (flag) => {
    expect(await run([flag])).toEqual({ code: 0, stdout: USAGE, stderr: '' });
  },
  20_000,
);

it.each([
  [['--bogus'], "Unknown option '--bogus'"],
  [['extra'], "Unexpected argument 'extra'. This command does not take positional arguments"],
  [['--port'], "Option '--port <value>' argument missing"],
  [['--limit', '0'], '--limit must be a whole number of at least 1, got 0'],
  [['--window', '1e3'], '--window must be a whole number of at least 1, got 1e3'],
  [['--global-limit', ''], '--global-limit must be a whole number of at least 1, got '],
  [['--port', '99999'], '--port must be a whole number from 0 to 65535, got 99999'],
  [['--port', '-1'], expect.stringMatching(/^Option '--port' argument is ambiguous\. /)],
  [['--dialect', 'ietf'], '--dialect must be spec or discord, got ietf'],
])(
  '%j: one line naming the problem, the usage, exit 2, no stack trace',
  async (args, problem) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr.split('\n')).toEqual([problem, '']);
    expect(stdout).toBe(USAGE);
  },
  20_000,
);

it('a port in use: one line, the usage, exit 2', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const { code, stdout, stderr } = await run(['--port', String(port)]);
    expect([code, stderr, stdout]).toEqual([2, `--port ${port}: the port is in use\n`, USAGE]);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
}, 20_000);
