/**
 * A client object: the generated SDK's typed methods over one scope (the client's own token, or
 * one token's under `withToken`), and the core's surface beside them (events, raw calls, the
 * read-only bucket view, `withToken`, `close`). `client.ts` makes the parts every client object
 * of one client shares; this puts one together.
 */
import { sleep } from '../clock.ts';
import { TollgateArgumentError } from '../errors.ts';
import type { EventHub } from '../limiter/events.ts';
import type { Limiter } from '../limiter/limiter.ts';
import { buildPath } from '../paths/path.ts';
import { walkItems, walkResults } from '../pagination/walk.ts';
import type { OperationDefinition, PaginationDefinition } from '../contracts/catalog.ts';
import type { ApiVersion } from '../dialects/index.ts';
import type { OperationInput, PageQueryInput, QueryInput, RequestOptions, RequestOptionsWithQuery } from '../sdk.ts';
import { toSearchParams } from './encode.ts';
import { checkRawRequest, type RawRequestOptions } from './options.ts';
import { planCall, type TypedCallContext } from './plan.ts';
import type { Sender } from './sender.ts';
import { invokeOperation, withResponseOf } from './typed-call.ts';
import type { ClientEvents, ClientListener, ClientSurface, GeneratedSdk } from './types.ts';

/**
 * What one client object calls through: the client's own token, or one token's under `withToken`
 * (its lane made anew on its next call if it was let go, its `close` that token's alone).
 */
export interface ClientScope {
  readonly sender: () => Sender;
  /** The token's limiter, if its lane is kept (`buckets.get` reads it, then the IP's). */
  readonly limiter: () => Limiter | undefined;
  readonly close: () => Promise<void>;
}

/** What every client object of one client shares. */
export interface SharedSurface<Resources, Cdn> {
  readonly sdk: GeneratedSdk<Resources, Cdn>;
  readonly api: ApiVersion;
  readonly cdn: Cdn;
  /** The dialect, its targets under the catalog's data, the clock, allowedMentions. */
  readonly calls: TypedCallContext;
  readonly events: EventHub<ClientEvents>;
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly origin: string;
  /** The IP's lane's limiter, where calls without Authorization keep their buckets (absent: the dialect has none). */
  readonly ipLimiter: Limiter | undefined;
  /** V15: the client's own token's count, whichever client object asks. */
  readonly invalidRequests: () => Promise<number>;
  readonly withToken: (token: string) => Resources & ClientSurface<Cdn>;
}

/** The client object of `scope`: the typed methods and the core's surface. */
export function clientObject<Resources extends object, Cdn>(
  shared: SharedSurface<Resources, Cdn>,
  scope: ClientScope,
): Resources & ClientSurface<Cdn> {
  const { calls, events } = shared;
  /** A paged list's walk (page by page, or item by item): each page an ordinary call of the list's operation. */
  const walkWith =
    (walk: typeof walkItems) =>
    (
      operation: OperationDefinition,
      facts: PaginationDefinition,
      args: readonly unknown[],
      query?: PageQueryInput,
      options?: RequestOptions,
    ) =>
      walk(operation.name, facts, query ?? {}, {
        fetchPage: (pageQuery) => invokeOperation(calls, scope.sender, operation, args, { query: pageQuery }, options),
        // A "try later" waits on the client's clock.
        sleep: (ms) => sleep(calls.clock, ms, options?.signal),
      });
  const caller = Object.assign(
    (
      operation: OperationDefinition,
      args: readonly unknown[],
      input?: OperationInput,
      callOptions?: RequestOptionsWithQuery<QueryInput>,
    ) => withResponseOf((answer) => invokeOperation(calls, scope.sender, operation, args, input, callOptions, answer)),
    {
      url: (operation: OperationDefinition, args: readonly unknown[], query?: QueryInput) =>
        urlOf(shared.baseUrl, operation, args, query),
      pages: walkWith(walkResults),
      items: walkWith(walkItems),
    },
  );
  const client: Resources & ClientSurface<Cdn> = Object.freeze({
    ...shared.sdk.createResources(caller),
    api: shared.api,
    cdn: shared.cdn,
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
    invalidRequests: shared.invalidRequests,
    request: (method: string, path: string, requestOptions?: RawRequestOptions) =>
      rawRequest(shared, scope, method, path, requestOptions),
    buckets: Object.freeze({
      get: async (bucketKey: string) => {
        if (typeof bucketKey !== 'string' || bucketKey === '') {
          throw new TollgateArgumentError(
            'buckets.get: bucketKey must be a bucket key such as "ChannelsIdMessages:81384788765712384"',
          );
        }
        const bucket = calls.dialect.bucketOfKey(bucketKey);
        // Calls without Authorization keep their buckets in the IP's lane.
        return (await scope.limiter()?.snapshot(bucket)) ?? shared.ipLimiter?.snapshot(bucket);
      },
    }),
    withToken: shared.withToken,
    close: scope.close,
  });
  return client;
}

/** A link operation's page: base URL, path and query; nothing is sent. */
function urlOf(
  baseUrl: string,
  operation: OperationDefinition,
  args: readonly unknown[],
  query: QueryInput | undefined,
): string {
  const { path } = buildPath(operation.path, args);
  const search = toSearchParams(query)?.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

/** `client.request`: a raw call, checked, planned and sent through the scope's sender. */
async function rawRequest(
  shared: SharedSurface<object, unknown>,
  scope: ClientScope,
  method: string,
  path: string,
  options: RawRequestOptions = {},
): Promise<Response> {
  const sender = scope.sender();
  const upper = checkRawRequest(method, path, options, shared.baseUrl, shared.origin);
  const { targets, clock } = shared.calls;
  const target = targets.targetOfRequest(upper, path, clock.now());
  const plan = planCall(
    { ...options, method: upper, path, target, authenticated: !target.exempt, nonceEnforced: false },
    sender.defaults,
  );
  return sender.send(plan);
}
