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

  it("--global-limit, given again for each bot: a whole number is the default, <bot id>=<n> a bot's own", () => {
    const bots = { '80351110224678912': 500, '175928847299117063': 1000 };
    expect(
      proxyOf([
        'proxy',
        '--global-limit',
        '80351110224678912=500',
        '--global-limit',
        '50',
        '--global-limit',
        '175928847299117063=1000',
      ]).options,
    ).toMatchObject({ globalLimit: 50, botGlobalLimits: bots });
    // Its variable is a list, commas or spaces between.
    const fromEnv = proxyOf(['proxy'], {
      TOLLGATE_PROXY_GLOBAL_LIMIT: ' 50, 80351110224678912=500  175928847299117063=1000 ',
    }).options;
    expect(fromEnv).toMatchObject({ globalLimit: 50, botGlobalLimits: bots });
    expect(checkProxyOptions(fromEnv)).toEqual(fromEnv);
    // Overrides alone keep the default; a flag wins over the whole variable.
    expect(proxyOf(['proxy', '--global-limit', '80351110224678912=500']).options).not.toHaveProperty('globalLimit');
    const flagWins = proxyOf(['proxy', '--global-limit', '60'], {
      TOLLGATE_PROXY_GLOBAL_LIMIT: '50 80351110224678912=500',
    });
    expect(flagWins.options).toMatchObject({ globalLimit: 60 });
    expect(flagWins.options).not.toHaveProperty('botGlobalLimits');
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
    [
      ['proxy', '--global-limit', 'lots'],
      {},
      '--global-limit must be a whole number, or <bot id>=<whole number> for one bot, got "lots"',
    ],
    [['proxy', '--global-limit', '80351110224678912:500'], {}, 'got "80351110224678912:500"'],
    [['proxy', '--global-limit', '80351110224678912=5e2'], {}, 'got "80351110224678912=5e2"'],
    [
      ['proxy', '--global-limit', '50', '--global-limit', '60'],
      {},
      '--global-limit gives the default twice (50 and 60)',
    ],
    [
      ['proxy'],
      { TOLLGATE_PROXY_GLOBAL_LIMIT: '80351110224678912=500,80351110224678912=600' },
      '--global-limit gives bot 80351110224678912 twice (500 and 600)',
    ],
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
    [
      ['proxy', '--global-limit', '12=500'],
      'botGlobalLimits names "12", which is not a bot id (a bot\'s user id: 15 to 20 digits, no leading zero)',
    ],
    [['proxy', '--global-limit', '080351110224678912=500'], 'botGlobalLimits names "080351110224678912"'],
    [
      ['proxy', '--global-limit', '80351110224678912=100001'],
      'botGlobalLimits["80351110224678912"] must be at most 100000 (a whole number of requests per second from 1 to 100000)',
    ],
    [['proxy', '--global-limit', '80351110224678912=0'], 'botGlobalLimits["80351110224678912"] must be at least 1'],
    [['proxy', '--port', '70000'], 'port must be at most 65535'],
  ] as const)('%j: a value the proxy refuses, in one line', ([argv, message]) => {
    expect(() => checkProxyOptions(proxyOf([...argv]).options)).toThrow(message);
  });
});
