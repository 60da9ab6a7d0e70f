/**
 * tollgate/proxy: `createProxy(options)`, an HTTP front on tollgate's limiter for bots in any
 * language (docs/proxy.md). `npx tollgate proxy` runs it from the command line (`cli.ts`).
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
import { createRelay } from '../index.ts';
import type { ProxyOptions } from './options.ts';
import { createProxyWith, type Proxy } from './server.ts';

export type { LogLevel, ProxyOptions } from './options.ts';
export {
  DEFAULT_DRAIN_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROXY_MAX_WAIT_MS,
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM,
} from './options.ts';
export { KEY_HEADER, MAX_WAIT_HEADER, PROXY_HEADER } from './headers.ts';
export { PROXY_ANSWER, type ProxyAnswerCode } from './answers.ts';
export type { Proxy } from './server.ts';
export { tokenLabel } from './labels.ts';

/** The proxy on `options`, listening once the promise resolves. Throws TollgateArgumentError for a bad option. */
export function createProxy(options?: ProxyOptions): Promise<Proxy> {
  return createProxyWith(createRelay, options);
}
