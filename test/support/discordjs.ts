/**
 * For the discord.js bridge's tests: the reference service (speaking Discord's headers) behind a
 * tap, a loopback HTTP front that records every request as it arrives (method, path and query,
 * the headers a request is judged by, its body as JSON or as multipart parts) and passes it on,
 * and the REST of @discordjs/rest on it, plain or through tollgate's makeRequest.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { REST } from '@discordjs/rest';
import { makeRequest, type MakeRequestOptions, type TollgateMakeRequest } from '../../src/discordjs/index.ts';
import { ReferenceService, type ReferenceServiceOptions } from '../../src/testing/index.ts';

export const BOT_TOKEN = 'ODQ1NTY0ODc2NTQzMjE5NTIw.discordjs.bridge-test';

/** A request as it arrived, in the parts a comparison reads. */
export interface ArrivedRequest {
  readonly method: string;
  /** Path and query, under the API root (`/v10/channels/…?limit=2`). */
  readonly path: string;
  readonly authorization: string | undefined;
  readonly auditLogReason: string | undefined;
  readonly userAgent: string | undefined;
  /** The media type, without a multipart boundary (which each encoder picks at random). */
  readonly contentType: string | undefined;
  /** JSON parsed, multipart as its parts, anything else as text. */
  readonly body: unknown;
}

interface Part {
  readonly name: string;
  readonly filename?: string;
  readonly type?: string;
  readonly content: string;
}

export interface Tapped {
  readonly service: ReferenceService;
  /** The API root REST is given (`http://127.0.0.1:<tap>/api`). */
  readonly root: string;
  readonly arrived: ArrivedRequest[];
  stop(): Promise<void>;
}

/** The reference service behind a tap. */
export async function startTapped(options: Omit<ReferenceServiceOptions, 'dialect'> = {}): Promise<Tapped> {
  const service = await new ReferenceService({ ...options, dialect: 'discord' }).start();
  const upstream = new URL(service.baseUrl).origin;
  const arrived: ArrivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      arrived.push(await arrivedOf(request, bytes));
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        // How the body was framed (chunked, or its length) is the tap's own hop: fetch frames it again.
        const hop = ['host', 'connection', 'transfer-encoding', 'content-length'].includes(name);
        if (typeof value === 'string' && !hop) headers.set(name, value);
      }
      try {
        const answer = await fetch(upstream + request.url, {
          method: request.method,
          headers,
          ...(bytes.length > 0 && { body: new Uint8Array(bytes) }),
          redirect: 'manual',
        });
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of answer.headers) {
          if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
            answerHeaders[name] = value;
        }
        response.writeHead(answer.status, answerHeaders);
        if (answer.body) Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>).pipe(response);
        else response.end();
      } catch {
        // The service dropped the connection (a scripted fault): so does the tap.
        request.socket.destroy();
      }
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    service,
    root: `http://127.0.0.1:${port}/api`,
    arrived,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.stop();
    },
  };
}

async function arrivedOf(request: IncomingMessage, bytes: Buffer): Promise<ArrivedRequest> {
  const header = (name: string) => request.headers[name] as string | undefined;
  const contentType = header('content-type');
  return {
    method: request.method!,
    path: request.url!.replace(/^\/api/, ''),
    authorization: header('authorization'),
    auditLogReason: header('x-audit-log-reason'),
    userAgent: header('user-agent'),
    contentType: contentType?.replace(/;\s*boundary=.*$/i, ''),
    body: await bodyOf(contentType, bytes),
  };
}

async function bodyOf(contentType: string | undefined, bytes: Buffer): Promise<unknown> {
  if (bytes.length === 0) return undefined;
  if (contentType?.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
    const parts: Part[] = [];
    for (const [name, value] of form) {
      parts.push(
        typeof value === 'string'
          ? { name, content: value }
          : {
              name,
              filename: value.name,
              type: value.type,
              content: Buffer.from(await value.arrayBuffer()).toString('base64'),
            },
      );
    }
    return parts;
  }
  const text = bytes.toString('utf8');
  if (contentType?.includes('json')) return JSON.parse(text) as unknown;
  return text;
}

/** REST on the tap, plain (`bridge: undefined`) or through tollgate's makeRequest. */
export function restOn(
  tapped: Tapped,
  bridge: MakeRequestOptions | undefined,
  restOptions: ConstructorParameters<typeof REST>[0] = {},
): { rest: REST; bridged: TollgateMakeRequest | undefined } {
  const bridged = bridge === undefined ? undefined : makeRequest({ apiRoot: tapped.root, ...bridge });
  const rest = new REST({ api: tapped.root, ...restOptions, ...(bridged && { makeRequest: bridged }) }).setToken(
    BOT_TOKEN,
  );
  return { rest, bridged };
}
