/**
 * `createClientWith`: the dialect looked up once (`DIALECTS[api]`), a lane per budget (a limiter
 * and the ky instance whose hooks it is; v10 has a second for calls sent without Authorization,
 * on the IP's budget), the typed resources the generated SDK makes, `request` for raw calls, the
 * read-only bucket view and `close`. `src/index.ts` hands it the generated SDK (`createClient`).
 */
import { readBody } from '../body.ts';
import { sleep, type Clock } from '../clock.ts';
import type { CallTargets, Dialect } from '../contracts/dialect.ts';
import type { BucketRef } from '../contracts/store.ts';
import { apiOfBaseUrl, DIALECTS, type ApiVersion } from '../dialects/index.ts';
import { HttpError, RequestTimeoutError, TollgateArgumentError } from '../errors.ts';
import { EventHub } from '../limiter/events.ts';
import { buildPath } from '../routing/path.ts';
import { walkItems, walkResults, type WalkHooks } from '../pagination/walk.ts';
import type { OperationDefinition, PaginationDefinition } from '../contracts/catalog.ts';
import type {
  AuditLogOptions,
  OperationInput,
  PageQueryInput,
  QueryInput,
  RequestOptions,
  RequestOptionsWithQuery,
} from '../sdk.ts';
import { userAgentOf } from '../package-info.ts';
import { Telemetry } from '../telemetry/telemetry.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import { encodeBody, toSearchParams, withReason } from './encode.ts';
import { planCall, timeoutOf } from './plan.ts';
import { newLane, Sender, type Lane, type LaneParts } from './sender.ts';
import type { ClientEvents, ClientListener, ClientSurface, GeneratedSdk } from './types.ts';
import {
  checkCallOptions,
  checkRawRequest,
  checkNoParams,
  checkClientOptions,
  optionKeysOf,
  type CheckedClientOptions,
  type ClientOptions,
  type RawRequestOptions,
} from './options.ts';

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

class ClientCore<Resources extends object, Cdn> {
  readonly client: Resources & ClientSurface<Cdn>;
  readonly #dialect: Dialect;
  /** How the dialect makes this client's calls into targets, under the catalog's data for it. */
  readonly #targets: CallTargets;
  /** The limiter of the client's token. */
  readonly #main: Lane;
  /**
   * V13: a call sent without Authorization by a client that has a token (the widget image,
   * OAuth2's token endpoints) counts in the per-IP budget, not the token's: a lane on the
   * store's view without a token. Absent when both are the same.
   */
  readonly #anonymous: Lane | undefined;
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #timeoutMs: number | false;
  readonly #clock: Clock;
  readonly #sender: Sender;
  #closed = false;

  constructor(sdk: GeneratedSdk<Resources, Cdn>, options: CheckedClientOptions, api: ApiVersion) {
    const dialect: Dialect<BucketRef, ClientOptions, unknown, ClientEvents> = DIALECTS[api];
    this.#dialect = dialect;
    this.#targets = dialect.targets(sdk.dialectData[api]);
    this.#baseUrl = (options.baseUrl ?? dialect.defaultBaseUrl).replace(/\/+$/, '');
    this.#origin = new URL(this.#baseUrl).origin;
    this.#timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const clock = options.clock ?? dialect.defaultClock;
    this.#clock = clock;
    const store = options.store ?? new MemoryStore();
    // A 429's body is read within the client's timeout, and without one under `timeout: false`.
    const judgeOptions = { bodyTimeoutMs: timeoutOf(this.#timeoutMs) };
    const events = new EventHub<ClientEvents>();
    if (options.onWait) events.on('wait', options.onWait);
    const onInvalidCount = dialect.watchInvalidRequests?.(options, events);
    const userAgent = `${userAgentOf(sdk.package)} ${options.userAgentAppendix ?? ''}`.trim();
    const telemetry = options.telemetry
      ? new Telemetry(
          options.telemetry,
          this.#baseUrl,
          sdk.package.version,
          () => clock.now(),
          (listener) => events.on('rateLimited', listener),
          () => this.#main.limiter.invalidRequests(),
        )
      : undefined;
    const kySettings = {
      fetch: options.fetch,
      headers: { 'user-agent': userAgent, ...options.headers },
      timeoutMs: this.#timeoutMs,
    };
    const parts: LaneParts = {
      dialect,
      store,
      clock,
      options,
      judgeOptions,
      events,
      onInvalidCount,
      observer: telemetry,
      ky: kySettings,
    };
    const lane = (token: string | undefined): Lane => newLane(parts, token);
    this.#main = lane(options.token);
    if (dialect.anonymousLane && options.token !== undefined) this.#anonymous = lane(undefined);
    this.#sender = new Sender({
      baseUrl: this.#baseUrl,
      token: options.token,
      main: this.#main,
      anonymous: this.#anonymous,
      telemetry,
      isClosed: () => this.#closed,
    });
    const caller = Object.assign(
      (
        operation: OperationDefinition,
        args: readonly unknown[],
        input?: OperationInput,
        callOptions?: RequestOptionsWithQuery<QueryInput>,
      ) => this.#invoke(operation, args, input, callOptions),
      {
        url: (operation: OperationDefinition, args: readonly unknown[], query?: QueryInput) =>
          this.#url(operation, args, query),
        pages: (
          operation: OperationDefinition,
          facts: PaginationDefinition,
          args: readonly unknown[],
          query?: PageQueryInput,
          callOptions?: RequestOptions,
        ) => walkResults(operation.name, facts, query ?? {}, this.#pageHooks(operation, args, callOptions)),
        items: (
          operation: OperationDefinition,
          facts: PaginationDefinition,
          args: readonly unknown[],
          query?: PageQueryInput,
          callOptions?: RequestOptions,
        ) => walkItems(operation.name, facts, query ?? {}, this.#pageHooks(operation, args, callOptions)),
      },
    );
    const main = this.#main.limiter;
    const client: Resources & ClientSurface<Cdn> = Object.freeze({
      ...sdk.createResources(caller),
      api,
      cdn: sdk.createCdn(options.cdn),
      on: <Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>) => {
        events.on(name, listener);
        return client;
      },
      off: <Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>) => {
        events.off(name, listener);
        return client;
      },
      once: <Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>) => {
        events.once(name, listener);
        return client;
      },
      invalidRequests: () => main.invalidRequests(),
      request: (method: string, path: string, requestOptions?: RawRequestOptions) =>
        this.#request(method, path, requestOptions),
      buckets: Object.freeze({
        get: async (bucketKey: string) => {
          if (typeof bucketKey !== 'string' || bucketKey === '') {
            throw new TollgateArgumentError(
              'buckets.get: bucketKey must be a bucket key such as "ChannelsIdMessages:81384788765712384"',
            );
          }
          const bucket = dialect.bucketOfKey(bucketKey);
          // Calls without Authorization keep their buckets in the IP's lane.
          return (await main.snapshot(bucket)) ?? this.#anonymous?.limiter.snapshot(bucket);
        },
      }),
      close: async () => {
        this.#closed = true;
        telemetry?.close();
        await Promise.all([main.close(), this.#anonymous?.limiter.close()]);
      },
    });
    this.client = client;
  }

  async #invoke(
    operation: OperationDefinition,
    args: readonly unknown[],
    input: OperationInput | undefined,
    options: RequestOptionsWithQuery<QueryInput> | undefined,
  ): Promise<unknown> {
    const label = operation.name;
    checkCallOptions(label, options, optionKeysOf(operation));
    if (input?.params !== undefined) checkNoParams(label, input.params);
    const { path, values } = buildPath(operation.path, args);
    const target = this.#targets.targetOfOperation(operation, path, values, this.#clock.now());
    const given = options as (RequestOptionsWithQuery<QueryInput> & AuditLogOptions & { body?: unknown }) | undefined;
    // A body that came after the query is given in the options (catalog `bodyIn: 'options'`).
    const bodyGiven = operation.bodyInOptions ? given?.body : input?.body;
    const nonce = this.#dialect.resendSafeBody?.(target, bodyGiven);
    const body = encodeBody(label, operation, nonce ? nonce.body : bodyGiven);
    if (operation.queryRequired && input?.query === undefined)
      throw new TollgateArgumentError(`${label} needs a query`);
    const plan = planCall(
      {
        method: operation.method,
        path,
        target,
        authenticated: !operation.unauthenticated && !target.exempt,
        nonceEnforced: nonce?.enforced ?? false,
        headers: withReason(given?.headers, given?.reason),
        json: body.json,
        body: body.body,
        query: input?.query ?? given?.query,
        signal: given?.signal,
        timeout: given?.timeout,
        maxWait: given?.maxWait,
        transportRetries: given?.transportRetries,
      },
      this.#timeoutMs,
    );
    const response = await this.#sender.send(plan);
    const timeoutMs = plan.timeoutMs;
    const parsed = await readBody(
      response,
      operation.binaryResult && response.ok,
      timeoutMs,
      () => new RequestTimeoutError(plan.identity, timeoutMs!),
    ).catch((error: unknown) => {
      // A body that breaks off (the connection reset mid-read) fails the call as the network's fault.
      throw error instanceof RequestTimeoutError ? error : this.#sender.networkFailure(error, plan.identity);
    });
    if (!response.ok) {
      // A path with a secret (a webhook or interaction token) must not reach the error: its
      // Response is handed over without the URL (the body was read into `body`).
      const secret = operation.path.some((segment) => typeof segment !== 'string' && segment.kind === 'secret');
      const shown = secret
        ? new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
        : response;
      throw new HttpError(plan.identity, shown, parsed);
    }
    return parsed;
  }

  /** A page is an ordinary call of the list's operation; a "try later" waits on the client's clock. */
  #pageHooks(operation: OperationDefinition, args: readonly unknown[], options: RequestOptions | undefined): WalkHooks {
    return {
      fetchPage: (query) => this.#invoke(operation, args, { query }, options),
      sleep: (ms) => sleep(this.#clock, ms, options?.signal),
    };
  }

  /** A link operation's page: base URL, path and query; nothing is sent. */
  #url(operation: OperationDefinition, args: readonly unknown[], query: QueryInput | undefined): string {
    const { path } = buildPath(operation.path, args);
    const search = toSearchParams(query)?.toString();
    return `${this.#baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  async #request(method: string, path: string, options: RawRequestOptions = {}): Promise<Response> {
    const upper = checkRawRequest(method, path, options, this.#baseUrl, this.#origin);
    const target = this.#targets.targetOfRequest(upper, path, this.#clock.now());
    const plan = planCall(
      { ...options, method: upper, path, target, authenticated: !target.exempt, nonceEnforced: false },
      this.#timeoutMs,
    );
    return this.#sender.send(plan);
  }
}
