/**
 * Runs a benchmark module in a process of its own and returns the JSON line it prints. For
 * measurements that the rest of the bench process would skew: heap figures (with --expose-gc),
 * and micro-benchmarks (loading ioredis into the same process doubles the decision figure,
 * a V8-level effect on unrelated code).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CHILD_FLAG = '--child';

export async function runInChild<T>(moduleUrl: string, nodeArgs: readonly string[] = []): Promise<T> {
  const file = fileURLToPath(moduleUrl);
  const child = spawn(process.execPath, [...nodeArgs, file, CHILD_FLAG], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bench: ${file} exited with ${code}`);
  return JSON.parse(output) as T;
}
