/**
 * One discord.js process of a shared-limits run: @discordjs/core's API on @discordjs/rest, plain
 * or through tollgate/discordjs on a RedisStore, creates messages in a few channels, all at once
 * (REST queues them), and prints one JSON line with what it saw. Used by the fleet test and the
 * benchmark.
 *
 *   node test/support/workers/discordjs-worker.ts '{"apiRoot":"http://127.0.0.1:…/api","redisUrl":…,"prefix":…,
 *     "token":"…","requests":40,"channels":["1","2"],"bridged":true,"waitForGo":true}'
 *
 * With waitForGo it prints {"ready":true} once set up and starts on a line "go" on stdin.
 */
import { API } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import { makeRequest } from '../../../src/discordjs/index.ts';
import { RedisStore } from '../../../src/redis/index.ts';
import { readyThenGo } from './go.ts';

interface WorkerOptions {
  readonly apiRoot: string;
  readonly redisUrl: string;
  readonly prefix: string;
  /** The bot token, without `Bot ` (REST adds it). */
  readonly token: string;
  readonly requests: number;
  readonly channels: readonly string[];
  readonly bridged: boolean;
  readonly waitForGo?: boolean;
}

export interface DiscordjsWorkerReport {
  readonly completed: number;
  readonly failures: string[];
  /** REST's own `rateLimited` events: waits it chose (for its own queues) or was told (a 429). */
  readonly restRateLimited: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

const options = JSON.parse(process.argv[2]!) as WorkerOptions;
const store = options.bridged ? new RedisStore({ url: options.redisUrl, prefix: options.prefix }) : undefined;
if (store) await store.connect();
const bridge = store ? makeRequest({ apiRoot: options.apiRoot, store }) : undefined;
const rest = new REST({ api: options.apiRoot, ...(bridge && { makeRequest: bridge }) }).setToken(options.token);
let restRateLimited = 0;
rest.on('rateLimited', () => (restRateLimited += 1));
const api = new API(rest);

if (options.waitForGo) await readyThenGo();

const startedAt = Date.now();
const failures: string[] = [];
let completed = 0;
await Promise.all(
  Array.from({ length: options.requests }, async (_, index) => {
    try {
      await api.channels.createMessage(options.channels[index % options.channels.length]!, { content: `#${index}` });
      completed += 1;
    } catch (error) {
      failures.push(String(error));
    }
  }),
);
const report: DiscordjsWorkerReport = { completed, failures, restRateLimited, startedAt, endedAt: Date.now() };
console.log(JSON.stringify(report));
rest.clearHashSweeper();
rest.clearHandlerSweeper();
await bridge?.close();
await store?.close();
