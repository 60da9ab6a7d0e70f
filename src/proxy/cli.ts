#!/usr/bin/env node
/**
 * `tollgate proxy`: the proxy from the command line (`command.ts` is what it does). Each flag has
 * an environment variable (`--max-wait` ↔ `TOLLGATE_PROXY_MAX_WAIT`); a flag wins. Prints one line
 * on stdout when it serves (`tollgate proxy listening on http://HOST:PORT`), a bad flag or value as
 * one line on stderr with exit code 2, and drains on SIGTERM or SIGINT (or when npx, having started
 * it, is gone), then exits 0.
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import { createProxy } from './index.ts';
import { drainWhenOrphaned, startCommand, type CommandOutput } from './command.ts';

const output: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
const started = await startCommand(process.argv.slice(2), process.env, output, { createProxy });
if (started.kind === 'exit') process.exit(started.code);
const stop = () => void started.stop().then((code) => process.exit(code));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// Only under npx: a proxy an npm script starts in the background outlives the script on purpose.
if (process.env.npm_command === 'exec') drainWhenOrphaned(stop, () => process.ppid, output);
