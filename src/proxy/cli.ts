#!/usr/bin/env node
/**
 * `tollgate proxy`: the proxy from the command line. Each flag has an environment variable
 * (`--max-wait` ↔ `TOLLGATE_PROXY_MAX_WAIT`); a flag wins. Prints one line on stdout when it
 * serves (`tollgate proxy listening on http://HOST:PORT`), a bad flag or value as one line on
 * stderr with exit code 2, and drains on SIGTERM or SIGINT (or when npx, having started it, is
 * gone), then exits 0.
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import type { Store } from '../contracts/store.ts';
import { TollgateArgumentError } from '../errors.ts';
import { createProxy } from './index.ts';
import { commandOf, UsageError } from './command-line.ts';

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
    const command = commandOf(process.argv.slice(2), process.env);
    if (command.kind === 'help') {
      process.stdout.write(`${command.text}\n`);
      process.exit(0);
    }
    settings = command;
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
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void proxy
      .close()
      .then(() => shared?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`tollgate: closing failed: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (process.env.npm_command === 'exec') drainWhenOrphaned(stop);
}

/**
 * Started by npx (`npm exec`), the proxy runs under a shell of npm's. A SIGTERM to npm kills that
 * shell (dash passes no signal on), and would leave the proxy serving, orphaned, with its port
 * taken. The parent changing means the launcher is gone: drain as on SIGTERM, and say why.
 * (Only under npx: a proxy an npm script starts in the background outlives the script on purpose.)
 */
function drainWhenOrphaned(stop: () => void): void {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.stderr.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'npx, which started the proxy, is gone: draining' })}\n`,
    );
    stop();
  }, 500);
  watch.unref();
}

await main();
