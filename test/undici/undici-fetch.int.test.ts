/**
 * tollgate/undici's transport on its own, over real HTTP on loopback: it must behave as fetch
 * does wherever the client relies on it (the wire-level rate-limit rows also run over it, in
 * test/e2e/reference-service.int.test.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { undiciFetch, type UndiciFetch } from '../../src/undici/index.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let servers: Server[] = [];
let transports: UndiciFetch[] = [];

afterEach(async () => {
  await Promise.all(transports.map((transport) => transport.close()));
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
  transports = [];
});

async function serve(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    answer(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const transport = () => {
  const created = undiciFetch();
  transports.push(created);
  return created;
};

describe('undiciFetch', () => {
  it('sends method, headers and body of a Request, and answers with a Response', async () => {
    const { url, seen } = await serve((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-ratelimit-remaining': '4' });
      response.end('{"ok":true}');
    });
    const response = await transport()(
      new Request(`${url}/channels/1/messages?x=1`, {
        method: 'POST',
        headers: { authorization: 'Bot t', 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'héllo' }),
      }),
    );
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Created');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', url: '/channels/1/messages?x=1', body: '{"content":"héllo"}' }),
    ]);
    expect(seen[0]!.headers.authorization).toBe('Bot t');
  });

  it('also takes (url, init) as fetch does', async () => {
    const { url, seen } = await serve((_request, response) => response.end('text'));
    const response = await transport()(`${url}/gateway`, { method: 'PUT', body: 'raw' });
    expect(await response.text()).toBe('text');
    expect(seen[0]).toMatchObject({ method: 'PUT', body: 'raw' });
  });

  it("takes a Request with an init as fetch does: an empty init (ky's) changes nothing, an init's options apply", async () => {
    const { url, seen } = await serve((request, response) => response.end(request.method));
    const send = transport();
    const request = () => new Request(`${url}/a`, { method: 'POST', headers: { 'x-kept': '1' }, body: 'one' });
    expect(await (await send(request(), {})).text()).toBe('POST');
    expect(await (await send(request(), { method: 'PUT', body: 'two' })).text()).toBe('PUT');
    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', body: 'one', headers: expect.objectContaining({ 'x-kept': '1' }) }),
      expect.objectContaining({ method: 'PUT', body: 'two', headers: expect.objectContaining({ 'x-kept': '1' }) }),
    ]);
  });

  it('keeps header bytes as fetch does (one char per byte), repeated headers included', async () => {
    const { url } = await serve((_request, response) => {
      // Raw bytes 0xC3 0x28: not valid UTF-8; the limiter must be able to tell.
      response.setHeader('retry-after', Buffer.from([0xc3, 0x28]).toString('latin1'));
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.end();
    });
    const response = await transport()(`${url}/`);
    expect(response.headers.get('retry-after')).toBe('\u00c3(');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('answers 204 and HEAD without a body', async () => {
    const { url } = await serve((request, response) => {
      response.writeHead(request.method === 'HEAD' ? 200 : 204, {
        'content-length': request.method === 'HEAD' ? '5' : '0',
      });
      response.end();
    });
    const noContent = await transport()(`${url}/`, { method: 'DELETE' });
    expect(noContent.status).toBe(204);
    expect(noContent.body).toBeNull();
    const head = await transport()(`${url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('returns a redirect as it is: never follows it, so Authorization stays on its origin', async () => {
    const elsewhere = await serve((_request, response) => response.end('leaked'));
    const { url } = await serve((_request, response) => {
      response.writeHead(302, { location: `${elsewhere.url}/steal` });
      response.end();
    });
    const response = await transport()(`${url}/gateway`, { headers: { authorization: 'Bot secret' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${elsewhere.url}/steal`);
    expect(elsewhere.seen).toEqual([]);
  });

  it("an aborted signal rejects with the signal's reason", async () => {
    const { url } = await serve(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = transport()(`${url}/`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('a network failure is a TypeError "fetch failed" with the cause, as fetch reports it', async () => {
    const { url } = await serve((request) => request.socket.destroy());
    const error = (await transport()(`${url}/`).catch((caught: unknown) => caught)) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause).toBeInstanceOf(Error);
    const refused = (await transport()('http://127.0.0.1:1/').catch((caught: unknown) => caught)) as TypeError;
    expect(refused).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });

  it('rejects options that are not an object or a dispatcher that is not one', () => {
    expect(() => undiciFetch(null as never)).toThrow('undiciFetch: options must be an object');
    expect(() => undiciFetch({ dispatcher: {} as never })).toThrow(
      'undiciFetch: dispatcher must be an undici Dispatcher',
    );
  });
});
