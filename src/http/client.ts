/**
 * `createClientWith`: the dialect looked up once (`DIALECTS[api]`), a lane per budget (a limiter
 * and the ky instance whose hooks it is; v10 has a second for calls sent without Authorization,
 * on the IP's budget), the client's defaults resolved once, `withToken`'s lanes by token, and
 * `close`. Each client object is `surface.ts`'s, each typed call `typed-call.ts`'s. `src/index.ts`
 * hands it the generated SDK (`createClient`).
 */
import type { Dialect } from '../contracts/dialect.ts';
import type { BucketRef } from '../contracts/store.ts';
import { apiOfBaseUrl, DIALECTS, type ApiVersion } from '../dialects/index.ts';
import { ClientClosedError, TollgateArgumentError } from '../errors.ts';
import { checkedOptions } from '../option-shapes.ts';
import { EventHub } from '../limiter/events.ts';
import { userAgentOf } from '../package-info.ts';
import { telemetryOf, type Telemetry } from '../telemetry/telemetry.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import { DEFAULT_TRANSPORT_RETRIES, timeoutOf, type CallDefaults } from './plan.ts';
import { newLane, Sender, type Lane, type LaneParts } from './sender.ts';
import { clientObject, type SharedSurface } from './surface.ts';
import { DEFAULT_MAX_TOKENS, TokenLanes, type TokenLane } from './token-lanes.ts';
import type { ClientEvents, ClientSurface, GeneratedSdk } from './types.ts';
import { clientOptionShapes, checkClientOptions, type CheckedClientOptions, type ClientOptions } from './options.ts';

export type { ApiVersion } from '../dialects/index.ts';
export type { ClientOptions, RawRequestOptions } from './options.ts';
export type { BucketView, ClientEvents, ClientSurface, GeneratedSdk } from './types.ts';

/** A call's timeout when the client names none; a relay reads a 429's body within it. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** A client of the generated SDK `sdk`: its typed methods and the core's surface. */
export function createClientWith<Resources extends object, Cdn>(
  sdk: GeneratedSdk<Resources, Cdn>,
  options: ClientOptions = {},
): Resources & ClientSurface<Cdn> {
  const checked = checkClientOptions(options);
  const { api: chosen, baseUrl } = checked;
  const named = baseUrl === undefined ? undefined : apiOfBaseUrl(baseUrl);
  if (chosen !== undefined && named !== undefined && chosen !== named) {
    throw new TollgateArgumentError(`createClient: api is '${chosen}' but baseUrl names ${named}`);
  }
  return new ClientCore(sdk, checked, chosen ?? named ?? 'v10').client;
}

/** A token's lane under `withToken`, with its Sender (whose calls under way keep the lane). */
interface ClientLane extends TokenLane {
  readonly lane: Lane;
  readonly sender: Sender;
}

class ClientCore<Resources extends object, Cdn> {
  readonly client: Resources & ClientSurface<Cdn>;
  /** What every client object of this client shares (`withToken`'s too). */
  readonly #shared: SharedSurface<Resources, Cdn>;
  /** Every call's defaults, resolved once: its timeout, maxWait and transport retries. */
  readonly #defaults: Omit<CallDefaults, 'hasToken'>;
  /** What every lane of this client is made of, its token aside (`withToken`'s lanes too). */
  readonly #parts: LaneParts;
  readonly #telemetry: Telemetry | undefined;
  /** The limiter of the client's token. */
  readonly #main: Lane;
  /**
   * V13: a call sent without Authorization by a client that has a token (the widget image,
   * OAuth2's token endpoints) counts in the per-IP budget, not the token's: a lane on the
   * store's view without a token. Absent when both are the same.
   */
  readonly #anonymous: Lane | undefined;
  /** The IP's lane, which `withToken`'s clients send their calls without Authorization in (absent: the dialect has none). */
  readonly #ipLane: Lane | undefined;
  readonly #baseUrl: string;
  readonly #sender: Sender;
  /** `withToken`'s clients, by token. */
  readonly #tokens: TokenLanes<ClientLane>;
  #closed = false;

  constructor(sdk: GeneratedSdk<Resources, Cdn>, options: CheckedClientOptions, api: ApiVersion) {
    const dialect: Dialect<BucketRef, ClientOptions, unknown, ClientEvents> = DIALECTS[api];
    this.#baseUrl = (options.baseUrl ?? dialect.defaultBaseUrl).replace(/\/+$/, '');
    const clock = options.clock ?? dialect.defaultClock;
    const timeoutMs = timeoutOf(options.timeout ?? DEFAULT_TIMEOUT_MS);
    // Before any lane (and its timers) exists: the catalog's data read as the dialect reads it.
    const calls = {
      dialect,
      targets: dialect.targets(sdk.dialectData[api]),
      clock,
      allowedMentions: options.allowedMentions,
    };
    this.#defaults = {
      timeoutMs,
      maxWaitMs: options.maxWait ?? Number.POSITIVE_INFINITY,
      transportRetries: options.transportRetries ?? DEFAULT_TRANSPORT_RETRIES,
      relayed: false,
    };
    const events = new EventHub<ClientEvents>();
    if (options.onWait) events.on('wait', options.onWait);
    const userAgent = `${userAgentOf(sdk.package)} ${options.userAgentAppendix ?? ''}`.trim();
    const telemetry = telemetryOf(options.telemetry, {
      baseUrl: this.#baseUrl,
      version: sdk.package.version,
      clock,
      events,
      invalidRequests: () => this.#main.limiter.invalidRequests(),
    });
    this.#telemetry = telemetry;
    this.#parts = {
      dialect,
      store: options.store ?? new MemoryStore(),
      clock,
      options,
      // A 429's body is read within the client's timeout, and without one under `timeout: false`.
      judgeOptions: { bodyTimeoutMs: timeoutMs },
      events,
      onInvalidCount: dialect.watchInvalidRequests?.(options, events),
      observer: telemetry,
      transport: {
        fetch: options.fetch,
        headers: { 'user-agent': userAgent, ...options.headers },
        timeoutMs,
      },
    };
    this.#main = newLane(this.#parts, options.token);
    if (dialect.anonymousLane && options.token !== undefined) this.#anonymous = newLane(this.#parts, undefined);
    this.#ipLane = dialect.anonymousLane ? (this.#anonymous ?? this.#main) : undefined;
    this.#sender = this.#newSender(options.token, this.#main, this.#anonymous);
    this.#tokens = new TokenLanes(options.maxTokens ?? DEFAULT_MAX_TOKENS, (token) => this.#newTokenLane(token));
    this.#shared = {
      sdk,
      api,
      cdn: sdk.createCdn(options.cdn),
      calls,
      events,
      baseUrl: this.#baseUrl,
      origin: new URL(this.#baseUrl).origin,
      ipLimiter: this.#ipLane?.limiter,
      invalidRequests: () => this.#main.limiter.invalidRequests(),
      withToken: (token) => this.#withToken(token),
    };
    this.client = clientObject(this.#shared, {
      sender: () => this.#sender,
      limiter: () => this.#main.limiter,
      close: async () => {
        this.#closed = true;
        telemetry?.close();
        await Promise.all([this.#main.limiter.close(), this.#anonymous?.limiter.close(), this.#tokens.close()]);
      },
    });
  }

  #newSender(token: string | undefined, main: Lane, anonymous: Lane | undefined): Sender {
    return new Sender({
      baseUrl: this.#baseUrl,
      token,
      main,
      anonymous,
      telemetry: this.#telemetry,
      isClosed: () => this.#closed,
      defaults: this.#defaults,
    });
  }

  /** A client of `token` that shares everything of this one but its limits (`withToken`). */
  #withToken(token: unknown): Resources & ClientSurface<Cdn> {
    const kept = checkedOptions(clientOptionShapes.token, token, 'withToken');
    if (kept === undefined) throw new TollgateArgumentError('withToken: token must be a string such as "Bearer …"');
    if (this.#closed) throw new ClientClosedError();
    let closed = false;
    // The client object holds no limits: its token's lane is made on its first call and kept
    // here (at most `maxTokens`), so a client object dropped by its caller costs nothing after.
    return clientObject(this.#shared, {
      sender: () => {
        if (closed) throw new ClientClosedError();
        return this.#tokens.of(kept).sender;
      },
      limiter: () => this.#tokens.peek(kept)?.lane.limiter,
      close: async () => {
        closed = true;
        await this.#tokens.drop(kept);
      },
    });
  }

  #newTokenLane(token: string): ClientLane {
    const lane = newLane(this.#parts, token);
    // Calls without Authorization count where the IP's do, whichever token's client sends them.
    const sender = this.#newSender(token, lane, this.#ipLane);
    return {
      lane,
      sender,
      get inFlight() {
        return sender.inFlight;
      },
      close: () => lane.limiter.close(),
    };
  }
}
