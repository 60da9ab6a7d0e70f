/**
 * `tollgate proxy`'s command line, read without starting a process: flags, their variables (a
 * flag wins), and every bad input named in one line.
 */
import { describe, expect, it } from 'vitest';
import { commandOf, UsageError } from '../../src/proxy/command-line.ts';
import { checkProxyOptions } from '../../src/proxy/options.ts';

const proxyOf = (argv: string[], env: Record<string, string> = {}) => {
  const command = commandOf(argv, env);
  if (command.kind !== 'proxy') throw new Error('not the proxy');
  return command;
};

describe('tollgate proxy: flags and variables', () => {
  it('reads every flag, and its variable where the flag is not given; a flag wins', () => {
    const command = proxyOf(
      [
        'proxy',
        '--port',
        '0',
        '--upstream',
        'http://127.0.0.1:9',
        '--max-wait',
        '1500',
        '--metrics',
        '--global-limit',
        '100',
      ],
      {
        TOLLGATE_PROXY_PORT: '8181',
        TOLLGATE_PROXY_HOST: '0.0.0.0',
        TOLLGATE_PROXY_REDIS: 'redis://r:6379',
        TOLLGATE_PROXY_DRAIN: '250',
      },
    );
    expect(command).toEqual({
      kind: 'proxy',
      options: {
        host: '0.0.0.0',
        port: 0,
        upstream: 'http://127.0.0.1:9',
        maxWait: 1500,
        drainMs: 250,
        globalLimit: 100,
        metrics: true,
      },
      redis: 'redis://r:6379',
      prefix: undefined,
    });
    expect(checkProxyOptions(command.options)).toEqual(command.options);
    expect(
      proxyOf(['proxy'], { TOLLGATE_PROXY_METRICS: '1', TOLLGATE_PROXY_LOG_LEVEL: 'debug' }).options,
    ).toMatchObject({
      metrics: true,
      logLevel: 'debug',
    });
  });

  it('--help, alone or after proxy, answers the usage', () => {
    expect(commandOf(['--help'], {})).toMatchObject({
      kind: 'help',
      text: expect.stringContaining('usage: tollgate proxy'),
    });
    expect(commandOf(['proxy', '--help'], {})).toMatchObject({
      kind: 'help',
      text: expect.stringContaining('TOLLGATE_PROXY_MAX_WAIT'),
    });
  });

  it.for([
    [['proxy', '--port', 'eighty'], {}, '--port must be a whole number, got "eighty"'],
    [['proxy', '--frobnicate'], {}, "Unknown option '--frobnicate'"],
    [['proxy', 'extra'], {}, 'Unexpected argument'],
    [['serve'], {}, 'unknown command "serve"'],
    [[], {}, 'a command is needed'],
    [['proxy', '--log-level', 'loud'], {}, '--log-level must be info, debug or silent'],
    [['proxy'], { TOLLGATE_PROXY_MAX_BODY: '1e6' }, '--max-body must be a whole number'],
    [['proxy'], { TOLLGATE_PROXY_METRICS: 'yes' }, 'TOLLGATE_PROXY_METRICS must be 1, 0, true or false'],
  ] as const)('%j %j: one clear line', ([argv, env, message]) => {
    expect(() => commandOf([...argv], env)).toThrow(UsageError);
    expect(() => commandOf([...argv], env)).toThrow(message);
  });

  it.for([
    [['proxy', '--upstream', 'ftp://example.com'], 'upstream must be an http(s) origin'],
    [
      ['proxy', '--upstream', 'https://discord.com/api'],
      'upstream must be an http(s) origin such as https://discord.com (no path)',
    ],
    [['proxy', '--secret', 'short'], 'secret must be at least 16 characters'],
    [['proxy', '--global-limit', '0'], 'globalLimit must be at least 1'],
    [['proxy', '--port', '70000'], 'port must be at most 65535'],
  ] as const)('%j: a value the proxy refuses, in one line', ([argv, message]) => {
    expect(() => checkProxyOptions(proxyOf([...argv]).options)).toThrow(message);
  });
});
