/**
 * Why Redis cannot decide now, in words of our own rather than the client library's: which
 * failures mean "unavailable" (so the calls fail clearly, or fall back locally), and what each
 * one means.
 */

/** Failures of the connection, or of a server that cannot take the call now (mid-failover). */
export const CONNECTION_ERROR = new RegExp(
  [
    // The socket, and ioredis giving up on it.
    ...['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'Connection is closed'],
    ...["Stream isn't writeable", 'enableOfflineQueue', 'connect', 'max retries per request'],
    // A Cluster, and Sentinel.
    ...['None of startup nodes', 'Failed to refresh slots cache', 'Cluster is (ended|disconnected|disconnecting)'],
    ...['Too many Cluster redirections', 'sentinels are unreachable'],
    // The server, during a failover or a restart.
    '^(CLUSTERDOWN|TRYAGAIN|READONLY|MASTERDOWN|LOADING)\\b',
  ].join('|'),
  'i',
);

/** Why a connection is not there, in words of our own (`reasonOf` uses it as it is). */
export class NotReady extends Error {
  readonly reason: string;
  constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
    this.reason = reason;
  }
}

/**
 * A connection failure in words, without the client library's own phrasing; `socketError`: the
 * connection's last error event, which says why better than a call's "Connection is closed".
 */
export function reasonOf(error: unknown, socketError?: unknown): string {
  const own = reasonOfOne(error);
  const generic = own === 'connection lost' || own === 'no connection';
  if (generic && (error as { code?: unknown } | null)?.code === undefined && socketError !== undefined) {
    const socket = reasonOfOne(socketError);
    if (socket !== 'no connection') return socket;
  }
  return own;
}

function reasonOfOne(error: unknown): string {
  if (error instanceof NotReady) return error.reason;
  const code = (error as { code?: unknown } | null)?.code;
  const message = String((error as Error | null)?.message ?? error);
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return 'connection refused';
  if (code === 'ENOTFOUND' || /ENOTFOUND|EAI_AGAIN/.test(message)) return 'host not found';
  if (code === 'ETIMEDOUT' || /ETIMEDOUT|timed? ?out/i.test(message)) return 'timed out';
  if (/None of startup nodes|Failed to refresh slots cache/i.test(message)) return 'no cluster node answers';
  if (/Too many Cluster redirections/i.test(message)) return 'the cluster is failing over or moving slots';
  if (/sentinels are unreachable/i.test(message)) return 'no sentinel answers';
  if (/^CLUSTERDOWN/.test(message)) return 'the cluster is down';
  if (/^TRYAGAIN/.test(message)) return 'the cluster is moving the slot';
  if (/^READONLY/.test(message)) return 'the server is a replica now: a failover is under way';
  if (/^MASTERDOWN/.test(message)) return 'the replica has lost its master';
  if (/^LOADING/.test(message)) return 'Redis is loading its data';
  if (
    /ECONNRESET|EPIPE|Connection is closed|Stream isn't writeable|enableOfflineQueue|max retries per request|Cluster is/i.test(
      message,
    )
  )
    return 'connection lost';
  return 'no connection';
}
