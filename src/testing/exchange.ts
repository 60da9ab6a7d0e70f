/**
 * One request on its way through the reference service: what the dispatcher
 * (reference-service.ts) found out about it, handed to the v6 or the v10 answer. A module of its
 * own so the answers need not import the service back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './faults.ts';
import { MAX_BODY_BYTES, type Answer } from './messages.ts';

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
  /** The scripted fault this request drew, if any. */
  readonly fault: Fault | undefined;
  /** v10: the route is served without Authorization (routing.ts `openRoute`). */
  readonly open: boolean;
  /** v10: the operation takes the kind of token sent (routing.ts `acceptsToken`). */
  readonly tokenAccepted: boolean;
  /** The call's answer once it goes through (a message create makes its message only then). */
  readonly answer: () => Promise<Answer>;
  /** Records the request as answered with `status` (counted under `countedAs`, default its bucket key). */
  readonly record: (status: number, global?: boolean, countedAs?: string) => void;
}

/**
 * Reads a request body to its end: its size, and its bytes when `keep` (undefined past
 * `MAX_BODY_BYTES`, which are not held; the service refuses such a body).
 */
export async function drain(
  request: IncomingMessage,
  keep: boolean,
): Promise<{ size: number; bytes: Uint8Array | undefined }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (keep && size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return { size, bytes: keep && size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined };
}
