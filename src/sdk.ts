/**
 * The building blocks `generated/` is made of: the operation caller and the types of method
 * signatures. Generated resource classes import from here and nowhere else.
 */
import type { OperationDefinition, PaginationDefinition } from './contracts/catalog.ts';

export type {
  BodyEncoding,
  HttpMethod,
  MajorParameter,
  OperationDefinition,
  PaginationDefinition,
  PathSegment,
  Snowflake,
  TokenKind,
} from './contracts/catalog.ts';
export type { RouteDefinition } from './dialects/v6/classify.ts';

/** A JSON request body: an object or an array. */
export type JsonBody = { readonly [key: string]: unknown } | readonly unknown[];

type QueryScalar = string | number | bigint | boolean;
/** A query value; a list repeats its parameter (`channel_id=1&channel_id=2`). */
export type QueryValue = QueryScalar | readonly QueryScalar[] | undefined;

/**
 * A documented query type (from discord-api-types), its fields optional or required as there,
 * ids (strings there) also accepted as bigint, as everywhere in the SDK.
 */
export type QueryOf<Query> = {
  readonly [Key in keyof Query]: Query[Key] | (string extends NonNullable<Query[Key]> ? bigint : never);
};
/** Any query a raw request takes: each parameter a scalar or a list of them. */
export type QueryInput = { readonly [key: string]: QueryValue };

/** A file to upload with a multipart operation (`files` in its body). */
export interface FileUpload {
  /** The file name the service shows (and `attachment://<name>` refers to). */
  readonly name: string;
  readonly data: Blob | ArrayBuffer | ArrayBufferView | string;
  /** Default: the Blob's own type, else application/octet-stream. */
  readonly contentType?: string;
}

/** The JSON body of a multipart operation, with the files to upload alongside it. */
export type WithFiles<Body> = Body & { readonly files?: readonly FileUpload[] };

/**
 * The fields of a multipart form body (`form-data` operations): a field discord-api-types leaves
 * `unknown` is a file, given as `{ name, data }`.
 */
export type FormFields<Body> = {
  readonly [Key in keyof Body]: unknown extends Body[Key] ? FileUpload : Body[Key];
};

/** Options every method takes last. */
export interface RequestOptions {
  /** Aborts the call at once: while it waits for a rate limit, or while it is sent. */
  readonly signal?: AbortSignal;
  /** Extra request headers for this call. */
  readonly headers?: HeadersInit;
  /** Longest single rate-limit wait this call accepts (ms); overrides the client's `maxWait`. */
  readonly maxWait?: number;
  /** This call's per-attempt timeout (ms), or false for none; overrides the client's `timeout`. */
  readonly timeout?: number | false;
  /** This call's transport retries (resendable calls only: see "Retries and duplicates"); overrides the client's. */
  readonly transportRetries?: number;
}

/** Options of a method whose action enters the guild's audit log. */
export interface AuditLogOptions extends RequestOptions {
  /** Why, for the audit log (X-Audit-Log-Reason, up to 512 characters; encoded for you). */
  readonly reason?: string;
}

/** Options of a method that takes a body and also documents query parameters. */
export interface RequestOptionsWithQuery<Query extends QueryInput> extends RequestOptions {
  readonly query?: Query;
}

/**
 * The parameters of a method whose operation takes none yet. The slot is there so that a query
 * or a body Discord adds later takes it without moving `options`: a call that compiles today
 * keeps compiling (docs/design.md, "Signatures that additions cannot break").
 */
export type NoParams = { readonly [parameter: string]: never };

/**
 * Options of a method whose parameters are its query and whose body came later: the body goes
 * here, so the query keeps its place (catalog `bodyIn: 'options'`).
 */
export interface RequestOptionsWithBody<Body> extends RequestOptions {
  readonly body?: Body;
}

export interface OperationInput {
  readonly body?: unknown;
  readonly query?: QueryInput;
  /** The parameters slot of an operation that takes none yet (`NoParams`): must be empty. */
  readonly params?: NoParams;
}

/** A typed method's result with the Response it came in (`.withResponse()`). */
export interface WithResponse<T> {
  readonly data: T;
  /** The answer's status and headers; its body was read into `data`. */
  readonly response: Response;
}

/**
 * What a typed method returns: a promise of its result, which a plain `await` reads as ever, and
 * `.withResponse()` for the result with its Response (status, headers).
 */
export interface ApiPromise<T> extends Promise<T> {
  /** The result and the Response it came in; rejects as the call does. */
  withResponse(): Promise<WithResponse<T>>;
}

/** Runs one catalog operation; the client provides it to the generated resources. */
export interface OperationCaller {
  (
    operation: OperationDefinition,
    pathArguments: readonly unknown[],
    input: OperationInput | undefined,
    options: RequestOptionsWithQuery<QueryInput> | undefined,
  ): ApiPromise<unknown>;
  /** The absolute URL of a link operation (a page the user's browser opens) with its query; nothing is sent. */
  url(operation: OperationDefinition, pathArguments: readonly unknown[], query: QueryInput | undefined): string;
  /** A paged list's results, page by page, each fetched when wanted (src/pagination/walk.ts). */
  pages: PagedCall;
  /** A paged list's items, each page fetched when wanted. */
  items: PagedCall;
}

/** Walks a paged list of one operation. */
export type PagedCall = (
  operation: OperationDefinition,
  pagination: PaginationDefinition,
  pathArguments: readonly unknown[],
  query: PageQueryInput | undefined,
  options: RequestOptions | undefined,
) => AsyncIterable<unknown>;

/** What a list's iterator takes: the list's query, a cursor, and `max`. */
export type PageQueryInput = { readonly max?: number; readonly [parameter: string]: QueryValue };

/** The parameters the iterator sets itself: the page size, the cursor it walks with. */
type WalkedParameters = 'limit' | 'around' | 'before' | 'after' | 'offset';

/**
 * The query of a list's iterator: the list's own parameters but those the walk sets, the cursor
 * to start from (`before` or `after`, one of them: it sets the direction; `offset` for a search),
 * and `max`, the most items to hand out.
 */
export type PageQuery<Query, Cursor extends 'before' | 'after' | 'offset'> = Omit<Query, WalkedParameters> &
  CursorQuery<Query, Cursor> & {
    /** At most this many items (default: all). */
    readonly max?: number;
  };

type CursorValue<Query, Name extends string> = Name extends keyof Query ? Query[Name] : never;

/** One cursor at most: `before` and `after` exclude each other. */
type CursorQuery<Query, Cursor extends string> = [Cursor] extends ['before' | 'after']
  ? ['before' | 'after'] extends [Cursor]
    ? | { readonly before?: CursorValue<Query, 'before'>; readonly after?: never }
      | { readonly after?: CursorValue<Query, 'after'>; readonly before?: never }
    : { readonly [Name in Cursor]?: CursorValue<Query, Name> }
  : { readonly [Name in Cursor]?: CursorValue<Query, Name> };

/**
 * An item of a list's result: the result itself is the list (`Member` never), or its `Member`
 * holds it (in whichever members of a union have it); `Nested`: each entry is a list whose first
 * member is the item (search hits).
 */
export type PageItem<Result, Member extends string = never, Nested extends boolean = false> = EntryOf<
  [Member] extends [never] ? NonNullable<Result> : MemberOf<NonNullable<Result>, Member>,
  Nested
>;

type MemberOf<Result, Member extends string> = Result extends unknown
  ? Member extends keyof Result
    ? NonNullable<Result[Member]>
    : never
  : never;

type EntryOf<List, Nested extends boolean> = List extends readonly (infer Entry)[]
  ? Nested extends true
    ? Entry extends readonly (infer Item)[]
      ? Item
      : Entry
    : Entry
  : never;
