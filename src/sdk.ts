/**
 * The building blocks `generated/` is made of: the operation caller and the types of method
 * signatures. Generated resource classes import from here and nowhere else.
 */
import type { OperationDefinition } from './routing/types.ts';

export type {
  BodyEncoding,
  HttpMethod,
  OperationDefinition,
  PathSegment,
  RouteDefinition,
  Snowflake,
} from './routing/types.ts';

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

export interface OperationInput {
  readonly body?: unknown;
  readonly query?: QueryInput;
}

/** Runs one catalog operation; the client provides it to the generated resources. */
export interface OperationCaller {
  (
    operation: OperationDefinition,
    pathArguments: readonly unknown[],
    input: OperationInput | undefined,
    options: RequestOptionsWithQuery<QueryInput> | undefined,
  ): Promise<unknown>;
  /** The absolute URL of a link operation (a page the user's browser opens) with its query; nothing is sent. */
  url(operation: OperationDefinition, pathArguments: readonly unknown[], query: QueryInput | undefined): string;
}
