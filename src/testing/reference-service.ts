/**
 * A real HTTP/1.1 server (node:http, keep-alive) that serves every route of the catalog and
 * enforces the service's rate limits as the spec describes them, so code can run against
 * realistic limits offline. Exported as `tollgate/testing`.
 *
 * - It speaks v10 unless told `api: 'v6'`, as the client does.
 * - Buckets are keyed by bucket key (route key, major id, and the method for the message-by-id
 *   key) and by the Authorization value. Each route key has a limit and a window; windows start
 *   at a bucket's first request and end `windowMs` later. The service reads requests its own way
 *   (classify.ts), sharing no code with the client's classifier, so it can catch its mistakes.
 * - Responses carry x-ratelimit-limit/remaining/reset (reset: whole Unix seconds, rounded up so
 *   the window is over by then); 429s carry retry-after in ms; global 429s x-ratelimit-global.
 * - A global limit counts every rate-limited request of one Authorization value.
 * - It serves the catalog's operations and refuses what the service would (routing.ts): another
 *   API version or a path no operation has is a 404, a method the path does not take a 405, and
 *   under v10 a call without Authorization a 401 where the route needs one. v6's `None` routes
 *   (catalog operations outside the spec's keys) send no rate-limit headers.
 * - A message create answers the message made from what was sent and honours `enforce_nonce`
 *   (messages.ts); `messages` lists the messages made.
 * - Paged lists answer from what a test seeds (`lists.seed`); faults can be scripted; all is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { APIMessage } from 'discord-api-types/v10';
import { systemClock, type Clock } from '../clock.ts';
import { matchOperation } from './catalog-match.ts';
import { classifyV10Request, v6BucketKeyOf } from './classify.ts';
import { drain } from './exchange.ts';
import { FaultQueue, type Fault, type FaultRule } from './faults.ts';
import { sampleResult } from './fixtures.ts';
import { LimitEnforcer, mostWithin, type RateLimit } from './limits.ts';
import { MessageLedger, type Answer } from './messages.ts';
import { PagedLists } from './pages.ts';
import { delayEnd, sampleAnswer, send, sendV10 } from './responses.ts';
import { acceptsToken, NOT_FOUND, openRoute, pathBelowBase, refusalOf, type Refusal } from './routing.ts';
import { checkedApi, type ReferenceServiceOptions } from './service-options.ts';
import { answerV6 } from './v6-answer.ts';
import { answerV10 } from './v10-answer.ts';
import { V10LimitEnforcer } from './v10-limits.ts';

export type { ReferenceServiceOptions } from './service-options.ts';

const MESSAGE_CREATE = 'channels.messages.create';

/** A request the service answered, as `service.requests` keeps it: when, which bucket, and how it was answered. */
export interface RecordedRequest {
  /** Service clock time (ms) when the request arrived. */
  readonly at: number;
  readonly method: string;
  readonly routeKey: string;
  readonly bucketKey: string;
  /** The status answered; a success is recorded as 200, a 204 too (0: dropped). */
  readonly status: number;
  /** The request was answered with a global 429. */
  readonly global: boolean;
  readonly fault: Fault['kind'] | undefined;
}

/**
 * The service on loopback, with its rate limits: `await new ReferenceService().start()`, then a
 * client on `service.baseUrl`. It records every request, answers paged lists from what a test
 * seeds (`lists`), and takes scripted faults (`inject`). See docs/reference-service.md.
 */
export class ReferenceService {
  readonly requests: RecordedRequest[] = [];
  readonly lists = new PagedLists();
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #clock: Clock;
  readonly #options: ReferenceServiceOptions;
  /** The API's path prefix, without a trailing slash. */
  readonly #basePath: string;
  readonly #limits: LimitEnforcer;
  readonly #v10: V10LimitEnforcer | undefined;
  readonly #faults = new FaultQueue();
  readonly #ledger: MessageLedger;
  #inFlight = 0;
  #maxInFlight = 0;
  #url = '';

  constructor(options: ReferenceServiceOptions = {}) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#ledger = new MessageLedger(this.#clock);
    const api = checkedApi(options);
    this.#limits = new LimitEnforcer(api === 'v10' ? {} : options, this.#clock);
    this.#v10 = api === 'v10' ? new V10LimitEnforcer(options, this.#clock) : undefined;
    this.#basePath = (options.basePath ?? (api === 'v10' ? '/api/v10' : '/api/v6')).replace(/\/+$/, '');
  }

  /** Starts listening on 127.0.0.1; resolves once the port is bound. */
  async start(): Promise<this> {
    const server = createServer({ keepAlive: true }, (request, response) => void this.#handle(request, response));
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#options.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    this.#url = `http://127.0.0.1:${port}${this.#basePath}`;
    return this;
  }

  /** The API base URL to give a client, e.g. `http://127.0.0.1:41234/api/v10`. */
  get baseUrl(): string {
    if (!this.#url) throw new Error('reference service: not started');
    return this.#url;
  }

  /** Requests being answered right now, and the most there ever were at once. */
  get inFlight(): number {
    return this.#inFlight;
  }
  /** The most requests that were being answered at once since the service started. */
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  /**
   * Every message the service made (POST /channels/:id/messages), oldest first: what a test
   * counts to see how many messages a run really created. A create that `enforce_nonce` turned
   * into the earlier message makes none, nor does a refused or rate-limited one. Each is the
   * message as answered (content, embeds, attachments and nonce as sent; a fresh id).
   */
  get messages(): APIMessage[] {
    return this.#ledger.messages;
  }

  /** The messages the service made in one channel, oldest first (see `messages`). */
  createdMessages(channelId: string): APIMessage[] {
    return this.#ledger.messages.filter((message) => message.channel_id === channelId);
  }

  /** Adds a fault for the next matching request(s). */
  inject(rule: FaultRule): void {
    this.#faults.inject(rule);
  }

  /** The limit of a bucket key: v6's, or v10's as the service counts it (`<hash> <resource>`; a bare hash does too). */
  limitOf(bucketKey: string): RateLimit {
    return this.#v10 ? this.#v10.limitOf(bucketKey.split(' ')[0]!) : this.#limits.limitOf(bucketKey);
  }

  /** The global limit per Authorization value (v10's, or the one of `options.global` under v6). */
  get globalLimit(): RateLimit {
    return (this.#v10 ?? this.#limits).globalLimit;
  }

  /** v10: the IP's invalid requests (401, 403, non-shared 429) of the last 10 minutes, and whether it is banned. */
  get invalidRequests(): number {
    return this.#v10?.invalidRequests ?? 0;
  }
  /** v10: whether the IP is banned now: its invalid requests of 10 minutes reached `banThreshold` (default 10 000). */
  get banned(): boolean {
    return this.#v10?.banned ?? false;
  }

  /**
   * The most requests of one bucket (and Authorization) that the service accepted within any
   * span of its window, over the whole run: never above the limit when clients behave.
   */
  maxPerWindow(bucketKey: string): number {
    const { windowMs } = this.limitOf(bucketKey);
    const times = this.requests.filter((r) => r.bucketKey === bucketKey && r.status !== 429).map((r) => r.at);
    return mostWithin(times, windowMs);
  }

  /** Stops accepting requests and closes every connection. */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.#inFlight += 1;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    try {
      const url = new URL(request.url ?? '/', 'http://reference.invalid');
      const method = request.method ?? 'GET';
      const v10 = this.#v10;
      // The path below the base, if this service serves it (routing.ts), and its catalog operation.
      const below = pathBelowBase(url.pathname, v10 ? 'v10' : 'v6', this.#basePath);
      const path = below ?? url.pathname;
      const operation = below === undefined ? undefined : matchOperation(method, path);
      // Only a message create's body is kept (its message echoes it); others are only measured.
      const { size, bytes } = await drain(request, operation?.name === MESSAGE_CREATE);
      const latency = this.#options.latencyMs ?? 0;
      if (latency > 0) {
        await new Promise((resolve) => setTimeout(resolve, latency / 2));
        delayEnd(response, latency / 2);
      }
      // The service's own reading of the request (classify.ts), never the client's. Faults match
      // its key: v6's bucket key, or v10's route and resource.
      const v10Route = v10 ? classifyV10Request(method, path, this.#clock.now()) : undefined;
      const bucketKey = v10Route ? v10Route.bucketKey : v6BucketKeyOf(method, path);
      const routeKey = v10Route ? v10Route.route : bucketKey.split(':')[0]!;
      const refusal: Refusal | undefined =
        below === undefined ? { status: 404, body: NOT_FOUND } : refusalOf(path, operation);
      // A refused request draws no fault: faults are scripted for calls the service serves.
      const fault = refusal ? undefined : this.#faults.take(bucketKey);
      const at = this.#clock.now();
      const record = (status: number, global = false, countedAs = bucketKey) =>
        this.requests.push({ at, method, routeKey, bucketKey: countedAs, status, global, fault: fault?.kind });

      // A banned IP meets the CDN's ban before any route is looked at.
      if (refusal && !v10?.banned) {
        record(refusal.status);
        return (v10 ? sendV10 : send)(response, refusal.status, refusal.body);
      }
      if (fault?.kind === 'drop') {
        record(0);
        request.socket.destroy();
        return;
      }
      if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault?.kind === 'status') {
        record(fault.status);
        return send(response, fault.status, fault.body ?? { message: 'scripted failure' });
      }
      const auth = request.headers.authorization ?? '';
      const answer = async (): Promise<Answer> => {
        const fallback = { route: routeKey, method, received: size };
        const paged = operation && this.lists.answer(operation.name, operation.ids, request.url ?? '/');
        if (paged) return paged;
        if (operation?.name !== MESSAGE_CREATE) return sampleAnswer(operation, fallback);
        const sample = sampleResult(operation.name, operation.ids, fallback) as APIMessage;
        const contentType = request.headers['content-type'] ?? '';
        return this.#ledger.create(operation.ids.channel_id!, auth, contentType, bytes, sample);
      };
      const open = openRoute(operation, v10Route?.exempt ?? false);
      const tokenAccepted = acceptsToken(operation, auth);
      const exchange = {
        request,
        response,
        method,
        path,
        routeKey,
        bucketKey,
        fault,
        open,
        tokenAccepted,
        answer,
        record,
      };
      if (v10) return await answerV10(v10, v10Route!, exchange);
      return await answerV6(this.#limits, this.#options.dialect, exchange);
    } catch (error) {
      if (!response.headersSent) send(response, 500, { message: String(error) });
    } finally {
      this.#inFlight -= 1;
    }
  }
}
