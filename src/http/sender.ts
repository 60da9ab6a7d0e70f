/**
 * One call on the wire: its lane (the token's budget, or the IP's for calls sent without
 * Authorization), its headers (the token the one way to authenticate), ky with the limiter's
 * hooks, its span, and what a failure raises (never ky's errors, which hold the Request; never
 * the token).
 */
import ky, { isNetworkError, isTimeoutError, type Hooks, type KyInstance, type Options } from 'ky';
import { readBody } from '../body.ts';
import { ClientClosedError, NetworkError, RequestTimeoutError, type CallIdentity } from '../errors.ts';
import { type CallState } from '../limiter/call.ts';
import { KY_RETRY, kyRetryOf } from '../limiter/resend.ts';
import type { BucketRef, Store } from '../contracts/store.ts';
import type { Dialect, JudgeOptions } from '../contracts/dialect.ts';
import { tokenKindOf } from '../tokens.ts';
import type { Clock } from '../clock.ts';
import type { DialectOptions } from '../dialects/options.ts';
import type { EventSink, LimiterEvents } from '../limiter/events.ts';
import { Limiter } from '../limiter/limiter.ts';
import type { CallObserver } from '../limiter/observer.ts';
import { errorCodeOf, scrubbed } from '../secrets.ts';
import type { Telemetry } from '../telemetry/telemetry.ts';
import type { CallDefaults, CallPlan } from './plan.ts';
import { relayedSend, RelayedTransportError, type RelayedSend } from './relayed-send.ts';

/** One budget: a limiter, and what sends its calls. */
export type Lane = KyLane | RelayedLane;

/**
 * A client's lane: the ky instance whose hooks the limiter is; with a token, the same instance
 * with Authorization among its own headers (made once, so no call merges the token in again).
 */
export interface KyLane {
  readonly limiter: Limiter;
  readonly ky: KyInstance;
  readonly kyWithToken?: KyInstance;
}

/** A relay's lane: its calls go without ky (`relayed-send.ts`). */
export interface RelayedLane {
  readonly limiter: Limiter;
  readonly relayed: RelayedSend;
}

/** What a lane's ky instances are made of, besides the limiter's hooks. */
export interface LaneKySettings {
  readonly fetch: typeof fetch | undefined;
  /** The User-Agent and the client's own headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** ms, or undefined for none. */
  readonly timeoutMs: number | undefined;
}

/** A relay's lanes' transport: each call one attempt on `fetch` (the global one without it), no ky. */
export interface RelayedTransport {
  readonly relayed: true;
  readonly fetch: typeof fetch | undefined;
}

/** What every lane of one client (or one relay) is made of, besides its token. */
export interface LaneParts {
  readonly dialect: Dialect<BucketRef, DialectOptions, unknown, never>;
  readonly store: Store;
  readonly clock: Clock;
  readonly options: DialectOptions & { readonly maxHeaderResends?: number | undefined };
  /** What the dialect's judge is made with (each lane adds its token's kind). */
  readonly judgeOptions: Omit<JudgeOptions, 'tokenKind'>;
  readonly events: EventSink<LimiterEvents>;
  readonly onInvalidCount: ((count: number) => void) | undefined;
  readonly observer: CallObserver | undefined;
  readonly transport: LaneKySettings | RelayedTransport;
}

/** The lane of `token` (undefined: the IP's): a limiter on the store's view for it, and its ky. */
export function newLane(parts: LaneParts, token: string | undefined): Lane {
  const { dialect, clock, options } = parts;
  const limiter = new Limiter({
    observer: parts.observer,
    clock,
    store: dialect.view(parts.store, token, clock, options),
    judge: dialect.judge({ ...parts.judgeOptions, tokenKind: tokenKindOf(token) }),
    sharedBuckets: dialect.sharedBuckets,
    onInvalidCount: parts.onInvalidCount,
    events: parts.events,
    maxHeaderResends: options.maxHeaderResends,
  });
  const { transport } = parts;
  if (!('relayed' in transport)) return { limiter, ...laneKy(transport, limiter.hooks(), token) };
  return { limiter, relayed: relayedSend(limiter.lifecycle(), () => transport.fetch ?? globalThis.fetch) };
}

/**
 * A lane's ky instance, with the limiter's `hooks` as its seam, and with a token the same instance
 * with Authorization among its own headers. The overhead bench makes ky with these too, its hooks
 * doing nothing, to measure what the seam alone costs.
 */
export function laneKy(settings: LaneKySettings, hooks: Hooks, token: string | undefined): Omit<KyLane, 'limiter'> {
  const instance = ky.create({
    ...(settings.fetch && { fetch: settings.fetch }),
    headers: settings.headers,
    timeout: settings.timeoutMs ?? false,
    // A redirect is returned, never followed: Authorization must not follow it to another origin.
    redirect: 'manual',
    throwHttpErrors: false,
    retry: KY_RETRY,
    hooks,
  });
  if (token === undefined) return { ky: instance };
  return { ky: instance, kyWithToken: instance.extend({ headers: { authorization: token } }) };
}

export interface SenderOptions {
  readonly baseUrl: string;
  readonly token: string | undefined;
  /** The token's lane. */
  readonly main: Lane;
  /** V13: the IP's lane, for calls a client with a token sends without it (absent when both are one). */
  readonly anonymous: Lane | undefined;
  readonly telemetry: Telemetry | undefined;
  readonly isClosed: () => boolean;
  /** The client's (or relay's) call defaults, resolved when it was made. */
  readonly defaults: Omit<CallDefaults, 'hasToken'>;
}

/** A sent call's outcome: its answer, and the answer's body read. */
export interface CallOutcome {
  readonly response: Response;
  readonly body: unknown;
}

export class Sender {
  readonly #baseUrl: string;
  readonly #token: string | undefined;
  readonly #main: Lane;
  readonly #anonymous: Lane | undefined;
  readonly #telemetry: Telemetry | undefined;
  readonly #isClosed: () => boolean;
  /** Texts no error may carry: the token. */
  readonly #secrets: readonly string[];
  /** host:port of the base URL, as network errors name it. */
  readonly #host: string;
  #inFlight = 0;
  /** What a call's plan through this sender takes as its defaults. */
  readonly defaults: CallDefaults;

  constructor(options: SenderOptions) {
    this.#baseUrl = options.baseUrl;
    this.#token = options.token;
    this.#main = options.main;
    this.#anonymous = options.anonymous;
    this.#telemetry = options.telemetry;
    this.#isClosed = options.isClosed;
    this.#secrets = secretsOf(options.token);
    this.#host = hostOf(options.baseUrl);
    this.defaults = { ...options.defaults, hasToken: options.token !== undefined };
  }

  /** Calls waiting for their place or under way: a lane kept by token goes only when it has none. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Sends `plan` and reads its answer's body within the call's timeout: the outcome, or the error
   * that ends the call (a body that breaks off, the connection reset mid-read, is the network's fault).
   */
  async sendAndRead(plan: CallPlan, binary: boolean): Promise<CallOutcome> {
    const response = await this.send(plan);
    const { timeoutMs } = plan;
    try {
      const timedOut = () => new RequestTimeoutError(plan.identity, timeoutMs!);
      return { response, body: await readBody(response, binary && response.ok, timeoutMs, timedOut) };
    } catch (error) {
      throw error instanceof RequestTimeoutError ? error : this.#networkFailure(error, plan.identity);
    }
  }

  /** Sends `plan` through its lane's ky instance, whose hooks are the lane's limiter. */
  async send(plan: CallPlan): Promise<Response> {
    if (this.#isClosed()) throw new ClientClosedError();
    const token = plan.authenticated ? this.#token : undefined;
    const { headers } = plan;
    // V13: without Authorization (and not exempt), the call counts in the per-IP budget.
    const lane = !plan.authenticated && !plan.target.exempt && this.#anonymous ? this.#anonymous : this.#main;
    const call = lane.limiter.newCall(plan);
    this.#telemetry?.startCall(call);
    this.#inFlight += 1;
    let failure: unknown;
    try {
      if ('relayed' in lane) {
        return await lane.relayed(this.#baseUrl + plan.path, call, {
          method: plan.method,
          headers,
          authorization: token,
          body: plan.body,
          signal: plan.signal,
        });
      }
      // Only the options in use: ky merges every key given, undefined ones too.
      const kyOptions: Options = { method: plan.method, context: call.context };
      if (headers !== undefined) kyOptions.headers = headers;
      if (plan.json !== undefined) kyOptions.json = plan.json;
      if (plan.body !== undefined) kyOptions.body = plan.body;
      if (plan.searchParams !== undefined) kyOptions.searchParams = plan.searchParams;
      if (plan.signal !== undefined) kyOptions.signal = plan.signal;
      if (plan.timeout !== undefined) kyOptions.timeout = plan.timeout;
      const retry = kyRetryOf(call.resend);
      if (retry !== undefined) kyOptions.retry = retry;
      const instance = token === undefined ? lane.ky : lane.kyWithToken!;
      return await instance(this.#baseUrl + plan.path, kyOptions);
    } catch (error) {
      failure = this.#failure(error, call, plan);
      throw failure;
    } finally {
      this.#telemetry?.endCall(call, failure);
      // Under way until the limiter has learnt from it: a lane kept by token is not closed before.
      const finishing = lane.limiter.finish(call);
      if (finishing) await finishing.finally(() => (this.#inFlight -= 1));
      else this.#inFlight -= 1;
    }
  }

  /** What a failed call raises: the caller's abort reason, or our own errors (ky's hold the Request and its Authorization), scrubbed. */
  #failure(error: unknown, call: CallState, plan: CallPlan): unknown {
    // The caller's own abort (AbortSignal.timeout included) ends the call with its reason.
    if (plan.signal?.aborted) return plan.signal.reason;
    if (isTimeoutError(error)) return new RequestTimeoutError(call.identity, plan.timeoutMs ?? 0);
    if (isNetworkError(error) || error instanceof RelayedTransportError) {
      return this.#networkFailure(error.cause, call.identity);
    }
    return scrubbed(error, this.#secrets);
  }

  /** A NetworkError for a call whose transport failed with `cause` (scrubbed of the token). */
  #networkFailure(cause: unknown, call: CallIdentity): NetworkError {
    const scrubbedCause = scrubbed(cause, this.#secrets);
    return new NetworkError(call, scrubbedCause, { host: this.#host, code: errorCodeOf(scrubbedCause) });
  }
}

/** host:port, with the scheme's default port written out. */
function hostOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The token, and its secret part alone (`Bot abc` → `abc`), which a transport may show either way. */
function secretsOf(token: string | undefined): string[] {
  if (token === undefined) return [];
  const secret = token.replace(/^\S+\s+/, '');
  return secret.length >= 8 && secret !== token ? [token, secret] : [token];
}
