#!/usr/bin/env node
/**
 * `tollgate-reference-service`: the reference service from the command line.
 *   --port 8080 --limit 5 --window 1000 --global-limit 50 --global-window 1000 [--api v10] [--dialect discord] [--quiet]
 * Prints the base URL, then (unless --quiet) one line per second with requests and 429s; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { ReferenceService } from './reference-service.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    limit: { type: 'string', default: '5' },
    window: { type: 'string', default: '1000' },
    'global-limit': { type: 'string', default: '50' },
    'global-window': { type: 'string', default: '1000' },
    api: { type: 'string', default: 'v6' },
    dialect: { type: 'string', default: 'spec' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'usage: tollgate-reference-service [--port 8080] [--limit 5] [--window 1000] [--global-limit 50] [--global-window 1000] [--api v6|v10] [--dialect spec|discord] [--quiet]',
  );
  process.exit(0);
}

if (values.dialect !== 'spec' && values.dialect !== 'discord') {
  console.error(`--dialect must be spec or discord, got ${values.dialect}`);
  process.exit(2);
}
const dialect = values.dialect;
if (values.api !== 'v6' && values.api !== 'v10') {
  console.error(`--api must be v6 or v10, got ${values.api}`);
  process.exit(2);
}
const api = values.api;

const number = (name: 'port' | 'limit' | 'window' | 'global-limit' | 'global-window'): number => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number, got ${String(values[name])}`);
    process.exit(2);
  }
  return value;
};

const service = await new ReferenceService({
  port: number('port'),
  defaultLimit: { limit: number('limit'), windowMs: number('window') },
  global: { limit: number('global-limit'), windowMs: number('global-window') },
  dialect,
  api,
}).start();
console.log(`reference service listening: ${service.baseUrl}`);

// Each second the record is taken and cleared, so a long run keeps no more than a second of it.
const ticker = setInterval(() => {
  const fresh = service.requests.splice(0);
  if (values.quiet || fresh.length === 0) return;
  const limited = fresh.filter((request) => request.status === 429).length;
  console.log(`${new Date().toISOString()} ${fresh.length} requests, ${limited} answered 429`);
}, 1000);

const stop = async () => {
  clearInterval(ticker);
  await service.stop();
  console.log('stopped');
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
