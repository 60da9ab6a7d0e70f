/** `npm start` runs to its report (a short run of the same script, as a child process). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const USAGE =
  'usage: npm start -- [--api v10|v6] [--base-url URL --token TOKEN] [--requests 300] [--concurrency 24] [--metrics]';

it('the demo drives the SDK against the bundled v10 reference service: no 429 after first contact', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/demo.ts', '--requests', '24', '--concurrency', '6'],
    { cwd: root, timeout: 60_000 },
  );
  expect(stdout).toMatch(/tollgate demo \(v10\)/);
  expect(stdout).toMatch(/calls completed\s+24 of 24/);
  expect(stdout).toMatch(/429s after first contact\s+0\n/);
  expect(stdout).toMatch(/achieved \/ allowed\s+\d+ % of the allowed rate/);
}, 70_000);

it('--api v6 runs the seed rules: global 429s are waited out, buckets never exceeded', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/demo.ts', '--api', 'v6', '--requests', '24', '--concurrency', '6'],
    { cwd: root, timeout: 60_000 },
  );
  expect(stdout).toMatch(/tollgate demo \(v6\)/);
  expect(stdout).toMatch(/calls completed\s+24 of 24/);
  expect(stdout).toMatch(/429s received\s+\d+ \(global: \d+, bucket: 0\)/);
  expect(stdout).toMatch(/most per bucket window\s+[1-5] \(limit 5\)/);
}, 70_000);

describe('the demo reports bad input and unreachable services in one line', () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['scripts/demo.ts', ...args], { cwd: root, timeout: 60_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('-h prints the usage', async () => {
    const { code, stdout } = await run(['-h']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm start/);
  });

  it('an unknown flag: the problem and the usage, exit 2, no stack trace', async () => {
    const { code, stderr } = await run(['--bogus']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "demo: Unknown option '--bogus'\nusage: npm start -- [--api v10|v6] [--base-url URL --token TOKEN] [--requests 300] [--concurrency 24] [--metrics]\n",
    );
  });

  it('--help prints the usage too', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect([code, stdout, stderr]).toEqual([0, `${USAGE}\n`, '']);
  });

  it.each([
    [['extra'], "Unexpected argument 'extra'. This command does not take positional arguments"],
    [['--requests'], "Option '--requests <value>' argument missing"],
    [['--requests', '0'], '--requests must be a whole number from 1 to 100000, got 0'],
    [['--concurrency', '2.5'], '--concurrency must be a whole number from 1 to 1000, got 2.5'],
    [['--api', 'v9'], '--api must be v10 or v6, got v9'],
    [['--base-url', 'not a url'], '--base-url must be an absolute http(s) URL, got not a url'],
    [['--base-url', 'ftp://127.0.0.1/api'], '--base-url must be an absolute http(s) URL, got ftp://127.0.0.1/api'],
    [['--api', 'v6', '--base-url', 'http://127.0.0.1:1/api/v10'], "createClient: api is 'v6' but baseUrl names v10"],
    [['--token='], expect.stringMatching(/^createClient: token must not be empty/)],
  ])('%j: the problem and the usage, exit 2, no stack trace', async (args, problem) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const [line, usage, end, ...rest] = stderr.split('\n');
    expect([line!.replace(/^demo: /, ''), usage, end, rest]).toEqual([problem, USAGE, '', []]);
    expect(line).toMatch(/^demo: /);
  });

  it('a closed port: one line naming the network error, exit 1', async () => {
    const { code, stderr } = await run([
      '--base-url',
      'http://127.0.0.1:1/api',
      '--requests',
      '2',
      '--concurrency',
      '1',
    ]);
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.startsWith('demo:') || line.includes('    at '));
    expect(lines).toEqual([expect.stringMatching(/^demo: NetworkError: .* failed on the network \(fetch failed\)$/)]);
  });
}, 70_000);
