/**
 * The interactions suite (`npm run bench -- interactions`, or on its own: `node
 * bench/interactions.ts`): the Node `http` handler of tollgate/interactions on a loopback port,
 * answering signed PINGs sent one after another over one kept-alive connection. Each request is
 * verified in full (Ed25519 through Web Crypto), so the time to answer is the handler's whole cost
 * plus a loopback round trip. Client and server share this process: one request at a time, so
 * neither waits on the other's work.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createInteractionHandler, respond } from '../src/interactions/index.ts';

/** Requests measured, and the warm-up before them (the key's import, the JIT, the connection). */
export const INTERACTIONS_REQUESTS = 1000;
const WARMUP_REQUESTS = 200;

export interface InteractionsBenchResult {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Requests answered anything but PONG: 0, or the figures mean nothing. */
  readonly failures: number;
}

const hex = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('hex');
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export async function runInteractionsBench(): Promise<InteractionsBenchResult> {
  const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const handler = createInteractionHandler({
    publicKey: hex(await crypto.subtle.exportKey('raw', keys.publicKey)),
    handle: () => respond.deferReply(),
  });
  const server = createServer((req, res) => void handler.node(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const agent = new Agent({ connections: 1 });

  const body = JSON.stringify({ type: 1, id: '1300000000000000009', application_id: '1300000000000000001' });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = await crypto.subtle.sign('Ed25519', keys.privateKey, new TextEncoder().encode(timestamp + body));
  const headers = {
    'content-type': 'application/json',
    'x-signature-ed25519': hex(signature),
    'x-signature-timestamp': timestamp,
  };

  let failures = 0;
  const ping = async (): Promise<number> => {
    const started = performance.now();
    const answer = await request(url, { method: 'POST', headers, body, dispatcher: agent });
    const text = await answer.body.text();
    const elapsed = performance.now() - started;
    if (answer.statusCode !== 200 || text !== '{"type":1}') failures += 1;
    return elapsed;
  };
  try {
    for (let i = 0; i < WARMUP_REQUESTS; i++) await ping();
    failures = 0;
    const times: number[] = [];
    for (let i = 0; i < INTERACTIONS_REQUESTS; i++) times.push(await ping());
    times.sort((a, b) => a - b);
    return { requests: times.length, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), failures };
  } finally {
    await agent.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

if (import.meta.main) {
  const result = await runInteractionsBench();
  console.log(
    `${result.requests} signed PINGs, one after another: p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms` +
      (result.failures > 0 ? ` (${result.failures} not answered PONG)` : ''),
  );
}
