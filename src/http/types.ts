/**
 * The client's public shape: the surface the core gives every client (events, raw calls, the
 * read-only bucket view, `close`), and what the generated SDK brings to it. The two meet once,
 * in `src/index.ts`: the core never imports `generated/`.
 */
import type { BucketRecord } from '../contracts/store.ts';
import type { ApiVersion } from '../dialects/index.ts';
import type { DialectEvents } from '../dialects/options.ts';
import type { LimiterEvents } from '../limiter/events.ts';
import type { OperationCaller } from '../sdk.ts';
import type { CdnOptions } from '../cdn/index.ts';
import type { PackageInfo } from '../package-info.ts';
import type { RawRequestOptions } from './options.ts';

/** `client.buckets`: what the limiter knows of a bucket, read-only. */
export interface BucketView {
  /** A copy of the bucket's record, or undefined when none exists yet. */
  get(bucketKey: string): Promise<Readonly<BucketRecord> | undefined>;
}

/** What a client tells its listeners (`client.on`): the limiter's events and the dialects' (v10: `invalidRequests`). */
export interface ClientEvents extends LimiterEvents, DialectEvents {}

export type ClientListener<Name extends keyof ClientEvents> = (event: ClientEvents[Name]) => void;

/** What every client has besides its typed methods; `Cdn` is the generated CDN helpers' type. */
export interface ClientSurface<Cdn> {
  /** Listens for `name` (`response`, `rateLimited`, `wait`, `invalidRequests`, `debug`); a listener that throws never breaks a call. */
  on<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): this;
  /** Stops `listener` hearing `name`. */
  off<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): this;
  /** As `on`, for the next event only. */
  once<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): this;
  /** The API version this client speaks, and so the rate-limit rules it follows. */
  readonly api: ApiVersion;
  /** CDN URL helpers (`client.cdn.userAvatar(userId, hash, { size: 256 })`) on `options.cdn`'s base URLs; they send nothing. */
  readonly cdn: Cdn;
  /** v10, V15: invalid requests of the last 10 minutes, every client of the store (0 under v6). */
  invalidRequests(): Promise<number>;
  /** A raw call: the path is relative to the base URL. Resolves to the Response as received, whatever its status. */
  request(method: string, path: string, options?: RawRequestOptions): Promise<Response>;
  readonly buckets: BucketView;
  /**
   * A client that sends with `token` (`Bearer …` for a user, `Bot …`) and shares everything of
   * this one but its limits: the store, the transport, telemetry, listeners and options. Each
   * token keeps its own limits, its global limit too, in a lane this client keeps (`maxTokens`)
   * for every client object of that token. Making one sends nothing; closing this client closes
   * them all.
   */
  withToken(token: string): this;
  /**
   * Fails waiting calls with ClientClosedError, cancels the limiter's timers and refuses new
   * calls. A client of `withToken` closes its token's lane alone.
   */
  close(): Promise<void>;
}

/** What the generated SDK brings to the core: composed with it once, in `src/index.ts`. */
export interface GeneratedSdk<Resources, Cdn> {
  /** The typed methods, each calling the operation it names through `caller`. */
  readonly createResources: (caller: OperationCaller) => Resources;
  /** What each dialect reads of the catalog, by API version (`Dialect.targets`). */
  readonly dialectData: { readonly [Api in ApiVersion]?: unknown };
  /** The CDN helpers on the given base URLs. */
  readonly createCdn: (options: CdnOptions | undefined) => Cdn;
  /** The package's version and repository, which the User-Agent names. */
  readonly package: PackageInfo;
}
