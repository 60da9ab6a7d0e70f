/**
 * A folder served over HTTP on loopback, as a static host would serve it: a file for each path
 * (`/` is `index.html`), its content type by extension, 404 for anything else, nothing outside
 * the folder. For tests that open a built site in a browser.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, resolve } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface StaticSite {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Paths answered 404, in the order they were asked for. */
  readonly missing: readonly string[];
  close(): Promise<void>;
}

/** Serves `folder` on 127.0.0.1 and a free port. */
export async function serveFolder(folder: string): Promise<StaticSite> {
  const root = resolve(folder);
  const missing: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://site').pathname);
      const file = resolve(join(root, path.endsWith('/') ? `${path}index.html` : path));
      const inside = !relative(root, file).startsWith('..');
      const found = inside && (await stat(file).catch(() => undefined))?.isFile();
      if (!found) {
        missing.push(path);
        response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
        return;
      }
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      response.writeHead(200, { 'content-type': type }).end(await readFile(file));
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    missing,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
