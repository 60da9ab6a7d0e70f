/**
 * `tollgate proxy`'s command line read into the proxy's options: each flag, its environment
 * variable (a flag wins), and how its text becomes an option. Pure (the environment is given), so
 * every bad input is tested without starting a process; `command.ts` runs the command.
 */
import { parseArgs } from 'node:util';
import type { LogLevel, ProxyOptions } from './options.ts';

export const USAGE = `usage: tollgate proxy [--host 127.0.0.1] [--port 8080] [--upstream https://discord.com]
                      [--redis redis://…] [--prefix tollgate] [--secret …] [--max-body bytes]
                      [--max-wait ms] [--global-limit 50] [--global-limit <bot id>=500 …] [--metrics]
                      [--log-level info|debug|silent] [--drain ms]`;

/** Each flag, its variable, and how its text becomes an option. */
export const FLAGS = {
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
  // Given again for each bot; its variable is a list (`50, 80351110224678912=500`).
  'global-limit': { type: 'string', env: 'TOLLGATE_PROXY_GLOBAL_LIMIT', multiple: true },
} as const;

/** A bad command line: its one line of explanation. */
export class UsageError extends Error {}

/** A whole number from a flag, or one clear line. */
function wholeNumber(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`--${flag} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text.trim());
}

const GLOBAL_LIMIT_ITEM = /^(?:(\d+)=)?(\d+)$/;

/**
 * `--global-limit`'s values: a whole number is the default, `<bot id>=<n>` a bot's own. Said
 * twice, either is a mistake (which one was meant?). Ranges and ids are the option's checks.
 */
function globalLimitsOf(items: readonly string[]): Pick<ProxyOptions, 'globalLimit' | 'botGlobalLimits'> {
  let globalLimit: number | undefined;
  const bots = new Map<string, number>();
  for (const item of items) {
    const match = GLOBAL_LIMIT_ITEM.exec(item.trim());
    if (!match) {
      throw new UsageError(
        `--global-limit must be a whole number, or <bot id>=<whole number> for one bot, got ${JSON.stringify(item)}`,
      );
    }
    const [, id, limit] = match;
    if (id === undefined) {
      if (globalLimit !== undefined)
        throw new UsageError(`--global-limit gives the default twice (${globalLimit} and ${limit})`);
      globalLimit = Number(limit);
    } else {
      if (bots.has(id)) throw new UsageError(`--global-limit gives bot ${id} twice (${bots.get(id)} and ${limit})`);
      bots.set(id, Number(limit));
    }
  }
  return {
    ...(globalLimit !== undefined && { globalLimit }),
    ...(bots.size > 0 && { botGlobalLimits: Object.fromEntries(bots) }),
  };
}

/** What the command line asks for: the usage text, or the proxy on these settings. */
export type Command =
  | { readonly kind: 'help'; readonly text: string }
  | {
      readonly kind: 'proxy';
      readonly options: ProxyOptions;
      readonly redis?: string | undefined;
      readonly prefix?: string | undefined;
    };

/** The command `argv` (after the program) asks for, under `env`; a UsageError names what is wrong. */
export function commandOf(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Command {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') return { kind: 'help', text: USAGE };
  if (command !== 'proxy')
    throw new UsageError(command === undefined ? 'a command is needed' : `unknown command "${command}"`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(
        Object.entries(FLAGS).map(([name, flag]) => [name, { type: flag.type, multiple: 'multiple' in flag }]),
      ),
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (values.help === true) {
    const variables = Object.entries(FLAGS)
      .filter(([, flag]) => flag.env !== '')
      .map(([name, flag]) => `--${name} ${flag.env}`)
      .join(', ');
    return { kind: 'help', text: `${USAGE}\nEach flag has a variable: ${variables}.` };
  }
  const text = (name: keyof typeof FLAGS): string | undefined => {
    const given = values[name];
    if (typeof given === 'string') return given;
    const variable = FLAGS[name].env;
    return variable === '' ? undefined : env[variable] || undefined;
  };
  /** A flag given many times, or else its variable's list, commas or spaces between. */
  const texts = (name: keyof typeof FLAGS): readonly string[] => {
    const given = values[name];
    if (Array.isArray(given)) return given;
    return (env[FLAGS[name].env] ?? '').split(/[\s,]+/).filter((item) => item !== '');
  };
  const metricsEnv = env[FLAGS.metrics.env];
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
    ...globalLimitsOf(texts('global-limit')),
    metrics: values.metrics === true || metricsEnv === '1' || metricsEnv === 'true',
    ...(logLevel !== undefined && { logLevel: logLevel as LogLevel }),
  };
  return { kind: 'proxy', options, redis: text('redis'), prefix: text('prefix') };
}
