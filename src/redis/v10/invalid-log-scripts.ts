/**
 * The egress IP group's invalid-request log (V15) as Lua: one sorted set per group, under the
 * group's hash tag (`../keys.ts`), apart from every token's slot. Its scripts are sent beside a
 * token's (`view.ts`): the guard with each admission, the note with an invalid answer's settle.
 *   <prefix>:{ip:<group>}:v10:invalid  zset  id → time: the group's invalid requests of the last 10 minutes
 */

import { INVALID_WINDOW_MS } from '../../dialects/v10/rules.ts';
import { EXPIRY_SLACK_MS, PRELUDE as SHARED_PRELUDE } from '../lua.ts';

/** The group's invalid-request log (V15): KEYS[1] is it; its entries of the last 10 minutes counted. */
const INVALID_PRELUDE = `${SHARED_PRELUDE}
local INVALID_WINDOW = ${INVALID_WINDOW_MS}
local function invalid_count()
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', int(now - INVALID_WINDOW))
  return redis.call('ZCARD', KEYS[1])
end
`;

/** note: KEYS invalid · ARGV id, now — V15: one invalid request; → the count. */
export const NOTE_INVALID_V10 = `${INVALID_PRELUDE}
redis.call('ZADD', KEYS[1], int(now), ARGV[1])
redis.call('PEXPIRE', KEYS[1], INVALID_WINDOW + ${EXPIRY_SLACK_MS})
return invalid_count()
`;

/**
 * guard: KEYS invalid · ARGV guard limit, now → {count, ms}: V15's count, and while it is at the
 * guard, how long until it falls below (else 0).
 */
export const GUARD_V10 = `${INVALID_PRELUDE}
local guard = tonumber(ARGV[1])
local invalid = invalid_count()
if invalid < guard then return {invalid, 0} end
local oldest = redis.call('ZRANGE', KEYS[1], invalid - guard, invalid - guard, 'WITHSCORES')
return {invalid, int(math.max(0, tonumber(oldest[2]) + INVALID_WINDOW - now))}
`;
