/** A ServerResponse for the proxy's unit tests: what the proxy writes, recorded. */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/** A ServerResponse as far as the proxy uses one, recording what it is given. */
export class RecordedResponse extends EventEmitter {
  destroyed = false;
  headersSent = false;
  status = 0;
  headers: Record<string, string | number | string[]> = {};
  body = '';
  ended = false;
  writeHead(status: number, textOrHeaders?: unknown, headers?: Record<string, string | number | string[]>) {
    this.status = status;
    this.headers = (typeof textOrHeaders === 'object' ? textOrHeaders : headers) as typeof this.headers;
    this.headersSent = true;
    return this;
  }
  write(chunk: Uint8Array | string) {
    this.body += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }
  end(chunk?: string) {
    if (chunk) this.body += chunk;
    this.ended = true;
    this.emit('close');
    return this;
  }
  destroy() {
    this.destroyed = true;
    return this;
  }
}

export const recorded = () => new RecordedResponse();
export const asResponse = (response: RecordedResponse) => response as unknown as ServerResponse;
