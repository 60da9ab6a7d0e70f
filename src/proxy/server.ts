/**
 * `createProxy`: an HTTP front on a relay, for bots that cannot import tollgate. A bot swaps its
 * base URL for the proxy's and sends what it would send the service; each request waits for its
 * place in the limits of the token its Authorization names (shared through the store by every
 * replica), goes upstream once, and its answer streams back as the service sent it. What the
 * proxy answers itself is marked `X-Tollgate-Proxy: generated` and says whether the request
 * reached the service (`X-Tollgate-Sent`).
 *
 * Closed by default: it listens on 127.0.0.1, forwards only `/api/` paths to its one upstream
 * (never where a request's target or Host points), refuses CONNECT and absolute-form targets,
 * bounds bodies, headers and slow clients, and with a secret serves no one without it. Tokens
 * appear in no log line: a bot is named by its id, a route by its template.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ClientClosedError, NetworkError, StoreUnavailableError, TollgateError } from '../errors.ts';
import { GENERATED_HEADER, SENT_HEADER } from '../index.ts';
import { generated, json, pass, type Outcome } from './answers.ts';
import { boundedBody } from './body.ts';
import {
  forwardedHeaders,
  KEY_HEADER,
  keyDigestOf,
  keyMatches,
  MAX_WAIT_HEADER,
  maxWaitOf,
  PROXY_HEADER,
  repeatedHeader,
} from './headers.ts';
import { relayedCallOf, type Relay, type RelayOptions } from '../http/relay.ts';
import type { UndiciFetch } from '../undici/index.ts';
import { routeLabel, tokenLabel } from './identity.ts';
import { createProxyMetrics, type ProxyMetrics } from './metrics.ts';
import { v10Settings } from '../dialects/v10/settings.ts';
import {
  checkProxyOptions,
  DEFAULT_DRAIN_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROXY_MAX_WAIT_MS,
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM,
  serverRequestTimeoutOf,
  type LogLevel,
  type ProxyOptions,
} from './options.ts';

/** Transport errors after which the request surely never reached the upstream. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'UND_ERR_NOT_SUPPORTED',
]);

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
  const checked = checkProxyOptions(options);
  const upstream = (checked.upstream ?? DEFAULT_UPSTREAM).replace(/\/+$/, '');
  const maxBody = checked.maxBody ?? DEFAULT_MAX_BODY_BYTES;
  const defaultMaxWait = checked.maxWait ?? DEFAULT_PROXY_MAX_WAIT_MS;
  const headersTimeout = checked.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = serverRequestTimeoutOf(checked);
  const logLevel: LogLevel = checked.logLevel ?? 'info';
  const write = checked.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (level: 'info' | 'debug' | 'error', fields: Record<string, unknown>) => {
    if (logLevel === 'silent' || (level === 'debug' && logLevel !== 'debug')) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, ...fields }));
  };
  const secret = checked.secret === undefined ? undefined : keyDigestOf(checked.secret);
  const underWay = new Set<AbortController>();
  let draining = false;
  const storeUp = async () => (await checked.storeReady?.()) ?? true;
  const metrics: ProxyMetrics | undefined = checked.metrics
    ? await createProxyMetrics({
        underWay: () => underWay.size,
        // Read at scrape time, once the relay below exists.
        invalidRequests: () => relay.invalidRequests(),
        invalidRequestLimit: v10Settings({}).invalidRequestLimit,
        storeUp,
      })
    : undefined;
  // undici's request API when it is installed (an optional peer): the faster transport here.
  const transport = checked.fetch
    ? undefined
    : await undiciTransport((reason) =>
        log('info', { msg: "undici could not be loaded: sending with the runtime's fetch", reason }),
      );
  const relay = createRelay({
    apiRoot: `${upstream}/api`,
    maxWait: defaultMaxWait,
    onWait: (event) => metrics?.waited(event.waitMs),
    ...(checked.store && { store: checked.store }),
    ...((checked.fetch ?? transport) && { fetch: checked.fetch ?? transport }),
    ...(checked.maxTokens && { maxTokens: checked.maxTokens }),
    ...(checked.globalLimit && { globalLimit: checked.globalLimit }),
    ...(checked.botGlobalLimits && { botGlobalLimits: checked.botGlobalLimits }),
    ...(checked.telemetry && { telemetry: checked.telemetry }),
  });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<Outcome> => {
    const target = request.url ?? '';
    const method = request.method ?? 'GET';
    // An absolute-form target names its own host: the proxy is no open relay.
    if (!target.startsWith('/')) return generated(response, 400, 'The request target must be a path (origin-form)', 0);
    // As fetch will send it: dot segments (`/api/../admin`, `%2e%2e`) resolved first.
    const pathname = new URL(target, 'http://proxy.invalid').pathname;
    if (method === 'GET' && pathname === '/healthz') return json(response, 200, { status: 'ok' });
    if (method === 'GET' && pathname === '/readyz') {
      const ready = !draining && (await storeUp().catch(() => false));
      return json(response, ready ? 200 : 503, {
        status: ready ? 'ready' : draining ? 'draining' : 'store unreachable',
      });
    }
    if (method === 'GET' && pathname === '/metrics' && metrics) {
      const text = await metrics.render();
      response.writeHead(200, { 'content-type': metrics.contentType, 'content-length': Buffer.byteLength(text) });
      response.end(text);
      return { status: 200, generated: true };
    }
    if (draining) return generated(response, 503, 'The proxy is shutting down', 0, { connection: 'close' });
    if (!pathname.startsWith('/api/')) return generated(response, 404, '404: Not Found', 0);
    const outcome = await forward(request, response, method, target);
    // An API request the proxy refused before the relay saw it has no route: it counts as `-`.
    outcome.route ??= '-';
    return outcome;
  };

  /** An API request (`/api/…`): checked, relayed, and its answer passed back. */
  const forward = async (
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    target: string,
  ): Promise<Outcome> => {
    const repeated = repeatedHeader(request);
    if (repeated) return generated(response, 400, `${repeated} may be given once`, 0);
    if (secret && !keyMatches(request.headers[KEY_HEADER], secret)) {
      return generated(response, 401, `The proxy needs its key (${KEY_HEADER})`, 0);
    }
    const maxWait = maxWaitOf(request.headers[MAX_WAIT_HEADER], defaultMaxWait);
    if (maxWait === undefined) {
      return generated(response, 400, `${MAX_WAIT_HEADER} must be a whole number of milliseconds, 0 or more`, 0);
    }
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBody) {
      return generated(response, 413, `The body is over ${maxBody} bytes`, 0, { connection: 'close' });
    }
    // A body is there when it is framed (HTTP/1.1: a length above 0, or chunks).
    const hasBody = declared > 0 || request.headers['transfer-encoding'] !== undefined;
    const body = hasBody && method !== 'GET' && method !== 'HEAD' ? boundedBody(request, maxBody) : undefined;
    const controller = new AbortController();
    underWay.add(controller);
    // A bot that hangs up while its request waits gives its place back; nothing is sent.
    response.on('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    try {
      const answer = await relay(upstream + target, {
        method,
        headers: forwardedHeaders(request),
        body: body?.stream,
        signal: controller.signal,
        maxWait,
      });
      // Answered without going upstream: the body nobody read is dropped.
      if (answer.headers.has(GENERATED_HEADER)) body?.discard();
      const outcome = await pass(response, answer, method, transport === undefined);
      outcome.route = relayedCallOf(answer)?.route;
      return outcome;
    } catch (error) {
      body?.discard();
      if (controller.signal.aborted) return { status: 499, generated: true };
      if (body?.tooLarge()) {
        return generated(response, 413, `The body is over ${maxBody} bytes`, 0, { connection: 'close' });
      }
      if (error instanceof ClientClosedError) return generated(response, 503, 'The proxy is shutting down', 0);
      if (error instanceof StoreUnavailableError) return generated(response, 503, 'The limits store is unreachable', 0);
      if (error instanceof NetworkError) {
        const sent = NOT_SENT_CODES.has(error.transportCode ?? '') ? 0 : 1;
        return generated(response, 502, 'The upstream could not be reached', sent);
      }
      log('error', { msg: 'request failed', error: error instanceof TollgateError ? error.code : 'UNKNOWN' });
      return generated(response, 500, 'The proxy failed', 1);
    } finally {
      underWay.delete(controller);
    }
  };

  const server: Server = createServer(
    {
      headersTimeout,
      // A client that sends its body slowly is cut off rather than held forever.
      // (A body is read only once its request may go: its wait counts in.)
      requestTimeout,
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
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(
      `HTTP/1.1 ${status}\r\nConnection: close\r\n${PROXY_HEADER}: generated\r\n${SENT_HEADER}: 0\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  // CONNECT would make the proxy a tunnel to anywhere.
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\n${PROXY_HEADER}: generated\r\n${SENT_HEADER}: 0\r\nContent-Length: 0\r\n\r\n`,
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(checked.port ?? DEFAULT_PROXY_PORT, checked.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await relay.close();
    await transport?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log('info', { msg: 'listening', url, upstream });

  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => {
      closing ??= (async () => {
        draining = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const deadline = Date.now() + (checked.drainMs ?? DEFAULT_DRAIN_MS);
        while (underWay.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        // Past the deadline, what still waits gives its place back.
        for (const controller of underWay) controller.abort();
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
