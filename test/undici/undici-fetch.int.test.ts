/**
 * tollgate/undici's transport on its own, over real HTTP on loopback: it must behave as fetch
 * does wherever the client relies on it (the wire-level rate-limit rows also run over it, in
 * test/e2e/reference-service.int.test.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { undiciFetch, type UndiciFetch, type UndiciFetchOptions } from '../../src/undici/index.ts';

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

const made = (options: UndiciFetchOptions = {}) => {
  const created = undiciFetch(options);
  transports.push(created);
  return created;
};

describe.each([
  { bodies: 'read whole', streamBodies: false },
  { bodies: 'streamed', streamBodies: true },
])('undiciFetch, bodies $bodies', ({ streamBodies }) => {
  const transport = () => made({ streamBodies });

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

  it("takes a relayed call's (url, init) as fetch does: Headers, no body or a stream, the method as fetch writes it", async () => {
    const { url, seen } = await serve((_request, response) => response.end('done'));
    const send = transport();
    const headers = () =>
      new Headers([
        ['x-kept', '1'],
        ['authorization', 'Bot t'],
      ]);
    const stream = () => new Blob(['streamed']).stream();
    const init = (method: string, body?: ReadableStream) =>
      ({ method, headers: headers(), body, duplex: 'half', redirect: 'manual' }) as RequestInit;
    expect(await (await send(`${url}/a`, init('get'))).text()).toBe('done');
    expect(await (await send(`${url}/b`, init('post', stream()))).text()).toBe('done');
    expect(await (await send(`${url}/c`, init('delete'))).text()).toBe('done');
    expect(seen).toEqual([
      expect.objectContaining({ method: 'GET', url: '/a', body: '' }),
      expect.objectContaining({ method: 'POST', url: '/b', body: 'streamed' }),
      expect.objectContaining({ method: 'DELETE', url: '/c', body: '' }),
    ]);
    for (const each of seen) expect(each.headers).toMatchObject({ 'x-kept': '1', authorization: 'Bot t' });
    // What fetch refuses to send, it still refuses.
    await expect(send(`${url}/d`, init('TRACE'))).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(3);
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
    expect(() => undiciFetch({ streamBodies: 'yes' as never })).toThrow(
      'undiciFetch: streamBodies must be true or false',
    );
  });
});

describe("undiciFetch, bodies streamed (a relay's transport)", () => {
  it('answers once the headers are in, and hands the body on chunk by chunk as it comes', async () => {
    let finish!: () => void;
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first ');
      finish = () => response.end('second');
    });
    const response = await made({ streamBodies: true })(`${url}/`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // The second half is not written yet: the first is readable all the same.
    expect(decoder.decode((await reader.read()).value)).toBe('first ');
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
    expect(rest).toBe('second');
  });

  it('sends a streamed request body as it comes', async () => {
    const { url, seen } = await serve((_request, response) => response.end());
    const parts = ['a', 'b', 'c'];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const init = { method: 'POST', body, duplex: 'half' } as RequestInit;
    expect((await made({ streamBodies: true })(`${url}/upload`, init)).status).toBe(200);
    expect(seen[0]).toMatchObject({ method: 'POST', body: 'abc' });
  });

  it('a body cancelled part way ends the answer at the server', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const { url } = await serve((_request, response) => {
      response.writeHead(200);
      response.write('part');
      response.on('close', () => closed()); // never ended by the server itself
    });
    const response = await made({ streamBodies: true })(`${url}/`);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await serverSawClose; // the test times out if the connection stays open
  });

  it("a signal aborted after the headers ends the body's read with its reason", async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200);
      response.write('part'); // and never more
    });
    const controller = new AbortController();
    const response = await made({ streamBodies: true })(`${url}/`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort(new Error('caller gave up'));
    await expect(reader.read()).rejects.toThrow('caller gave up');
  });
});
