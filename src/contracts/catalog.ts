/** The shapes `generated/` fills in and `src/` consumes: routes, path patterns, operations. */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a path parameter is checked and encoded: see catalog/schema.ts. */
export type ParameterKind = 'snowflake' | 'code' | 'emoji' | 'secret';

export type PathSegment = string | { readonly name: string; readonly kind: ParameterKind };

export interface RouteDefinition {
  /** The spec's route key, e.g. `ChannelsIdMessages`. */
  readonly key: string;
  readonly major: 'channel_id' | 'guild_id' | null;
  /** The bucket key also holds the request method (the message-by-id key). */
  readonly bucketHoldsMethod: boolean;
  /** Every path shape classified under this key, split into segments. */
  readonly patterns: readonly (readonly PathSegment[])[];
}

export interface OperationDefinition {
  readonly name: string;
  readonly routeKey: string;
  readonly method: HttpMethod;
  readonly path: readonly PathSegment[];
  /** Position of the major parameter among the path parameters, or -1. */
  readonly majorIndex: number;
  readonly bucketHoldsMethod: boolean;
  readonly body: 'none' | 'required' | 'optional';
  /** The body is passed in the options (`options.body`), the query being the method's parameters. */
  readonly bodyInOptions?: true;
  /** A read whose query has required parameters: called without one, it fails unsent. */
  readonly queryRequired: boolean;
  /** How the body is sent: see `encoding` in catalog/schema.ts. */
  readonly encoding: BodyEncoding;
  /** `json+files`: the body's member holding the message and so `attachments` (null: the body itself). */
  readonly attachmentsIn: 'data' | 'message' | null;
  /** The result is bytes, returned as an ArrayBuffer. */
  readonly binaryResult: boolean;
  readonly unauthenticated: boolean;
  /** Takes the `reason` option, sent as X-Audit-Log-Reason. */
  readonly auditLogReason: boolean;
  /** A v10 route beyond the spec's keys: under v6 its key is `None` (no limiting, as the spec says). */
  readonly v10Only: boolean;
}

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
