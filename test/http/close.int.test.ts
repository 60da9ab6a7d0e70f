/**
 * After `client.close()` nothing of tollgate keeps the process alive: a child process parks calls
 * on every kind of wait (a row-3 sleep of an hour, a global wait of an hour, a queue behind them,
 * a retry-after of an hour), closes the client and must then exit on its own.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

const CHILD = `
import { createClient } from ${JSON.stringify(join(root, 'src', 'index.ts'))};
const hour = 3_600_000;
const reset = String(Math.floor(Date.now() / 1000) + 3600);
const fetch = async (request) => {
  const url = new URL(request.url);
  if (url.pathname.endsWith('/gateway')) {
    return new Response('{}', { status: 429, headers: { 'x-ratelimit-global': 'true', 'retry-after': String(hour) } });
  }
  if (url.pathname.endsWith('/users/@me')) {
    return new Response('{}', { status: 429, headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, 'retry-after': String(hour) } });
  }
  return new Response('{}', { status: 200, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } });
};
const client = createClient({ baseUrl: 'http://tollgate.invalid/api', token: 'Bot close', fetch, maxWait: 10 * hour });
await client.channels.get('1'); // learns: exhausted for an hour
const parked = [
  client.channels.get('1'), // row-3 sleep
  client.channels.get('1'), // queued behind it
  client.users.me.get(), // retry-after wait
  client.gateway.get(), // global wait, then every other call waits at the gate
];
await new Promise((resolve) => setTimeout(resolve, 200));
await client.close();
const results = await Promise.allSettled(parked);
console.log(JSON.stringify(results.map((result) => result.status === 'rejected' ? result.reason.name : 'fulfilled')));
`;

describe('client.close()', () => {
  it('fails every parked call and leaves nothing that keeps the process alive', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (errors += String(chunk)));
    const exited = await new Promise<number | 'still running'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running');
      }, 15_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code ?? -1);
      });
    });
    expect(errors).toBe('');
    expect(exited).toBe(0);
    const names = JSON.parse(output) as string[];
    expect(names).toEqual(['ClientClosedError', 'ClientClosedError', 'ClientClosedError', 'ClientClosedError']);
  }, 30_000);
});
