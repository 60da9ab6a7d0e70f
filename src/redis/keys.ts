/**
 * Where a store's state lives in Redis: the one place its keys' roots and hash tags are formed.
 *
 * A token's keys share its hash tag, so each decision's keys sit in one cluster slot and tokens
 * spread over the shards. What is the egress IP's rather than a token's shares the group's tag:
 * the invalid-request log (V15; the service bans an IP) and, under v10, the budget of calls sent
 * without a token (V13). A group is the processes behind one egress IP (`ipGroup`).
 */
import { createHash } from 'node:crypto';

/** What a prefix or an IP group may be: 1–64 characters of [A-Za-z0-9_.:-], so that no key part can hold a hash tag's braces. */
export const KEY_PART = /^[\w.:-]{1,64}$/;

/** The first 32 hex characters of the token's SHA-256: the token itself never reaches Redis. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 32);
}

/** The root of one token's keys (`<prefix>:{<token hash>}`), or of the group's when there is no token (`<prefix>:{ip:<group>}`). */
export function namespaceOf(prefix: string, token: string | undefined, ipGroup: string): string {
  return token === undefined ? groupNamespace(prefix, ipGroup) : `${prefix}:{${tokenHash(token)}}`;
}

/** The v10 invalid-request log of the processes behind one egress IP. */
export function invalidLogKey(prefix: string, ipGroup: string): string {
  return `${groupNamespace(prefix, ipGroup)}:v10:invalid`;
}

function groupNamespace(prefix: string, ipGroup: string): string {
  return `${prefix}:{ip:${ipGroup}}`;
}
