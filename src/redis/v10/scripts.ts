/**
 * The v10 dialect's decisions on a token as Lua, one script per decision, each atomic and one
 * round trip. They port `../../dialects/v10/policy.ts`, `pace.ts` and `memory-view.ts` line for line.
 *
 * A token's keys share its hash tag (`../keys.ts`), so each decision's keys sit in one slot and
 * tokens spread over a Cluster's shards. The invalid-request log (V15) is the egress IP group's,
 * in the group's slot, with scripts of its own (`invalid-log-scripts.ts`). Keys, under
 * <ns> = <prefix>:{<token hash>}:v10 (or <prefix>:{ip:<group>}:v10 without a token):
 *   <ns>:routes                hash  route → bucket hash (V4, V7); a day after the last answer naming a hash
 *     …:b:<bucket>               hash  limit, remaining, wid (the window's Reset), end (its local
 *                                      end), opened, counting, hold (V7–V9)
 *     …:l:<bucket>               zset  reservation id → lease end: requests in flight
 *     …:fc:<resource>            zset  reservation id → lease end: first requests of routes whose
 *                                      hash is unknown, in flight (V5, rule V6)
 *     …:hold:<local key>         string  end of a shared-scope hold (V10)
 *     …:global                   string  end of the global lock (V12)
 *     …:pace                     zset  id → entry (its answer, pace.ts):
 *                                      answered requests of the last global window (V13)
 *     …:pace-out                 zset  id → lease end: requests in flight, counted in the pace
 *     …:token-invalid            string  the token answered 401 (V16)
 *     …:gone:<resource>          string  the webhook answered 404 (V19)
 * where <bucket> is "<hash> <resource>" once the route's hash is known, else the local key.
 */

import { GLOBAL_WINDOW_MS, SAME_WINDOW_TOLERANCE_MS } from '../../dialects/v10/rules.ts';
import { KEY_SEPARATOR, NO_RESOURCE } from '../../dialects/v10/route.ts';
import {
  AWAIT_FALLBACK_MS,
  BUCKET_LINGER_MS,
  EXPIRY_SLACK_MS,
  PRELUDE as SHARED_PRELUDE,
  VERDICT_TTL_MS,
} from '../lua.ts';

/** The pace's key outlives the longest global window (1 s plus the largest margin `createClient` takes, 60 s). */
const PACE_TTL_MS = 70_000;

const PRELUDE = `${SHARED_PRELUDE}
local function resource_part(resource)
  if resource == '' then return '${NO_RESOURCE}' end
  return resource
end
-- The bucket a route counts in now: its hash's (see joinKey in route.ts) once learned, else its own.
local function effective(key, route, resource)
  local hash = redis.call('HGET', KEYS[1], route)
  if hash then return hash .. '${KEY_SEPARATOR}' .. resource_part(resource) end
  return key
end
local function live(leases)
  redis.call('ZREMRANGEBYSCORE', leases, '-inf', int(now))
  return redis.call('ZCARD', leases)
end
-- V13: a paced request was answered age ms before now (or ended): it counts from then.
local function pace_answered(ns, id, age)
  if redis.call('ZREM', ns .. ':pace-out', id) == 1 then
    redis.call('ZADD', ns .. ':pace', int(now - age), id)
    redis.call('PEXPIRE', ns .. ':pace', ${PACE_TTL_MS})
  end
end
local function expire_bucket(bucket, at_least)
  local h = redis.call('HMGET', bucket, 'end', 'hold')
  local at = math.max((tonumber(h[1] or '0') or 0) + ${BUCKET_LINGER_MS}, (tonumber(h[2] or '0') or 0) + ${BUCKET_LINGER_MS},
    at_least, now + ${BUCKET_LINGER_MS})
  redis.call('PEXPIRE', bucket, int(at - now))
end
`;

/**
 * admit: KEYS routes · ARGV ns, local key, route, resource, exempt, lease ms, id,
 * global limit, margin ms, global margin ms, now
 * → {'grant', counted, reset, id, bucket} | {'sleep', ms, reset} | {'await', ms} | {'global', ms} | {'pace', ms}
 *   | {'refuse', 'token'} | {'refuse', 'gone'} (the guard, V15, is GUARD_V10's)
 */
export const ADMIT_V10 = `${PRELUDE}
local ns, key, route, resource = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local exempt = ARGV[5] == '1'
local lease_ms, id = tonumber(ARGV[6]), ARGV[7]
local global_limit, margin = tonumber(ARGV[8]), tonumber(ARGV[9])
if not exempt and redis.call('EXISTS', ns .. ':token-invalid') == 1 then return {'refuse', 'token'} end
if resource ~= '' and redis.call('EXISTS', ns .. ':gone:' .. resource) == 1 then return {'refuse', 'gone'} end
local pace, pace_out = ns .. ':pace', ns .. ':pace-out'
if not exempt then
  local global_until = tonumber(redis.call('GET', ns .. ':global') or '')
  if global_until and global_until > now then return {'global', int(global_until - now)} end
  -- V13: in flight a request holds its place; answered, it counts from its answer (pace.ts).
  local window = ${GLOBAL_WINDOW_MS} + tonumber(ARGV[10])
  local since = now - window
  redis.call('ZREMRANGEBYSCORE', pace, '-inf', int(now - window))
  redis.call('ZREMRANGEBYSCORE', pace_out, '-inf', int(now))
  local over = redis.call('ZCOUNT', pace, '(' .. int(since), '+inf') + redis.call('ZCARD', pace_out) - global_limit
  if over >= 0 then
    -- The wait hint (GlobalPace.waitMs, pace.ts): an answer falling out, or a window from now.
    local frees = now
    local entries = redis.call('ZRANGEBYSCORE', pace, '(' .. int(since), '+inf', 'WITHSCORES', 'LIMIT', over, 1)
    if entries[2] then frees = tonumber(entries[2]) end
    return {'pace', int(math.max(1, frees - since))}
  end
end
local route_hold = tonumber(redis.call('GET', ns .. ':hold:' .. key) or '')
if route_hold and route_hold > now then return {'sleep', int(route_hold - now), 0} end

local eff = effective(key, route, resource)
local bucket, leases = ns .. ':b:' .. eff, ns .. ':l:' .. eff
local first_contacts_key = ns .. ':fc:' .. resource_part(resource)
local in_flight = live(leases)
local first_contacts = live(first_contacts_key)
local function grant(counted, reset, first_contact)
  redis.call('ZADD', leases, int(now + lease_ms), id)
  redis.call('PEXPIRE', leases, int(lease_ms + ${EXPIRY_SLACK_MS}))
  if first_contact and eff == key then
    redis.call('ZADD', first_contacts_key, int(now + lease_ms), id)
    redis.call('PEXPIRE', first_contacts_key, int(lease_ms + ${EXPIRY_SLACK_MS}))
  end
  if redis.call('EXISTS', bucket) == 1 then expire_bucket(bucket, now + lease_ms) end
  if not exempt then
    redis.call('ZADD', pace_out, int(now + lease_ms), id)
    redis.call('PEXPIRE', pace_out, int(lease_ms + ${EXPIRY_SLACK_MS}))
  end
  -- As the memory policy: an uncounted grant names no window (only a counted place is given back).
  return {'grant', counted, counted == 1 and int(reset) or 0, id, eff}
end
local function await()
  local oldest = redis.call('ZRANGE', leases, 0, 0, 'WITHSCORES')
  local wait = ${AWAIT_FALLBACK_MS}
  if oldest[2] then wait = math.max(1, tonumber(oldest[2]) - now) end
  return {'await', int(wait)}
end
local h = redis.call('HMGET', bucket, 'limit', 'remaining', 'end', 'opened', 'hold', 'wid')
local hold = num(h[5], bucket, 'hold') or 0
-- V9: a held key waits out its retry_after.
if hold > now then return {'sleep', int(hold - now), int(num(h[3], bucket, 'end') or 0)} end
-- V5: limits unknown, one request in flight; one first contact per resource at a time.
if h[1] == false then
  if in_flight == 0 and first_contacts == 0 then return grant(0, 0, true) end
  return await()
end
local limit = num(h[1], bucket, 'limit')
local remaining = num(h[2], bucket, 'remaining') or 0
local window_end = num(h[3], bucket, 'end') or 0
local opened = num(h[4], bucket, 'opened')
local wid = num(h[6], bucket, 'wid') or window_end
-- V14: no per-route limit.
if limit == 0 then return grant(0, 0) end
local over = now >= window_end + margin
if over and opened ~= wid then
  remaining = math.max(0, limit - in_flight)
  redis.call('HSET', bucket, 'remaining', int(remaining), 'opened', int(wid), 'counting', 1)
end
if remaining - first_contacts > 0 then
  redis.call('HSET', bucket, 'remaining', int(remaining - 1))
  return grant(1, wid)
end
-- A place held by another route's first request frees up when its response names its hash.
if remaining > 0 then return await() end
if over then
  if in_flight == 0 then
    redis.call('HSET', bucket, 'counting', 0)
    return grant(0, wid)
  end
  return await()
end
-- V8: hold the key until the window ends plus the margin.
return {'sleep', int(window_end + margin - now), int(window_end)}
`;

/**
 * settle: KEYS routes · ARGV ns, local key, route, resource, id, source bucket, limit, remaining,
 * window left ms, hash, hold bucket ms, hold route ms, token invalid, gone, channel, reset ms,
 * limits unknown, the answer's age ms (pace.ts), now ('' for absent values). An invalid request is
 * noted in the group's log by NOTE_INVALID_V10, beside it.
 */
export const SETTLE_V10 = `${PRELUDE}
local ns, key, route, resource, id, source = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local limit, remaining, left = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local hash, hold_bucket, hold_route = ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12])
local TOLERANCE = ${SAME_WINDOW_TOLERANCE_MS}
if ARGV[13] == '1' then redis.call('SET', ns .. ':token-invalid', 1, 'PX', ${VERDICT_TTL_MS}) end
if ARGV[14] == '1' and resource ~= '' then redis.call('SET', ns .. ':gone:' .. resource, 1, 'PX', ${VERDICT_TTL_MS}) end
if hold_route then
  local hold_key = ns .. ':hold:' .. key
  local current = tonumber(redis.call('GET', hold_key) or '') or 0
  if now + hold_route > current then redis.call('SET', hold_key, int(now + hold_route), 'PX', int(hold_route + ${EXPIRY_SLACK_MS})) end
end
pace_answered(ns, id, tonumber(ARGV[18]))
if source == '' then source = effective(key, route, resource) end
-- V7: a new hash remaps the route; the reservation moves to the bucket it names.
if hash ~= '' then
  -- The map lives as long as answers keep naming hashes, and a day after: Redis holds live state only.
  redis.call('HSET', KEYS[1], route, hash)
  redis.call('PEXPIRE', KEYS[1], ${VERDICT_TTL_MS})
end
local target = effective(key, route, resource)
redis.call('ZREM', ns .. ':l:' .. source, id)
redis.call('ZREM', ns .. ':fc:' .. resource_part(resource), id)
local bucket = ns .. ':b:' .. target
local in_flight = live(ns .. ':l:' .. target)
local window_end = nil
if left then window_end = now + left end
local window = tonumber(ARGV[16]) or window_end
local h = redis.call('HMGET', bucket, 'limit', 'remaining', 'end', 'opened', 'counting', 'hold', 'wid')
if hold_bucket then
  local hold = math.max(num(h[6], bucket, 'hold') or 0, now + hold_bucket)
  redis.call('HSET', bucket, 'hold', int(hold))
end
if h[1] == false then
  -- A 429 without bucket headers (limits unknown): the bucket stays unknown.
  if ARGV[17] ~= '1' then
    local reported = remaining or limit or 0
    redis.call('HSET', bucket, 'limit', int(limit or 0), 'remaining', int(reported - in_flight),
      'wid', int(window or now), 'end', int(window_end or now))
  end
else
  local cur_limit = num(h[1], bucket, 'limit')
  local cur_remaining = num(h[2], bucket, 'remaining') or 0
  local cur_end = num(h[3], bucket, 'end') or 0
  local opened = num(h[4], bucket, 'opened')
  local counting = num(h[5], bucket, 'counting') == 1
  local cur_wid = num(h[7], bucket, 'wid') or cur_end
  local limit_changed = limit ~= nil and limit ~= cur_limit
  if limit then redis.call('HSET', bucket, 'limit', int(limit)) end
  if not (window and window < cur_wid - TOLERANCE) then
    local new_window = window ~= nil and window > cur_wid + TOLERANCE
    if new_window then
      redis.call('HSET', bucket, 'wid', int(window), 'end', int(window_end))
    elseif window_end then
      redis.call('HSET', bucket, 'end', int(math.min(cur_end, window_end)))
    end
    if remaining then
      local from_server = remaining - in_flight
      if not counting or limit_changed then
        if not (new_window or limit_changed) then from_server = math.min(cur_remaining, from_server) end
        redis.call('HSET', bucket, 'remaining', int(from_server))
      else
        local from_refilled = (not new_window) and window ~= nil and opened ~= nil and math.abs(window - opened) <= TOLERANCE
        if not from_refilled and remaining < cur_remaining then redis.call('HSET', bucket, 'remaining', int(from_server)) end
      end
    end
  end
end
expire_bucket(bucket, now)
redis.call('PUBLISH', ARGV[15], 'b:' .. key)
return 0
`;

/**
 * release: KEYS routes · ARGV ns, local key, route, resource, id, source bucket, give back ('1':
 * never sent), counted, reset, channel, now
 */
export const RELEASE_V10 = `${PRELUDE}
local ns, key, route, resource, id, source = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
if source == '' then source = effective(key, route, resource) end
local removed = redis.call('ZREM', ns .. ':l:' .. source, id)
redis.call('ZREM', ns .. ':fc:' .. resource_part(resource), id)
-- Never sent (give back): its place in the pace comes back; else, unanswered, it counts from now.
if ARGV[7] == '1' then redis.call('ZREM', ns .. ':pace-out', id) else pace_answered(ns, id, 0) end
if removed == 1 and ARGV[7] == '1' and ARGV[8] == '1' then
  local bucket = ns .. ':b:' .. source
  local window = redis.call('HGET', bucket, 'wid')
  if window and num(window, bucket, 'wid') == tonumber(ARGV[9]) then redis.call('HINCRBY', bucket, 'remaining', 1) end
end
redis.call('PUBLISH', ARGV[10], 'b:' .. key)
return removed
`;

/** read: KEYS routes · ARGV ns, local key, route, resource, now → {limit, remaining, end, hash} or nil. */
export const READ_V10 = `${PRELUDE}
local ns, key, route, resource = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local bucket = ns .. ':b:' .. effective(key, route, resource)
local h = redis.call('HMGET', bucket, 'limit', 'remaining', 'end')
if h[1] == false then return nil end
local hash = redis.call('HGET', KEYS[1], route) or ''
return {int(num(h[1], bucket, 'limit')), int(num(h[2], bucket, 'remaining') or 0), int(num(h[3], bucket, 'end') or 0), hash}
`;
