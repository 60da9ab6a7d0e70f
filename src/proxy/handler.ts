/**
 * What the proxy does with one request: its own paths (`/healthz`, `/readyz`, `/metrics`), then an
 * API request checked (one of each header that names one thing, the key, the bound on its wait, the
 * body's size), relayed, and its answer passed back; a failure answered by one table.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientClosedError, NetworkError, StoreUnavailableError, TollgateError } from '../errors.ts';
import { relayedCallOf, type Relay } from '../http/relay.ts';
import { GENERATED_HEADER } from '../index.ts';
import { generated, json, pass, PROXY_ANSWER, type Outcome } from './answers.ts';
import { boundedBody, type BoundedBody } from './body.ts';
import { forwardedHeaders, KEY_HEADER, keyMatches, MAX_WAIT_HEADER, maxWaitOf, repeatedHeader } from './headers.ts';
import type { ProxyMetrics } from './metrics.ts';
import type { ProxySettings } from './settings.ts';

/** Transport errors after which the request surely never reached the upstream. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'UND_ERR_NOT_SUPPORTED',
]);

/** What a request handler works with. */
export interface HandlerContext {
  readonly settings: ProxySettings;
  readonly relay: Relay;
  readonly metrics: ProxyMetrics | undefined;
  /** The transport decodes compressed bodies (the runtime's fetch; undici's request API does not). */
  readonly transportDecodes: boolean;
  readonly storeUp: () => Promise<boolean>;
  readonly draining: () => boolean;
  /** Requests under way, each by the controller that gives its place back (the drain aborts them). */
  readonly underWay: Set<AbortController>;
}

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<Outcome>;

export function requestHandler(context: HandlerContext): RequestHandler {
  const { metrics, storeUp, draining } = context;
  return async (request, response) => {
    const target = request.url ?? '';
    const method = request.method ?? 'GET';
    // An absolute-form target names its own host: the proxy is no open relay.
    if (!target.startsWith('/'))
      return generated(response, 400, PROXY_ANSWER.badRequest, 'The request target must be a path (origin-form)', 0);
    // As fetch will send it: dot segments (`/api/../admin`, `%2e%2e`) resolved first.
    const pathname = new URL(target, 'http://proxy.invalid').pathname;
    if (method === 'GET' && pathname === '/healthz') return json(response, 200, { status: 'ok' });
    if (method === 'GET' && pathname === '/readyz') {
      const ready = !draining() && (await storeUp().catch(() => false));
      return json(response, ready ? 200 : 503, {
        status: ready ? 'ready' : draining() ? 'draining' : 'store unreachable',
      });
    }
    if (method === 'GET' && pathname === '/metrics' && metrics) {
      const text = await metrics.render();
      response.writeHead(200, { 'content-type': metrics.contentType, 'content-length': Buffer.byteLength(text) });
      response.end(text);
      return { status: 200, generated: true };
    }
    if (draining())
      return generated(response, 503, PROXY_ANSWER.draining, 'The proxy is shutting down', 0, { connection: 'close' });
    if (!pathname.startsWith('/api/')) return generated(response, 404, PROXY_ANSWER.notFound, '404: Not Found', 0);
    const outcome = await forward(context, request, response, method, target);
    // An API request the proxy refused before the relay saw it has no route: it counts as `-`.
    outcome.route ??= '-';
    return outcome;
  };
}

/** An API request (`/api/…`): checked, relayed, and its answer passed back. */
async function forward(
  context: HandlerContext,
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  target: string,
): Promise<Outcome> {
  const { settings, relay, underWay } = context;
  const { maxBody } = settings;
  const repeated = repeatedHeader(request);
  if (repeated) return generated(response, 400, PROXY_ANSWER.badRequest, `${repeated} may be given once`, 0);
  if (settings.secretDigest && !keyMatches(request.headers[KEY_HEADER], settings.secretDigest)) {
    return generated(response, 401, PROXY_ANSWER.key, `The proxy needs its key (${KEY_HEADER})`, 0);
  }
  const maxWait = maxWaitOf(request.headers[MAX_WAIT_HEADER], settings.defaultMaxWait);
  if (maxWait === undefined) {
    return generated(
      response,
      400,
      PROXY_ANSWER.badMaxWait,
      `${MAX_WAIT_HEADER} must be a whole number of milliseconds, 0 or more`,
      0,
    );
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBody) return tooLarge(response, maxBody);
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
    const answer = await relay(settings.upstream + target, {
      method,
      headers: forwardedHeaders(request),
      body: body?.stream,
      signal: controller.signal,
      maxWait,
    });
    // Answered without going upstream: the body nobody read is dropped.
    if (answer.headers.has(GENERATED_HEADER)) body?.discard();
    const outcome = await pass(response, answer, method, context.transportDecodes);
    outcome.route = relayedCallOf(answer)?.route;
    return outcome;
  } catch (error) {
    body?.discard();
    if (controller.signal.aborted) return { status: 499, generated: true };
    return failureAnswer(error, response, body, settings);
  } finally {
    underWay.delete(controller);
  }
}

/** What the bot is answered when its request failed: one row an error. */
function failureAnswer(
  error: unknown,
  response: ServerResponse,
  body: BoundedBody | undefined,
  { maxBody, log }: ProxySettings,
): Outcome {
  if (body?.tooLarge()) return tooLarge(response, maxBody);
  if (error instanceof ClientClosedError)
    return generated(response, 503, PROXY_ANSWER.draining, 'The proxy is shutting down', 0);
  if (error instanceof StoreUnavailableError)
    return generated(response, 503, PROXY_ANSWER.storeUnavailable, 'The limits store is unreachable', 0);
  if (error instanceof NetworkError) {
    const sent = NOT_SENT_CODES.has(error.transportCode ?? '') ? 0 : 1;
    return generated(response, 502, PROXY_ANSWER.network, 'The upstream could not be reached', sent);
  }
  log('error', { msg: 'request failed', error: error instanceof TollgateError ? error.code : 'UNKNOWN' });
  return generated(response, 500, PROXY_ANSWER.failed, 'The proxy failed', 1);
}

const tooLarge = (response: ServerResponse, maxBody: number) =>
  generated(response, 413, PROXY_ANSWER.bodyTooLarge, `The body is over ${maxBody} bytes`, 0, { connection: 'close' });
