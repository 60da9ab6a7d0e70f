/**
 * A relay: a fetch that obeys Discord's limits, for requests someone else makes and retries
 * (@discordjs/rest through `tollgate/discordjs`, a bot behind the proxy). Each request is one
 * relayed call through the same limiter as a client's, in the lane of the token its Authorization
 * names (or the IP's, without one): it waits for its place, goes once, and its answer comes back
 * as it came, once the limiter has learnt from it. A wait the limiter refuses (longer than
 * `maxWait`, a token or webhook known dead, the invalid-request guard) comes back as the answer
 * the service would give, made by tollgate and marked so (v10's `answers.ts`), and nothing is sent.
 */
import { z } from 'zod';
import { ClientClosedError, TollgateArgumentError, type CallIdentity } from '../errors.ts';
import type { Clock } from '../clock.ts';
import type { BucketRef, Store } from '../contracts/store.ts';
import type { CallTargets, Dialect } from '../contracts/dialect.ts';
import { DIALECT_OPTION_SHAPES, type DialectOptions } from '../dialects/options.ts';
import { EventHub, type WaitEvent } from '../limiter/events.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import { checkedOptions } from '../option-shapes.ts';
import { checkCallMaxWait, clientOptionShapes, isMethodName } from './options.ts';
import { planCall, type CallDefaults } from './plan.ts';
import { newLane, Sender, type LaneParts } from './sender.ts';
import type { ClientEvents } from './types.ts';
import { DEFAULT_TIMEOUT_MS } from './client.ts';
import { DEFAULT_MAX_TOKENS, TokenLanes, type TokenLane } from './token-lanes.ts';
import { telemetryOf, type Telemetry, type TelemetryOption } from '../telemetry/telemetry.ts';

/** The API root a relay sends to by default: Discord's, without a version. */
export const DEFAULT_API_ROOT = 'https://discord.com/api';

/** How long a relayed request waits for its place by default, in ms: then a 429 made by tollgate answers. */
export const DEFAULT_RELAY_MAX_WAIT_MS = 5000;

/** `createRelay`'s options: where the limits are kept, how requests are sent, and v10's own (`globalLimit`…). */
export interface RelayOptions extends DialectOptions {
  /**
   * Where the limits are kept: `MemoryStore` (the default; this process alone), `RedisStore`, or
   * `DurableObjectStore`. Every process relaying for the same bot shares one.
   */
  readonly store?: Store;
  /** The fetch that sends (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Time (default: monotonic); tests inject their own. */
  readonly clock?: Clock;
  /**
   * The API root requests go to, without a version (default `https://discord.com/api`). A
   * request under any other root is refused: its token would go somewhere unlimited.
   */
  readonly apiRoot?: string;
  /**
   * The longest a request waits for its place, in ms (default 5000). A longer wait is answered at
   * once by a 429 tollgate makes, with `Retry-After`; nothing is sent. Keep it well under the
   * relayer's own timeout (@discordjs/rest's is 15 s), so a wait never becomes an abort.
   */
  readonly maxWait?: number;
  /** Tokens whose lanes are kept (default 1000); the least recently used idle one goes first. */
  readonly maxTokens?: number;
  /** Each wait before a request is sent. */
  readonly onWait?: (event: WaitEvent) => void;
  /**
   * OpenTelemetry spans and metrics, as a client's (needs the optional peer `@opentelemetry/api`):
   * a span per relayed request, its waits as events, its attempt as a client span.
   */
  readonly telemetry?: TelemetryOption;
}

/** What a relayed request carries: fetch's `RequestInit`, of which a relay reads these. */
export interface RelayInit {
  readonly method?: string | undefined;
  readonly headers?: HeadersInit | undefined;
  readonly body?: BodyInit | null | undefined;
  readonly signal?: AbortSignal | null | undefined;
  /** This request's longest wait for its place, in ms (default: the relay's `maxWait`). */
  readonly maxWait?: number | undefined;
}

/** `fetch`, limited: `relay(url, init)`; `close()` ends every wait and lane. */
export interface Relay {
  (url: string | URL, init?: RelayInit): Promise<Response>;
  /** V15: invalid requests of the last 10 minutes, over every token of the store (the IP's count). */
  invalidRequests(): Promise<number>;
  /** The count of `invalidRequests()` at which the relay refuses, as its dialect sets it (v10: `invalidRequestLimit`). */
  readonly invalidRequestLimit: number | undefined;
  /** Fails every waiting request with ClientClosedError, cancels the timers and refuses new requests. */
  close(): Promise<void>;
}

/** What `createRelay` takes; the proxy checks the options it hands on by the same shapes. */
export const relayOptionsSchema = z.strictObject({
  store: clientOptionShapes.store,
  fetch: clientOptionShapes.fetch,
  clock: clientOptionShapes.clock,
  maxWait: clientOptionShapes.maxWait,
  onWait: clientOptionShapes.onWait,
  telemetry: clientOptionShapes.telemetry,
  apiRoot: z
    .string({ error: 'apiRoot must be an absolute http(s) URL such as "https://discord.com/api"' })
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
      error: 'apiRoot must be an absolute http(s) URL such as "https://discord.com/api"',
    })
    .refine((value) => !/\/v\d+\/*$/.test(value), { error: 'apiRoot must not name a version (requests do)' })
    .optional(),
  maxTokens: clientOptionShapes.maxTokens,
  ...DIALECT_OPTION_SHAPES,
});

/** Each answer a relay handed back, with the call it answered. */
const RELAYED_CALLS = new WeakMap<Response, CallIdentity>();

/**
 * How the relay named the call `answer` answered (its route template, bucket…), when a relay
 * handed it back: who relays it (the proxy's logs and metrics) need not classify its path again.
 */
export const relayedCallOf = (answer: Response): CallIdentity | undefined => RELAYED_CALLS.get(answer);

/** The dialect a relay speaks, and the catalog's data for it. */
export interface RelayDialect {
  readonly dialect: Dialect<BucketRef, DialectOptions, unknown, ClientEvents>;
  readonly catalogData: unknown;
}

/** A relay speaking `speaks` (`src/index.ts` hands it v10, the service of today, and the catalog's data for it). */
export function createRelayWith(speaks: RelayDialect, version: string, options: RelayOptions = {}): Relay {
  const core = new RelayCore(speaks, version, checkedOptions(relayOptionsSchema, options, 'createRelay'));
  return Object.assign((url: string | URL, init?: RelayInit) => core.send(url, init), {
    invalidRequests: () => core.invalidRequests(),
    invalidRequestLimit: core.invalidRequestLimit,
    close: () => core.close(),
  });
}

/** A token's lane, with its Sender (whose requests under way keep the lane). */
interface RelayLane extends TokenLane {
  readonly sender: Sender;
  readonly invalidRequests: () => Promise<number>;
}

class RelayCore {
  readonly invalidRequestLimit: number | undefined;
  readonly #dialect: Dialect<BucketRef, DialectOptions, unknown, ClientEvents>;
  readonly #targets: CallTargets;
  readonly #apiRoot: string;
  readonly #origin: string;
  readonly #clock: Clock;
  readonly #parts: LaneParts;
  /** Every relayed call's defaults: relayed, the relay's maxWait, no timeout (the relayer bounds its own request), no retries. */
  readonly #defaults: Omit<CallDefaults, 'hasToken'>;
  readonly #telemetry: Telemetry | undefined;
  /** The IP's lane: requests without Authorization (V13). */
  readonly #ip: RelayLane;
  /** By Authorization. */
  readonly #tokens: TokenLanes<RelayLane>;
  #closed = false;

  constructor({ dialect, catalogData }: RelayDialect, version: string, options: RelayOptions) {
    this.#dialect = dialect;
    this.invalidRequestLimit = dialect.invalidRequestLimit?.(options);
    this.#targets = dialect.targets(catalogData);
    // As URLs are compared: in the form the URL parser writes (a host in lower case).
    this.#apiRoot = new URL(options.apiRoot ?? DEFAULT_API_ROOT).href.replace(/\/+$/, '');
    this.#origin = new URL(this.#apiRoot).origin;
    this.#clock = options.clock ?? dialect.defaultClock;
    this.#tokens = new TokenLanes(options.maxTokens ?? DEFAULT_MAX_TOKENS, (token) => this.#newLane(token));
    const events = new EventHub<ClientEvents>();
    if (options.onWait) events.on('wait', options.onWait);
    this.#telemetry = telemetryOf(options.telemetry, {
      baseUrl: this.#apiRoot,
      version,
      clock: this.#clock,
      events,
      invalidRequests: () => this.invalidRequests(),
    });
    this.#defaults = {
      timeoutMs: undefined,
      maxWaitMs: options.maxWait ?? DEFAULT_RELAY_MAX_WAIT_MS,
      transportRetries: 0,
      relayed: true,
    };
    this.#parts = {
      dialect,
      store: options.store ?? new MemoryStore(),
      clock: this.#clock,
      options,
      // A 429's body is read within a client's default timeout: a relay has no deadline of its own.
      judgeOptions: { bodyTimeoutMs: DEFAULT_TIMEOUT_MS },
      events,
      onInvalidCount: dialect.watchInvalidRequests?.(options, events),
      observer: this.#telemetry,
      // One attempt on the relay's fetch, the relayer's own headers as they came: no User-Agent
      // of tollgate's, no timeout.
      transport: { relayed: true, fetch: options.fetch },
    };
    this.#ip = this.#newLane(undefined);
  }

  async send(url: string | URL, init: RelayInit = {}): Promise<Response> {
    if (this.#closed) throw new ClientClosedError();
    const sendPath = this.#pathOf(String(url));
    const method = (init.method ?? 'GET').toUpperCase();
    if (!isMethodName(method)) throw new TollgateArgumentError(`relay: ${JSON.stringify(init.method)} is not a method`);
    checkCallMaxWait('relay', init.maxWait);
    const headers = new Headers(init.headers);
    // An empty Authorization is none: no lane of its own, and no empty secret to scrub.
    const authorization = headers.get('authorization') || null;
    headers.delete('authorization');
    const target = this.#targets.targetOfRequest(method, sendPath, this.#clock.now());
    const lane = authorization === null ? this.#ip : this.#tokens.of(authorization);
    const plan = planCall(
      {
        method,
        path: sendPath,
        target,
        authenticated: authorization !== null,
        nonceEnforced: false,
        headers,
        body: init.body ?? undefined,
        signal: init.signal ?? undefined,
        maxWait: init.maxWait,
      },
      lane.sender.defaults,
    );
    let answer: Response;
    try {
      answer = await lane.sender.send(plan);
    } catch (error) {
      // Nothing was sent: the answer the service would have given, marked as tollgate's.
      const refusal = this.#dialect.refusalAnswer?.(error);
      if (!refusal) throw error;
      answer = refusal;
    }
    RELAYED_CALLS.set(answer, plan.identity);
    return answer;
  }

  invalidRequests(): Promise<number> {
    return this.#ip.invalidRequests();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#telemetry?.close();
    await Promise.all([this.#ip.close(), this.#tokens.close()]);
  }

  /**
   * The path sent, under the API root (version and query kept), as fetch will send it: dot
   * segments resolved first, so `…/webhooks/1/x/../../channels/2` is classified as the channel it
   * reaches. The dialect classifies it as it classifies every path (`routePath`: no version, no query).
   */
  #pathOf(url: string): string {
    const root = this.#apiRoot;
    const parsed = URL.parse(url);
    const href = parsed?.href ?? '';
    if (parsed?.origin !== this.#origin || !href.startsWith(`${root}/`)) {
      throw new TollgateArgumentError(
        `relay: ${url.split('?')[0]} is not under the API root ${root} (set apiRoot to relay to another)`,
      );
    }
    return href.slice(root.length);
  }

  #newLane(token: string | undefined): RelayLane {
    const lane = newLane(this.#parts, token);
    const sender = new Sender({
      baseUrl: this.#apiRoot,
      token,
      main: lane,
      anonymous: undefined,
      telemetry: this.#telemetry,
      isClosed: () => this.#closed,
      defaults: this.#defaults,
    });
    return {
      sender,
      invalidRequests: () => lane.limiter.invalidRequests(),
      close: () => lane.limiter.close(),
      get inFlight() {
        return sender.inFlight;
      },
    };
  }
}
