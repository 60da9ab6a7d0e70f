/** The client's public shape: its methods, its events and its read-only bucket view. */
import type { Resources } from '../../generated/index.ts';
import type { Cdn } from '../cdn/index.ts';
import type { InvalidRequestsEvent } from '../contracts/dialect.ts';
import type { BucketRecord } from '../contracts/store.ts';
import type { ApiVersion } from '../dialects/index.ts';
import type { LimiterEvents } from '../limiter/events.ts';
import type { RawRequestOptions } from './options.ts';

export interface BucketView {
  /** A copy of the bucket's record, or undefined when none exists yet. */
  get(bucketKey: string): Promise<Readonly<BucketRecord> | undefined>;
}

/** What a client tells its listeners (`client.on`): the limiter's events and V15's warnings. */
export interface ClientEvents extends LimiterEvents {
  /** v10, V15: the invalid-request count reached a warning level (as `onInvalidRequests`). */
  readonly invalidRequests: InvalidRequestsEvent;
}

export type ClientListener<Name extends keyof ClientEvents> = (event: ClientEvents[Name]) => void;

export type TollgateClient = Resources & {
  /** Listens for `name` (`response`, `rateLimited`, `wait`, `invalidRequests`, `debug`); a listener that throws never breaks a call. */
  on<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): TollgateClient;
  off<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): TollgateClient;
  /** As `on`, for the next event only. */
  once<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): TollgateClient;
  /** The API version this client speaks, and so the rate-limit rules it follows. */
  readonly api: ApiVersion;
  /** CDN URL helpers (`client.cdn.userAvatar(userId, hash, { size: 256 })`) on `options.cdn`'s base URLs; they send nothing. */
  readonly cdn: Cdn;
  /** v10, V15: invalid requests of the last 10 minutes, every client of the store (0 under v6). */
  invalidRequests(): Promise<number>;
  /** A raw call: the path is relative to the base URL. Resolves to the Response as received, whatever its status. */
  request(method: string, path: string, options?: RawRequestOptions): Promise<Response>;
  readonly buckets: BucketView;
  /** Fails waiting calls with ClientClosedError, cancels the limiter's timers and refuses new calls. */
  close(): Promise<void>;
};
