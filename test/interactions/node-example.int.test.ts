/**
 * examples/node-interactions runs as its README says: its server, bundled with tollgate from the
 * sources (the package's exports name dist/, which a test run has not built), started as its own
 * Node.js process with the README's variables. Interactions are signed here with a key the test
 * makes; the reply's edit goes to the reference service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteractionResponseType } from 'discord-api-types/v10';
import { ReferenceService } from '../../src/testing/index.ts';
import {
  APPLICATION_ID,
  COMMAND,
  eventually,
  INTERACTION_TOKEN,
  newSigner,
  PING,
  type Signer,
} from '../support/interactions.ts';
import { tollgateFromSources } from '../support/workers.ts';

const example = join(import.meta.dirname, '..', '..', 'examples', 'node-interactions');

let work: string;
let service: ReferenceService;
let signer: Signer;
let server: ChildProcess;
let origin: string;
let output = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tollgate-node-interactions-'));
  const bundle = join(work, 'server.mjs');
  await build({
    entryPoints: [join(example, 'src', 'server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: bundle,
    plugins: [tollgateFromSources],
    logLevel: 'silent',
  });
  service = await new ReferenceService().start();
  signer = await newSigner();
  server = spawn(process.execPath, [bundle], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_PUBLIC_KEY: signer.publicKey,
      DISCORD_API_BASE: service.baseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const lines = createInterface({ input: server.stdout! });
  for await (const line of lines) {
    output += `${line}\n`;
    const listening = /^listening on (http:\/\/\S+)$/.exec(line);
    if (listening) {
      origin = listening[1]!;
      break;
    }
  }
  expect(origin, output).toBeDefined();
}, 60_000);

afterAll(async () => {
  if (server?.exitCode === null) {
    server.kill('SIGKILL');
    await once(server, 'exit');
  }
  await service?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const post = async (body: unknown, publicKeySigner = signer) => {
  const signed = await publicKeySigner.sign(body);
  return fetch(origin, { method: 'POST', headers: signed.headers, body: signed.body });
};

describe('examples/node-interactions', () => {
  it('answers a signed PING with a PONG, and refuses one signed by another key', async () => {
    const response = await post(PING);
    expect(await response.json()).toEqual({ type: InteractionResponseType.Pong });
    expect((await post(PING, await newSigner())).status).toBe(401);
  });

  it('defers a command, then edits the original response through tollgate', async () => {
    const response = await post(COMMAND);
    expect(await response.json()).toEqual({ type: InteractionResponseType.DeferredChannelMessageWithSource });
    // The edit goes on after the answer: wait for it, boundedly.
    await eventually(() => service.requests.length > 0);
    expect(service.requests).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        routeKey: 'PATCH /webhooks/:id/:token/messages/@original',
        status: 200,
      }),
    ]);
    expect(output).not.toContain(INTERACTION_TOKEN);
  });

  it('stops on SIGTERM, closing its server and client', async () => {
    server.kill('SIGTERM');
    const [code] = (await once(server, 'exit')) as [number | null];
    expect(code, output).toBe(0);
  });
});
