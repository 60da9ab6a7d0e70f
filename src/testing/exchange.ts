/**
 * One request on its way through the reference service: what the dispatcher
 * (reference-service.ts) found out about it, handed to the v6 or the v10 answer. A module of its
 * own so the answers need not import the service back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './faults.ts';

export interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly method: string;
  /** The request's path below the API's base path. */
  readonly path: string;
  /** v6's route key, or v10's route (`POST /channels/:id/messages`). */
  readonly routeKey: string;
  /** The key faults match: v6's bucket key, or v10's route and resource. */
  readonly bucketKey: string;
  /** The request body's size in bytes (the service only echoes it). */
  readonly size: number;
  /** The scripted fault this request drew, if any. */
  readonly fault: Fault | undefined;
  /** Records the request as answered with `status` (counted under `countedAs`, default its bucket key). */
  readonly record: (status: number, global?: boolean, countedAs?: string) => void;
}
