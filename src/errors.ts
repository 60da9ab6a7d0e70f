/**
 * The root of tollgate's errors, their codes, and every error that is not one dialect's or one
 * store's own (the v10 rules': `dialects/v10/errors.ts`; Redis's data error: `redis/errors.ts`).
 * None of them carries the token, a webhook token or a full URL: an error of a call names it by
 * its `CallIdentity` (method, route, route key, bucket key, resource) instead.
 */

import type { RESTError } from 'discord-api-types/v10';
import {
  describeErrorBody,
  readErrorBody,
  shown,
  SHOWN_LENGTH,
  type FieldError,
  type OAuth2ErrorBody,
} from './error-body.ts';

export type { FieldError, OAuth2ErrorBody } from './error-body.ts';

/** Marks tollgate's errors, `TollgateArgumentError` too (a `TypeError`, so it cannot extend `TollgateError`). */
const IS_TOLLGATE_ERROR = Symbol.for('tollgate.error');

/** Each error's stable `code`: compare it, not the message. */
export type TollgateErrorCode =
  | 'RATE_LIMIT_UTF8'
  | 'RATE_LIMIT_I64'
  | 'RATE_LIMIT_WAIT'
  | 'HTTP_ERROR'
  | 'ARGUMENT'
  | 'PAGINATION'
  | 'CLIENT_CLOSED'
  | 'REQUEST_TIMEOUT'
  | 'NETWORK'
  | 'CDN_BAN'
  | 'TOKEN_INVALID'
  | 'WEBHOOK_GONE'
  | 'INVALID_REQUEST_GUARD'
  | 'STORE_UNAVAILABLE'
  | 'STORE_DATA';

/**
 * The root of every error tollgate throws: `catch (error) { if (error instanceof TollgateError) … }`,
 * then `error.code`. `TollgateArgumentError` stays a `TypeError` (a bad argument is one) and is
 * an instance of this too: `instanceof TollgateError` reads the mark every tollgate error carries.
 */
export abstract class TollgateError extends Error {
  abstract readonly code: TollgateErrorCode;
  readonly [IS_TOLLGATE_ERROR] = true;

  /**
   * `e instanceof TollgateError` holds for an error of any copy of tollgate loaded in the process
   * (two versions side by side, or a bundle beside node_modules); `instanceof` a subclass, such as
   * `HttpError`, is the ordinary class check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // A subclass (`HttpError`) answers as classes do; the root answers for every marked error.
    if (this !== TollgateError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[IS_TOLLGATE_ERROR] === true
    );
  }
}

/** A rate-limit header whose bytes are not valid UTF-8 (the spec's RateLimitUtf8). */
export class RateLimitUtf8Error extends TollgateError {
  readonly code = 'RATE_LIMIT_UTF8' as const;
  readonly header: string;
  constructor(header: string) {
    super(`Rate-limit header "${header}" is not valid UTF-8`);
    this.name = 'RateLimitUtf8Error';
    this.header = header;
  }
}

/** A rate-limit header whose text is not a signed 64-bit decimal integer (the spec's RateLimitI64). */
export class RateLimitI64Error extends TollgateError {
  readonly code = 'RATE_LIMIT_I64' as const;
  readonly header: string;
  readonly value: string;
  constructor(header: string, value: string) {
    super(`Rate-limit header "${header}" is not a signed 64-bit integer: ${JSON.stringify(value.slice(0, 64))}`);
    this.name = 'RateLimitI64Error';
    this.header = header;
    this.value = value;
  }
}

/**
 * How every event and error names a call: the same fields, each by one rule (docs/design.md,
 * "Glossary"). Computed once per call.
 */
export interface CallIdentity {
  /** The request method, upper case. */
  readonly method: string;
  /** The method and route template (v10: `GET /channels/:id`); under v6, the method and route key (`GET ChannelsId`). */
  readonly route: string;
  /** The catalog's route key; a raw v10 call outside the catalog: its route; v6's Route None: `None`. */
  readonly routeKey: string;
  /** Where the call counts: its bucket key, or `None` (no bucket). */
  readonly bucketKey: string;
  /** The top-level resource it acts on (v10: `channels/<id>`), or '' where the dialect names none. */
  readonly resource: string;
}

/** A call's identity as its own fields, copied onto an error. */
function assignIdentity(error: CallIdentity, identity: CallIdentity): void {
  const target = error as { -readonly [Key in keyof CallIdentity]: string };
  target.method = identity.method;
  target.route = identity.route;
  target.routeKey = identity.routeKey;
  target.bucketKey = identity.bucketKey;
  target.resource = identity.resource;
}

/**
 * Why a call would have waited (`RateLimitWaitError.reason`, the `wait` event): its bucket was
 * spent, it queued behind calls of its bucket, the global limit, a 429's retry-after, or the
 * backoff before resending after a 5xx or a network error.
 */
export type WaitReason = 'bucket' | 'queue' | 'global' | 'retry-after' | 'server-error' | 'network-error';

/** A wait longer than the caller allowed (`maxWait`): raised instead of sleeping. */
export class RateLimitWaitError extends TollgateError implements CallIdentity {
  readonly code = 'RATE_LIMIT_WAIT' as const;
  readonly reason: WaitReason;
  /** How long the wait would have been, in ms (for a queue wait: how long it had lasted). */
  readonly waitMs: number;
  readonly maxWaitMs: number;
  /**
   * When to try again, in ms from now: the planned wait of a bucket, global or retry wait; for a
   * queue wait, what was left of its bucket's sleep (0 when none was known).
   */
  readonly retryAfterMs: number;
  declare readonly method: string;
  declare readonly route: string;
  declare readonly routeKey: string;
  declare readonly bucketKey: string;
  declare readonly resource: string;
  constructor(reason: WaitReason, waitMs: number, maxWaitMs: number, call: CallIdentity, retryAfterMs = waitMs) {
    super(
      `Rate limit: a ${reason} wait of ${Math.ceil(waitMs)} ms on "${call.bucketKey}" exceeds the allowed ${maxWaitMs} ms`,
    );
    this.name = 'RateLimitWaitError';
    this.reason = reason;
    this.waitMs = waitMs;
    this.maxWaitMs = maxWaitMs;
    this.retryAfterMs = retryAfterMs;
    assignIdentity(this, call);
  }
}

/** What names the typed method behind an `HttpError`: a raw call has neither. */
export interface HttpErrorOptions {
  /** The typed method that failed, as the catalog names it: `channels.messages.create`. */
  readonly operation?: string;
  /**
   * Its path as Discord's documentation writes it, placeholders only, never a value (a webhook's
   * token is a value): `/channels/{channel_id}/messages`. Without it the message names `route`.
   */
  readonly pathTemplate?: string;
}

/**
 * A typed method's non-2xx response. `response` is the Response; its body was read into `body`.
 * The message names the method, the path, the status and what the body says, a field error a
 * line (docs/client.md, "Errors"), in at most MAX_HTTP_ERROR_MESSAGE (6,000) characters.
 */
export class HttpError extends TollgateError implements CallIdentity {
  readonly code = 'HTTP_ERROR' as const;
  readonly status: number;
  readonly response: Response;
  readonly body: unknown;
  /**
   * The service's JSON error when the body is one: `code` (compare with discord-api-types'
   * `RESTJSONErrorCodes`: 10008 is Unknown Message), `message`, and `errors` per body field.
   */
  readonly error: RESTError | undefined;
  /** Discord's JSON error code (`error.code`: 50035 is Invalid Form Body), when the body is its JSON error. */
  readonly discordCode: number | undefined;
  /**
   * Each error `error.errors` names for a field of the request's body, in the body's order; empty
   * when it names none. At most 1,000 are kept, and a field at most 32 keys deep is read.
   */
  readonly fieldErrors: readonly FieldError[];
  /** OAuth2's error when the body is one (`/oauth2/token`: `{ error: 'invalid_grant', error_description }`). */
  readonly oauth2Error: OAuth2ErrorBody | undefined;
  /** The typed method that failed (`channels.messages.create`), when the error names one. */
  readonly operation: string | undefined;
  declare readonly method: string;
  declare readonly route: string;
  declare readonly routeKey: string;
  declare readonly bucketKey: string;
  declare readonly resource: string;
  constructor(call: CallIdentity, response: Response, body: unknown, options: HttpErrorOptions = {}) {
    const read = readErrorBody(body);
    super(`${subjectOf(call, options)} failed with status ${response.status}${describeErrorBody(read)}`);
    this.name = 'HttpError';
    this.status = response.status;
    this.response = response;
    this.body = body;
    this.error = read.error;
    this.discordCode = read.error?.code;
    this.fieldErrors = Object.freeze(read.fieldErrors);
    this.oauth2Error = read.oauth2Error;
    this.operation = options.operation;
    assignIdentity(this, call);
  }
}

/** `channels.messages.create (POST /channels/{channel_id}/messages)`; without an operation, its route alone. */
function subjectOf(call: CallIdentity, { operation, pathTemplate }: HttpErrorOptions): string {
  const path =
    pathTemplate === undefined
      ? shown(call.route, SHOWN_LENGTH.route)
      : `${shown(call.method, SHOWN_LENGTH.method)} ${shown(pathTemplate, SHOWN_LENGTH.route)}`;
  return operation === undefined ? path : `${shown(operation, SHOWN_LENGTH.operation)} (${path})`;
}

/** An argument or option that cannot be used; nothing was sent. */
export class TollgateArgumentError extends TypeError {
  readonly code = 'ARGUMENT' as const;
  readonly [IS_TOLLGATE_ERROR] = true;
  constructor(message: string) {
    super(message);
    this.name = 'TollgateArgumentError';
  }
}

/**
 * A paged list could not be walked on: a page held no list, the service answered the same page
 * twice, or the list was still being built after many tries (202). The pages before it were
 * handed out; the call that failed, if one did, rejects with its own error instead.
 */
export class PaginationError extends TollgateError {
  readonly code = 'PAGINATION' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PaginationError';
  }
}

/** The client was closed; no further request is accepted. */
export class ClientClosedError extends TollgateError {
  readonly code = 'CLIENT_CLOSED' as const;
  constructor() {
    super('This tollgate client is closed');
    this.name = 'ClientClosedError';
  }
}

/**
 * An attempt got no response within the client's `timeout`. Raised instead of ky's TimeoutError,
 * which carries the Request (and with it the Authorization header).
 */
export class RequestTimeoutError extends TollgateError implements CallIdentity {
  readonly code = 'REQUEST_TIMEOUT' as const;
  declare readonly method: string;
  declare readonly route: string;
  declare readonly routeKey: string;
  declare readonly bucketKey: string;
  declare readonly resource: string;
  readonly timeoutMs: number;
  constructor(call: CallIdentity, timeoutMs: number) {
    super(`${call.method} ${call.routeKey} got no response within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    assignIdentity(this, call);
    this.timeoutMs = timeoutMs;
  }
}

/** What a network error's code means, for its message. */
const NETWORK_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS unavailable)',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/**
 * The request failed on the network (refused, reset, dropped) after the transport retries a
 * resendable request is allowed. `cause` is the transport's own error (with no token text in
 * it). Raised instead of ky's NetworkError, which carries the Request.
 */
export class NetworkError extends TollgateError implements CallIdentity {
  readonly code = 'NETWORK' as const;
  declare readonly method: string;
  declare readonly route: string;
  declare readonly routeKey: string;
  declare readonly bucketKey: string;
  declare readonly resource: string;
  /** The transport's error code (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, …), when it gave one. */
  readonly transportCode: string | undefined;
  /** host:port of the request. */
  readonly host: string | undefined;
  /** @param where the request's host:port, and the transport's error code when it gave one */
  constructor(
    call: CallIdentity,
    cause: unknown,
    where?: { readonly host: string; readonly code: string | undefined },
  ) {
    const code = where?.code;
    const why = code === undefined ? '' : ` (${NETWORK_CAUSES[code] ?? 'error'}: ${code})`;
    super(`${call.route}${where ? ` to ${where.host}` : ''}${why} failed on the network`, { cause });
    this.name = 'NetworkError';
    assignIdentity(this, call);
    this.transportCode = code;
    this.host = where?.host;
  }
}

/** A shared store (Redis, a Durable Object) cannot be reached; nothing was sent. */
export class StoreUnavailableError extends TollgateError {
  readonly code = 'STORE_UNAVAILABLE' as const;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
