/**
 * What `tollgate proxy` does, apart from the process it runs in (`cli.ts` is that process's
 * shell): its arguments and environment read, the Redis store made if asked for, the proxy
 * started, one line printed, and the way it stops; the exit code of each outcome. Every effect
 * on the process (its output, its exit, its parent) is given, so the whole command runs in a test.
 */
import type { Store } from '../contracts/store.ts';
import { TollgateArgumentError } from '../errors.ts';
import { commandOf, UsageError } from './command-line.ts';
import type { ProxyOptions } from './options.ts';
import type { Proxy } from './server.ts';
import type * as RedisModule from '../redis/index.ts';

/** What the command prints to: one line at a time, without its newline. */
export interface CommandOutput {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** What the command starts: the proxy (the package's `createProxy`) and the Redis module, loaded only when asked for. */
export interface CommandParts {
  readonly createProxy: (options: ProxyOptions) => Promise<Proxy>;
  readonly loadRedis?: () => Promise<typeof RedisModule>;
}

/** How long `/readyz` waits for Redis to answer a PING before it calls the store not ready, ms. */
export const REDIS_READY_TIMEOUT_MS = 1000;

/** The command's outcome: ended with an exit code (help, a bad flag or setting), or the proxy serving. */
export type Started =
  | { readonly kind: 'exit'; readonly code: number }
  | {
      readonly kind: 'serving';
      readonly proxy: Proxy;
      /** Drains the proxy and closes the store; resolves to the exit code (0, or 1 if closing failed). Once only. */
      readonly stop: () => Promise<number>;
    };

/** A store the command made, with what `/readyz` asks of it and how it closes. */
interface SharedStore {
  readonly store: Store;
  readonly ready: () => Promise<boolean>;
  readonly close: () => Promise<void>;
}

/** `tollgate proxy` with `argv` (after the program) under `env`. */
export async function startCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  output: CommandOutput,
  parts: CommandParts,
): Promise<Started> {
  const refuse = (message: string): Started => {
    output.err(`tollgate: ${message}`);
    return { kind: 'exit', code: 2 };
  };
  let command;
  try {
    command = commandOf(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse(`${error.message} (tollgate proxy --help lists the flags)`);
  }
  if (command.kind === 'help') {
    output.out(command.text);
    return { kind: 'exit', code: 0 };
  }
  let shared: SharedStore | undefined;
  if (command.redis !== undefined) {
    try {
      shared = await redisStore(command.redis, command.prefix, parts.loadRedis ?? (() => import('../redis/index.ts')));
    } catch (error) {
      return refuse((error as Error).message);
    }
  }
  let proxy: Proxy;
  try {
    proxy = await parts.createProxy({
      ...command.options,
      ...(shared && { store: shared.store, storeReady: shared.ready }),
    });
  } catch (error) {
    await shared?.close();
    const message = (error as Error).message;
    return refuse(error instanceof TollgateArgumentError ? message.replace(/^createProxy: /, '') : message);
  }
  output.out(`tollgate proxy listening on ${proxy.url}`);
  let stopped: Promise<number> | undefined;
  const stop = () =>
    (stopped ??= proxy
      .close()
      .then(() => shared?.close())
      .then(
        () => 0,
        (error: unknown) => {
          output.err(`tollgate: closing failed: ${(error as Error).message}`);
          return 1;
        },
      ));
  return { kind: 'serving', proxy, stop };
}

/** The Redis store, if asked for: shared limits, served on fallback limits while Redis is away. */
async function redisStore(
  url: string,
  prefix: string | undefined,
  loadRedis: NonNullable<CommandParts['loadRedis']>,
): Promise<SharedStore> {
  let redisModule;
  try {
    redisModule = await loadRedis();
  } catch (error) {
    throw new UsageError(
      `--redis needs the ioredis package (npm install ioredis): ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const store = new redisModule.RedisStore({ url, prefix: prefix ?? 'tollgate', onUnavailable: 'local' });
  // Ready once connected and answering. The store connects lazily, on its first call: a PING alone
  // would fail (no queue while offline), and a proxy started with no traffic yet would never be ready.
  const ready = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(false), REDIS_READY_TIMEOUT_MS)),
    );
    const ping = store
      .connect()
      .then(() => store.redis.ping())
      .then(
        (answer) => answer === 'PONG',
        () => false,
      );
    return Promise.race([ping, timeout]).finally(() => clearTimeout(timer));
  };
  return { store, ready, close: () => store.close() };
}

/**
 * Started by npx (`npm exec`), the proxy runs under a shell of npm's. A SIGTERM to npm kills that
 * shell (dash passes no signal on), and would leave the proxy serving, orphaned, with its port
 * taken. The parent changing means the launcher is gone: `stop` is called, as on SIGTERM, once
 * the line saying why is printed. Returns what stops the watch.
 */
export function drainWhenOrphaned(
  stop: () => void,
  parentOf: () => number,
  output: CommandOutput,
  now: () => Date = () => new Date(),
): () => void {
  const parent = parentOf();
  const watch = setInterval(() => {
    if (parentOf() === parent) return;
    clearInterval(watch);
    output.err(
      JSON.stringify({
        time: now().toISOString(),
        level: 'info',
        msg: 'npx, which started the proxy, is gone: draining',
      }),
    );
    stop();
  }, ORPHAN_CHECK_MS);
  watch.unref?.();
  return () => clearInterval(watch);
}

/** How often a proxy started by npx looks whether its launcher is gone, ms. */
export const ORPHAN_CHECK_MS = 500;
