/**
 * The proxy's options resolved once, at creation: every default filled in, the secret kept as its
 * digest, and the one log every part writes to.
 */
import { keyDigestOf } from './headers.ts';
import {
  checkProxyOptions,
  DEFAULT_DRAIN_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROXY_MAX_WAIT_MS,
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM,
  serverRequestTimeoutOf,
  type LogLevel,
  type ProxyOptions,
} from './options.ts';

/** One JSON line at `level`, when the log level lets it through. */
export type ProxyLog = (level: 'info' | 'debug' | 'error', fields: Record<string, unknown>) => void;

export interface ProxySettings {
  /** The checked options, for what is handed on as given (store, fetch, the relay's limits…). */
  readonly options: ProxyOptions;
  /** The upstream's origin, without a trailing slash. */
  readonly upstream: string;
  readonly host: string;
  readonly port: number;
  readonly maxBody: number;
  readonly defaultMaxWait: number;
  readonly headersTimeout: number;
  /** Node's whole-request timeout (0: none). */
  readonly requestTimeout: number;
  readonly drainMs: number;
  readonly logLevel: LogLevel;
  readonly log: ProxyLog;
  /** The secret's digest (`keyDigestOf`), or undefined without one. */
  readonly secretDigest: Buffer | undefined;
}

/** `options` checked (a TollgateArgumentError names every problem) and resolved. */
export function proxySettings(options: ProxyOptions): ProxySettings {
  const checked = checkProxyOptions(options);
  const logLevel: LogLevel = checked.logLevel ?? 'info';
  const write = checked.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    options: checked,
    upstream: (checked.upstream ?? DEFAULT_UPSTREAM).replace(/\/+$/, ''),
    host: checked.host ?? '127.0.0.1',
    port: checked.port ?? DEFAULT_PROXY_PORT,
    maxBody: checked.maxBody ?? DEFAULT_MAX_BODY_BYTES,
    defaultMaxWait: checked.maxWait ?? DEFAULT_PROXY_MAX_WAIT_MS,
    headersTimeout: checked.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeout: serverRequestTimeoutOf(checked),
    drainMs: checked.drainMs ?? DEFAULT_DRAIN_MS,
    logLevel,
    log: (level, fields) => {
      if (logLevel === 'silent' || (level === 'debug' && logLevel !== 'debug')) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, ...fields }));
    },
    secretDigest: checked.secret === undefined ? undefined : keyDigestOf(checked.secret),
  };
}
