/**
 * The catalog's shapes, which `generated/` fills in and the core consumes: operations, path
 * patterns, paged lists. Facts of the route alone (method, path, route key); what only one
 * dialect reads is that dialect's (v6's route table, with each route's major parameter:
 * `RouteDefinition`, read by `dialects/v6/`).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a path parameter is checked and encoded: see catalog/schema.ts. */
export type ParameterKind = 'snowflake' | 'code' | 'emoji' | 'secret';

export type PathSegment = string | { readonly name: string; readonly kind: ParameterKind };

/** A v6 route's major parameter: the id its limits count per (`RouteDefinition.major`). */
export type MajorParameter = 'channel_id' | 'guild_id';

export interface OperationDefinition {
  readonly name: string;
  /** The catalog's route key, e.g. `ChannelsIdMessages`. */
  readonly routeKey: string;
  readonly method: HttpMethod;
  readonly path: readonly PathSegment[];
  /**
   * The route's major parameter, or null.
   * @deprecated v6's fact, which v6 reads from its own route table: read `routeTable`'s row for
   * `routeKey` (`RouteDefinition.major`). Still generated in 0.x's next minor, then no more.
   */
  readonly major: MajorParameter | null;
  readonly body: 'none' | 'required' | 'optional';
  /** The body is passed in the options (`options.body`), the query being the method's parameters. */
  readonly bodyInOptions?: true;
  /** A read whose query has required parameters: called without one, it fails unsent. */
  readonly queryRequired: boolean;
  /** How the body is sent: see `encoding` in catalog/schema.ts. */
  readonly encoding: BodyEncoding;
  /** `json+files`: the body's member holding the message and so `attachments` (null: the body itself). */
  readonly attachmentsIn: 'data' | 'message' | null;
  /**
   * Where the JSON body takes `allowed_mentions` (the body, or its `data` or `message` member):
   * the client's `allowedMentions` default goes there. Absent: the body takes none.
   */
  readonly allowedMentionsIn?: 'body' | 'data' | 'message';
  /** The result is bytes, returned as an ArrayBuffer. */
  readonly binaryResult: boolean;
  readonly unauthenticated: boolean;
  /** Takes the `reason` option, sent as X-Audit-Log-Reason. */
  readonly auditLogReason: boolean;
  /**
   * The kinds of token the route turns away (the catalog's `auth`), absent where it takes both: its
   * 401 to such a token says the kind is wrong, not that the token is dead (V16).
   */
  readonly refusedTokens?: readonly TokenKind[];
}

/** A kind of token: a bot's (`Bot …`) or an OAuth2 access token (`Bearer …`). */
export type TokenKind = 'bot' | 'bearer';

export type BodyEncoding = 'json' | 'json+files' | 'form-data' | 'urlencoded';

/** A path parameter as callers pass it: ids as decimal strings or bigint, other kinds as strings. */
export type Snowflake = string | bigint;

/** How a paged list is walked: see `paginate` in catalog/schema.ts. */
export interface PaginationDefinition {
  readonly cursor: 'id' | 'timestamp' | 'offset';
  readonly parameters: readonly ('before' | 'after')[];
  readonly order: 'newest-first' | 'oldest-first';
  readonly pageOrder: 'ascending' | 'descending';
  readonly limit: number;
  readonly maxOffset?: number;
  readonly items?: string;
  readonly cursorFrom: string;
  readonly hasMore?: string;
  readonly total?: string;
  readonly nested?: true;
  readonly tryLater?: true;
}
