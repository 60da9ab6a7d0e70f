/**
 * The handler on Node's `http`, on a real loopback server: the same answers as on fetch, the body
 * read within its bound, and clients that misbehave (an aborted body, malformed headers, a body
 * over the bound) answered or dropped without an error reaching the process.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InteractionResponseType } from 'discord-api-types/v10';
import {
  createInteractionHandler,
  MAX_INTERACTION_BODY_BYTES,
  respond,
  type ReceivedInteraction,
} from '../../src/interactions/index.ts';
import { COMMAND, newSigner, PING, type Signed } from '../support/interactions.ts';

const signer = await newSigner();
const handled: ReceivedInteraction[] = [];
const failures: unknown[] = [];
/** Each `handler.node` call's promise: none may reject. */
const calls: Promise<void>[] = [];
const handler = createInteractionHandler({
  publicKey: signer.publicKey,
  handle: (interaction) => {
    handled.push(interaction);
    if (interaction.type === 2 && interaction.data.name === 'fail') throw new Error(`token ${interaction.token}`);
    return respond.reply({ content: 'handled' });
  },
  onError: (error) => failures.push(error),
});

/** Requests whose body a listener reads before the handler (a body parser in front of it, by mistake). */
const PARSED_FIRST = '/parsed-first';
let server: Server;
let origin: string;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === PARSED_FIRST) {
      request.resume();
      request.once('end', () => calls.push(handler.node(request, response)));
      return;
    }
    if (request.url === '/text') request.setEncoding('utf8');
    calls.push(handler.node(request, response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(async () => {
  // No call of the handler rejected, whatever its client did.
  await expect(Promise.all(calls.splice(0))).resolves.toBeDefined();
  handled.splice(0);
  failures.splice(0);
});

const post = (signed: Signed, path = '/') =>
  fetch(`${origin}${path}`, { method: 'POST', headers: signed.headers, body: signed.body });

/** Writes `text` on a fresh connection and reads what comes back until the server closes it. */
async function raw(text: string | Buffer, { hangUpAfterWrite = false } = {}): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(text);
  if (hangUpAfterWrite) {
    socket.destroy();
    return '';
  }
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('latin1');
}

describe("Node's http", () => {
  it('answers a signed PING with PONG, without calling handle', async () => {
    const response = await post(await signer.sign(PING));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ type: InteractionResponseType.Pong });
    expect(handled).toEqual([]);
  });

  it('hands a signed command to handle and answers its callback body', async () => {
    const response = await post(await signer.sign(COMMAND));
    expect(await response.json()).toEqual({ type: 4, data: { content: 'handled' } });
    expect(handled).toEqual([COMMAND]);
  });

  it('reads the body as bytes even when the request was set to give strings', async () => {
    const response = await post(await signer.sign({ ...COMMAND, data: { ...COMMAND.data, name: 'héllo ✓' } }), '/text');
    expect(response.status).toBe(200);
  });

  it('answers 401 to a tampered body, a missing header and a repeated one, without calling handle', async () => {
    const signed = await signer.sign(COMMAND);
    expect((await post({ ...signed, body: signed.body.replace('ada', 'eve') })).status).toBe(401);
    const { 'x-signature-timestamp': timestamp } = signed.headers;
    const unsigned = await fetch(origin, {
      method: 'POST',
      headers: { 'x-signature-timestamp': timestamp },
      body: signed.body,
    });
    expect(unsigned.status).toBe(401);
    const twice = await raw(
      `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Signature-Ed25519: ${signed.headers['x-signature-ed25519']}\r\n` +
        `X-Signature-Ed25519: ${signed.headers['x-signature-ed25519']}\r\nX-Signature-Timestamp: ${timestamp}\r\n` +
        `Content-Length: ${Buffer.byteLength(signed.body)}\r\n\r\n${signed.body}`,
    );
    expect(twice).toMatch(/^HTTP\/1\.1 401 /);
    expect(handled).toEqual([]);
  });

  it('answers 405 to a GET, 400 to a signed body that is not JSON, 500 when handle throws', async () => {
    const get = await fetch(origin);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await post(await signer.sign('{"type":'))).status).toBe(400);
    const failing = await post(await signer.sign({ ...COMMAND, data: { ...COMMAND.data, name: 'fail' } }));
    expect(failing.status).toBe(500);
    expect(await failing.text()).toBe('{"message":"The interaction handler failed"}');
    expect(failures).toEqual([new Error('token [token]')]);
  });

  it('answers 413 to a declared length over the bound, reading none of it, and closes the connection', async () => {
    const answer = await raw(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${MAX_INTERACTION_BODY_BYTES + 1}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('answers 413 to a chunked body once it is over the bound', async () => {
    const signed = await signer.sign(PING);
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(origin, { method: 'POST', headers: signed.headers }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      expect(request.getHeader('content-length')).toBeUndefined();
      request.on('error', reject);
      // Written in two parts, so it goes chunked: no length is declared.
      request.write(Buffer.alloc(MAX_INTERACTION_BODY_BYTES / 2, 0x20));
      request.end(Buffer.alloc(MAX_INTERACTION_BODY_BYTES / 2 + 1, 0x20));
    });
    expect(status).toBe(413);
    expect(handled).toEqual([]);
  });

  it('drops a request whose client aborts mid-body, and keeps serving', async () => {
    const dropped = once(server, 'request');
    await raw(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"type":`, { hangUpAfterWrite: true });
    await dropped;
    await Promise.all(calls);
    expect(handled).toEqual([]);
    expect((await post(await signer.sign(PING))).status).toBe(200);
  });

  it('survives malformed headers (Node answers 400 before the handler) and keeps serving', async () => {
    const listener = vi.fn();
    server.on('request', listener);
    try {
      expect(await raw('POST / HTTP/1.1\r\nHost: x\r\nthis is no header\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
      expect(await raw(Buffer.from([0x50, 0x4f, 0x53, 0x54, 0x20, 0x00, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]))).toMatch(
        /^HTTP\/1\.1 400 /,
      );
    } finally {
      server.off('request', listener);
    }
    expect(listener).not.toHaveBeenCalled();
    expect((await post(await signer.sign(PING))).status).toBe(200);
  });

  it('answers 500, saying why to onError, when something read the body before it', async () => {
    const response = await post(await signer.sign(PING), PARSED_FIRST);
    expect(response.status).toBe(500);
    expect(String(failures[0])).toMatch(/the request body was read before the interaction handler got it/);
  });
});
