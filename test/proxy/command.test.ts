/**
 * `tollgate proxy` in the test's own process (src/proxy/command.ts): what it prints, the exit code
 * of each outcome, the options the proxy gets, and how it stops. The proxy is a stand-in here;
 * replicas.int.test.ts runs the real command as a child process, and command.int.test.ts its Redis.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TollgateArgumentError } from '../../src/errors.ts';
import {
  drainWhenOrphaned,
  ORPHAN_CHECK_MS,
  startCommand,
  type CommandParts,
  type Started,
} from '../../src/proxy/command.ts';
import type { ProxyOptions } from '../../src/proxy/options.ts';

/** What one run printed, and the options each proxy it started was given. */
function harness(parts: Partial<CommandParts> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const given: ProxyOptions[] = [];
  const closed: string[] = [];
  const run = (argv: readonly string[], env: Record<string, string | undefined> = {}) =>
    startCommand(
      argv,
      env,
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      {
        createProxy: async (options) => {
          given.push(options);
          return { url: 'http://127.0.0.1:4321', close: async () => void closed.push('proxy') };
        },
        ...parts,
      },
    );
  return { run, out, err, given, closed };
}

const serving = (started: Started) => {
  if (started.kind !== 'serving') throw new Error(`not serving: exit ${started.code}`);
  return started;
};

describe('tollgate proxy, run in process', () => {
  it('--help and -h print the usage on stdout and exit 0; --help after proxy names each variable', async () => {
    for (const argv of [['--help'], ['-h']]) {
      const { run, out, err, given } = harness();
      expect(await run(argv)).toEqual({ kind: 'exit', code: 0 });
      expect(out).toHaveLength(1);
      expect(out[0]).toMatch(/^usage: tollgate proxy/);
      expect(err).toEqual([]);
      expect(given).toEqual([]);
    }
    const { run, out } = harness();
    await run(['proxy', '--help']);
    expect(out[0]).toContain('--max-wait TOLLGATE_PROXY_MAX_WAIT');
  });

  it('a bad command line: one line on stderr that points at --help, exit 2, nothing started', async () => {
    for (const [argv, message] of [
      [[], 'a command is needed'],
      [['serve'], 'unknown command "serve"'],
      [['proxy', '--port', 'eighty'], '--port must be a whole number'],
    ] as const) {
      const { run, out, err, given } = harness();
      expect(await run(argv)).toEqual({ kind: 'exit', code: 2 });
      expect(out).toEqual([]);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(new RegExp(`^tollgate: ${message}.* \\(tollgate proxy --help lists the flags\\)$`));
      expect(given).toEqual([]);
    }
  });

  it('an error that is not a usage error is not made one', async () => {
    const { run } = harness();
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new RangeError('no environment');
        },
      },
    );
    await expect(run(['proxy'], env)).rejects.toThrow(RangeError);
  });

  it('gives the proxy the settings of its flags and variables, and prints one line on stdout when it serves', async () => {
    const { run, out, err, given } = harness();
    const started = serving(await run(['proxy', '--port', '0', '--max-wait', '250'], { TOLLGATE_PROXY_DRAIN: '5' }));
    expect(given).toEqual([{ port: 0, maxWait: 250, drainMs: 5, metrics: false }]);
    expect(out).toEqual(['tollgate proxy listening on http://127.0.0.1:4321']);
    expect(err).toEqual([]);
    expect(started.proxy.url).toBe('http://127.0.0.1:4321');
  });

  it("a setting the proxy refuses: its message without createProxy's prefix, exit 2", async () => {
    const refusing = (error: Error) =>
      harness({
        createProxy: async () => {
          throw error;
        },
      });
    const checked = refusing(new TollgateArgumentError('createProxy: secret must be at least 16 characters'));
    expect(await checked.run(['proxy'])).toEqual({ kind: 'exit', code: 2 });
    expect(checked.err).toEqual(['tollgate: secret must be at least 16 characters']);
    expect(checked.out).toEqual([]);
    // Any other failure (a port taken) is said as it is.
    const other = refusing(new Error('createProxy: listen EADDRINUSE'));
    expect(await other.run(['proxy'])).toEqual({ kind: 'exit', code: 2 });
    expect(other.err).toEqual(['tollgate: createProxy: listen EADDRINUSE']);
  });

  it('stops once, however often it is asked: the proxy drained, exit 0', async () => {
    const { run, closed, err } = harness();
    const started = serving(await run(['proxy']));
    const [first, second] = [started.stop(), started.stop()];
    expect(await first).toBe(0);
    expect(await second).toBe(0);
    expect(closed).toEqual(['proxy']);
    expect(err).toEqual([]);
  });

  it('a close that fails: one line on stderr, exit 1', async () => {
    const { run, err } = harness({
      createProxy: async () => ({
        url: 'http://127.0.0.1:1',
        close: async () => {
          throw new Error('drain interrupted');
        },
      }),
    });
    const started = serving(await run(['proxy']));
    expect(await started.stop()).toBe(1);
    expect(err).toEqual(['tollgate: closing failed: drain interrupted']);
  });

  it("--redis without ioredis: one line that says so, with the loader's first line, exit 2, nothing started", async () => {
    const { run, err, given } = harness({
      loadRedis: async () => {
        throw new Error("Cannot find package 'ioredis'\nRequire stack: …");
      },
    });
    expect(await run(['proxy', '--redis', 'redis://127.0.0.1:1'])).toEqual({ kind: 'exit', code: 2 });
    expect(err).toEqual([
      "tollgate: --redis needs the ioredis package (npm install ioredis): Cannot find package 'ioredis'",
    ]);
    expect(given).toEqual([]);
  });
});

describe('a proxy npx started', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('drains once its launcher is gone, saying why in one JSON line, and looks no more', () => {
    vi.useFakeTimers();
    let parent = 100;
    const stop = vi.fn();
    const err: string[] = [];
    drainWhenOrphaned(
      stop,
      () => parent,
      { out: () => {}, err: (line) => err.push(line) },
      () => new Date(0),
    );
    vi.advanceTimersByTime(ORPHAN_CHECK_MS * 3);
    expect(stop).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(ORPHAN_CHECK_MS - 1);
    expect(stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(err.map((line) => JSON.parse(line))).toEqual([
      { time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'npx, which started the proxy, is gone: draining' },
    ]);
    vi.advanceTimersByTime(ORPHAN_CHECK_MS * 4);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('can be told to look no more', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    const unwatch = drainWhenOrphaned(stop, () => 7, { out: () => {}, err: () => {} });
    expect(vi.getTimerCount()).toBe(1);
    unwatch();
    expect(vi.getTimerCount()).toBe(0);
  });
});
