#!/usr/bin/env node
/**
 * `tollgate proxy`: the proxy from the command line. Each flag has an environment variable
 * (`--max-wait` ↔ `TOLLGATE_PROXY_MAX_WAIT`); a flag wins. Prints one line on stdout when it
 * serves (`tollgate proxy listening on http://HOST:PORT`), a bad flag or value as one line on
 * stderr with exit code 2, and drains on SIGTERM or SIGINT, then exits 0.
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import { parseArgs } from 'node:util';
import type { Store } from '../contracts/store.ts';
import { TollgateArgumentError } from '../errors.ts';
import { createProxy } from './index.ts';
import type { LogLevel, ProxyOptions } from './options.ts';

const USAGE = `usage: tollgate proxy [--host 127.0.0.1] [--port 8080] [--upstream https://discord.com]
                      [--redis redis://…] [--prefix tollgate] [--secret …] [--max-body bytes]
                      [--max-wait ms] [--global-limit 50] [--metrics] [--log-level info|debug|silent]
                      [--drain ms]`;

/** Each flag, its variable, and how its text becomes an option. */
const FLAGS = {
  host: { type: 'string', env: 'TOLLGATE_PROXY_HOST' },
  port: { type: 'string', env: 'TOLLGATE_PROXY_PORT' },
  upstream: { type: 'string', env: 'TOLLGATE_PROXY_UPSTREAM' },
  redis: { type: 'string', env: 'TOLLGATE_PROXY_REDIS' },
  prefix: { type: 'string', env: 'TOLLGATE_PROXY_PREFIX' },
  secret: { type: 'string', env: 'TOLLGATE_PROXY_SECRET' },
  'max-body': { type: 'string', env: 'TOLLGATE_PROXY_MAX_BODY' },
  'max-wait': { type: 'string', env: 'TOLLGATE_PROXY_MAX_WAIT' },
  metrics: { type: 'boolean', env: 'TOLLGATE_PROXY_METRICS' },
  'log-level': { type: 'string', env: 'TOLLGATE_PROXY_LOG_LEVEL' },
  help: { type: 'boolean', env: '' },
  drain: { type: 'string', env: 'TOLLGATE_PROXY_DRAIN' },
  'global-limit': { type: 'string', env: 'TOLLGATE_PROXY_GLOBAL_LIMIT' },
} as const;

class UsageError extends Error {}

/** A whole number from a flag, or one clear line. */
function wholeNumber(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`--${flag} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text.trim());
}

function settingsOf(argv: readonly string[]): { options: ProxyOptions; redis?: string; prefix?: string } {
  const [command, ...rest] = argv;
  if (command !== 'proxy')
    throw new UsageError(command === undefined ? 'a command is needed' : `unknown command "${command}"`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(Object.entries(FLAGS).map(([name, { type }]) => [name, { type }])),
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help === true) {
    process.stdout.write(
      `${USAGE}\nEach flag has a variable: ${Object.entries(FLAGS)
        .filter(([, { env }]) => env !== '')
        .map(([name, { env }]) => `--${name} ${env}`)
        .join(', ')}.\n`,
    );
    process.exit(0);
  }
  const text = (name: keyof typeof FLAGS): string | undefined => {
    const given = values[name];
    if (typeof given === 'string') return given;
    const env = FLAGS[name].env;
    return env === '' ? undefined : process.env[env] || undefined;
  };
  const metricsEnv = process.env[FLAGS.metrics.env];
  if (metricsEnv !== undefined && !['', '0', '1', 'true', 'false'].includes(metricsEnv)) {
    throw new UsageError(`${FLAGS.metrics.env} must be 1, 0, true or false`);
  }
  const logLevel = text('log-level');
  if (logLevel !== undefined && !['info', 'debug', 'silent'].includes(logLevel)) {
    throw new UsageError(`--log-level must be info, debug or silent, got ${JSON.stringify(logLevel)}`);
  }
  const options: ProxyOptions = {
    ...(text('host') !== undefined && { host: text('host') }),
    ...(text('port') !== undefined && { port: wholeNumber('port', text('port')) }),
    ...(text('upstream') !== undefined && { upstream: text('upstream') }),
    ...(text('secret') !== undefined && { secret: text('secret') }),
    ...(text('max-body') !== undefined && { maxBody: wholeNumber('max-body', text('max-body')) }),
    ...(text('max-wait') !== undefined && { maxWait: wholeNumber('max-wait', text('max-wait')) }),
    ...(text('drain') !== undefined && { drainMs: wholeNumber('drain', text('drain')) }),
    ...(text('global-limit') !== undefined && { globalLimit: wholeNumber('global-limit', text('global-limit')) }),
    metrics: values.metrics === true || metricsEnv === '1' || metricsEnv === 'true',
    ...(logLevel !== undefined && { logLevel: logLevel as LogLevel }),
  };
  return { options, redis: text('redis'), prefix: text('prefix') };
}

/** The Redis store, if asked for: shared limits, served on fallback limits while Redis is away. */
async function redisStore(
  url: string,
  prefix: string | undefined,
): Promise<{ store: Store; ready: () => Promise<boolean>; close: () => Promise<void> }> {
  let redisModule;
  try {
    redisModule = await import('../redis/index.ts');
  } catch (error) {
    throw new UsageError(
      `--redis needs the ioredis package (npm install ioredis): ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const store = new redisModule.RedisStore({ url, prefix: prefix ?? 'tollgate', onUnavailable: 'local' });
  const ready = async () => {
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000).unref());
    const ping = store.redis.ping().then(
      (answer) => answer === 'PONG',
      () => false,
    );
    return Promise.race([ping, timeout]);
  };
  return { store, ready, close: () => store.close() };
}

async function main(): Promise<void> {
  let settings;
  try {
    settings = settingsOf(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`tollgate: ${error.message} (tollgate proxy --help lists the flags)\n`);
    process.exit(2);
  }
  const shared =
    settings.redis === undefined
      ? undefined
      : await redisStore(settings.redis, settings.prefix).catch((error: unknown) => {
          process.stderr.write(`tollgate: ${(error as Error).message}\n`);
          process.exit(2);
        });
  let proxy;
  try {
    proxy = await createProxy({
      ...settings.options,
      ...(shared && { store: shared.store, storeReady: shared.ready }),
    });
  } catch (error) {
    const message =
      error instanceof TollgateArgumentError ? error.message.replace(/^createProxy: /, '') : (error as Error).message;
    process.stderr.write(`tollgate: ${message}\n`);
    await shared?.close();
    process.exit(2);
  }
  process.stdout.write(`tollgate proxy listening on ${proxy.url}\n`);
  const stop = () => {
    void proxy
      .close()
      .then(() => shared?.close())
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
