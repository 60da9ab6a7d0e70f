/**
 * Runs a benchmark module in a process of its own and returns the JSON line it prints. For
 * measurements that the rest of the bench process would skew: heap figures (with --expose-gc),
 * and timings (what else a process has loaded changes V8's speed on unrelated code: loading
 * ioredis once doubled the decision figure), so each client is measured in a fresh process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../src/clock.ts';

export const CHILD_FLAG = '--child';

/** The JSON argument given to this child process (after the flag), if any. */
export function childArgument<T>(): T | undefined {
  const index = process.argv.indexOf(CHILD_FLAG);
  const raw = index === -1 ? undefined : process.argv[index + 1];
  return raw === undefined ? undefined : (JSON.parse(raw) as T);
}

export async function runInChild<T>(
  moduleUrl: string,
  nodeArgs: readonly string[] = [],
  argument?: unknown,
): Promise<T> {
  const file = fileURLToPath(moduleUrl);
  const args = [...nodeArgs, file, CHILD_FLAG, ...(argument === undefined ? [] : [JSON.stringify(argument)])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bench: ${file} exited with ${code}`);
  return JSON.parse(output) as T;
}

/** The heap in use after two full collections, for a child started with --expose-gc (`bench` names it in the error). */
export function heapUsedAfterGc(bench: string): () => number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error(`${bench}: run with --expose-gc`);
  return () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
}

/** A clock the benchmark moves by hand (`advance`), from `startMs`; its timers are real ones. */
export function movedClock(startMs: number): { readonly clock: Clock; advance(ms: number): void } {
  let now = startMs;
  return {
    clock: {
      now: () => now,
      setTimeout: (callback, ms) => {
        const timer = setTimeout(callback, ms);
        return () => clearTimeout(timer);
      },
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
