/**
 * A worker's start line, shared by the worker processes the tests and benches start: it prints
 * `{"ready":true}` once set up and waits for a line "go" on stdin, so every worker starts at once.
 */
import { createInterface } from 'node:readline';

export async function readyThenGo(): Promise<void> {
  console.log(JSON.stringify({ ready: true }));
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;
  lines.close();
}
