/**
 * `createProxy`: an HTTP front on a relay, for bots that cannot import tollgate. A bot swaps its
 * base URL for the proxy's and sends what it would send the service; each request waits for its
 * place in the limits of the token its Authorization names (shared through the store by every
 * replica), goes upstream once, and its answer streams back as the service sent it. What the
 * proxy answers itself is marked `X-Tollgate-Generated: <why>` and says whether the request
 * reached the service (`X-Tollgate-Sent`).
 *
 * Closed by default: it listens on 127.0.0.1, forwards only `/api/` paths to its one upstream
 * (never where a request's target or Host points), refuses CONNECT and absolute-form targets,
 * bounds bodies, headers and slow clients, and with a secret serves no one without it. Tokens
 * appear in no log line: a bot is named by its id, a route by its template.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Relay, RelayOptions } from '../http/relay.ts';
import type { UndiciFetch } from '../undici/index.ts';
import { requestHandler, type RequestHandler } from './handler.ts';
import { generatedHeaderLines, PROXY_ANSWER } from './answers.ts';
import { routeLabel, tokenLabel } from './labels.ts';
import { createProxyMetrics, type ProxyMetrics } from './metrics.ts';
import type { ProxyOptions } from './options.ts';
import { proxySettings, type ProxySettings } from './settings.ts';

/** A running proxy: where it listens, and how it stops. */
export interface Proxy {
  /** `http://HOST:PORT`, as it listens. */
  readonly url: string;
  /** Stops accepting, lets requests under way finish within `drainMs`, gives back every wait, and closes. */
  close(): Promise<void>;
}

/** The proxy on `options`, listening once the promise resolves; `createRelay` is the package's. */
export async function createProxyWith(
  createRelay: (options: RelayOptions) => Relay,
  options: ProxyOptions = {},
): Promise<Proxy> {
  const settings = proxySettings(options);
  const { options: checked, log } = settings;
  const underWay = new Set<AbortController>();
  let draining = false;
  const storeUp = async () => (await checked.storeReady?.()) ?? true;
  // undici's request API when it is installed (an optional peer): the faster transport here.
  const transport = checked.fetch
    ? undefined
    : await undiciTransport((reason) =>
        log('info', { msg: "undici could not be loaded: sending with the runtime's fetch", reason }),
      );
  let metrics: ProxyMetrics | undefined;
  const relay = createRelay({
    apiRoot: `${settings.upstream}/api`,
    maxWait: settings.defaultMaxWait,
    onWait: (event) => metrics?.waited(event.waitMs),
    ...(checked.store && { store: checked.store }),
    ...((checked.fetch ?? transport) && { fetch: checked.fetch ?? transport }),
    ...(checked.maxTokens && { maxTokens: checked.maxTokens }),
    ...(checked.globalLimit && { globalLimit: checked.globalLimit }),
    ...(checked.botGlobalLimits && { botGlobalLimits: checked.botGlobalLimits }),
    ...(checked.telemetry && { telemetry: checked.telemetry }),
  });
  if (checked.metrics) {
    metrics = await createProxyMetrics({
      underWay: () => underWay.size,
      invalidRequests: () => relay.invalidRequests(),
      invalidRequestLimit: relay.invalidRequestLimit,
      storeUp,
    }).catch(async (error: unknown) => {
      await relay.close();
      throw error;
    });
  }
  const handle = requestHandler({
    settings,
    relay,
    metrics,
    transportDecodes: transport === undefined,
    storeUp,
    draining: () => draining,
    underWay,
  });
  const server = serverOf(settings, handle, metrics);
  try {
    await listening(server, settings);
  } catch (error) {
    await relay.close();
    await transport?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log('info', { msg: 'listening', url, upstream: settings.upstream });

  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => {
      closing ??= (async () => {
        draining = true;
        const { closed } = await drain(server, underWay, settings.drainMs);
        await relay.close();
        server.closeAllConnections();
        await transport?.close();
        await closed;
        log('info', { msg: 'closed', abandoned: underWay.size });
      })();
      return closing;
    },
  };
}

/**
 * The HTTP server: bounded headers, slow clients cut off, what cannot be parsed answered and
 * closed, CONNECT refused; each request handled, then logged and counted.
 */
function serverOf(settings: ProxySettings, handle: RequestHandler, metrics: ProxyMetrics | undefined): Server {
  const { headersTimeout, logLevel, log } = settings;
  const server: Server = createServer(
    {
      headersTimeout,
      // A client that sends its body slowly is cut off rather than held forever.
      // (A body is read only once its request may go: its wait counts in.)
      requestTimeout: settings.requestTimeout,
      // Node looks for timed-out requests this often (30 s by default, which would stretch both).
      connectionsCheckingInterval: Math.max(1, Math.floor(Math.min(1000, headersTimeout / 4))),
      maxHeaderSize: 16 * 1024,
    },
    (request, response) => {
      const started = performance.now();
      void handle(request, response)
        .then((outcome) => {
          // Read from the request only when something is told of it.
          if (!metrics && logLevel !== 'debug') return;
          const route = routeLabel(outcome.route);
          if (outcome.route !== undefined) metrics?.answered(route, outcome.status, outcome.generated, outcome.scope);
          if (logLevel !== 'debug') return;
          log('debug', {
            msg: 'request',
            method: request.method,
            route,
            bot: tokenLabel(request.headers.authorization),
            status: outcome.status,
            generated: outcome.generated,
            ms: Math.round(performance.now() - started),
          });
        })
        .catch(() => response.destroy());
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // An answer already begun on this socket: a status line now would corrupt it.
    const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || answering?.headersSent) return socket.destroy();
    const [status, code] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['431 Request Header Fields Too Large', PROXY_ANSWER.headersTooLarge]
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['408 Request Timeout', PROXY_ANSWER.timeout]
          : ['400 Bad Request', PROXY_ANSWER.badRequest];
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${generatedHeaderLines(code)}Content-Length: 0\r\n\r\n`);
  });
  // CONNECT would make the proxy a tunnel to anywhere.
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\n${generatedHeaderLines(PROXY_ANSWER.method)}Content-Length: 0\r\n\r\n`,
    );
  });
  return server;
}

/** `server` listening on the settings' host and port, or the error that stopped it. */
function listening(server: Server, { port, host }: ProxySettings): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Stops accepting and lets requests under way finish, for at most `drainMs`; past it, what still
 * waits gives its place back. `closed` resolves once the last connection has gone.
 */
async function drain(
  server: Server,
  underWay: Set<AbortController>,
  drainMs: number,
): Promise<{ readonly closed: Promise<void> }> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = Date.now() + drainMs;
  while (underWay.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const controller of underWay) controller.abort();
  return { closed };
}

/**
 * `undiciFetch` with bodies streamed both ways, or undefined when undici is not installed (the
 * runtime's fetch sends then). Measured by `npm run bench -- proxy`: 15–25 % more requests a
 * second than the runtime's fetch, whose WHATWG machinery costs about 100 µs a request here. An
 * undici that is there but cannot load (a version this Node.js is too old for) is said once, and
 * the proxy serves on the runtime's fetch.
 */
async function undiciTransport(unusable: (reason: string) => void): Promise<UndiciFetch | undefined> {
  try {
    const { undiciFetch } = await import('../undici/index.ts');
    return undiciFetch({ streamBodies: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') {
      unusable((error as Error).message.split('\n')[0] ?? String(error));
    }
    return undefined;
  }
}
