/**
 * A command of this repository run to its end as a user runs it: `node <script> <args>` from the
 * repository's root, with its exit code and everything it printed.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const root = join(import.meta.dirname, '..', '..');

export async function runToExit(script: string, args: readonly string[]): Promise<RunResult> {
  const child = spawn(process.execPath, [script, ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}
