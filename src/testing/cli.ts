#!/usr/bin/env node
/**
 * `tollgate-reference-service`: the reference service from the command line.
 *   --port 8080 --limit 5 --window 1000 --global-limit 50 --global-window 1000 [--api v6] [--dialect discord] [--quiet]
 * It speaks v10 unless `--api v6` is given, as the client does.
 * Prints the base URL, then (unless --quiet) one line per second with requests and 429s; Ctrl-C stops it.
 * `-h`/`--help` prints the usage (exit 0). Bad input (an unknown flag, an extra argument, a bad
 * value, a port in use) is one line on stderr naming the problem, the usage on stdout, exit 2.
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import { parseArgs } from 'node:util';
import { ReferenceService } from './reference-service.ts';

const USAGE =
  'usage: tollgate-reference-service [--port 8080] [--limit 5] [--window 1000] [--global-limit 50] [--global-window 1000] [--api v10|v6] [--dialect spec|discord] [--quiet]';

/** Bad input: the problem in one line, the usage, exit 2. */
function fail(problem: string): never {
  console.error(problem.replaceAll('\n', ' '));
  console.log(USAGE);
  process.exit(2);
}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '8080' },
        limit: { type: 'string', default: '5' },
        window: { type: 'string', default: '1000' },
        'global-limit': { type: 'string', default: '50' },
        'global-window': { type: 'string', default: '1000' },
        api: { type: 'string', default: 'v10' },
        dialect: { type: 'string', default: 'spec' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
}

const values = parseOptions();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

if (values.dialect !== 'spec' && values.dialect !== 'discord')
  fail(`--dialect must be spec or discord, got ${values.dialect}`);
const dialect = values.dialect;
if (values.api !== 'v6' && values.api !== 'v10') fail(`--api must be v10 or v6, got ${values.api}`);
const api = values.api;

/** A whole-number flag from `min` to `max` (decimal digits only: no '', 1e3 or 0x10). */
const whole = (name: 'port' | 'limit' | 'window' | 'global-limit' | 'global-window', min: number, max: number) => {
  const text = values[name];
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    fail(
      max === Number.MAX_SAFE_INTEGER
        ? `--${name} must be a whole number of at least ${min}, got ${text}`
        : `--${name} must be a whole number from ${min} to ${max}, got ${text}`,
    );
  }
  return value;
};
const port = whole('port', 0, 65_535);
const limit = (name: 'limit' | 'window' | 'global-limit' | 'global-window') => whole(name, 1, Number.MAX_SAFE_INTEGER);

let service: ReferenceService;
try {
  service = await new ReferenceService({
    port,
    defaultLimit: { limit: limit('limit'), windowMs: limit('window') },
    global: { limit: limit('global-limit'), windowMs: limit('global-window') },
    dialect,
    api,
  }).start();
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') fail(`--port ${port}: the port is in use`);
  if (code === 'EACCES') fail(`--port ${port}: not allowed to listen on it`);
  fail(`cannot start: ${(error as Error).message}`);
}
console.log(`reference service listening: ${service.baseUrl}`);

// Each second the record is taken and cleared (the messages made too), so a long run keeps no
// more than a second of it.
const ticker = setInterval(() => {
  const fresh = service.requests.splice(0);
  service.messages.splice(0);
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
