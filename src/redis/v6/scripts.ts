/**
 * The v6 dialect's decisions as Lua, one script per decision, each one atomic and one round trip.
 * They port `../../dialects/v6/policy.ts` (the concurrency policy over the spec's rows) line for
 * line; "now" is Redis's own clock, so machines with skewed clocks agree.
 *
 * Keys of one token share a hash tag (`{prefix:hash}`), so every script's keys sit in one
 * cluster slot:
 *   bucket  (hash)  limit, remaining, reset, opened, slept, counting — the spec's record, window
 *                   markers, and whether `remaining` is an exact count since a refill
 *   leases  (zset)  reservation id → lease end (ms): requests in flight; a crashed holder's
 *                   lease runs out instead of blocking the bucket forever
 *   global  (string: the lock's end in ms, expiring 10 s after it) — the global lock
 * Buckets expire once their window is over and nothing is in flight: Redis holds live state only.
 */

import { PRE_EMPTIVE_MARGIN_MS } from '../../dialects/v6/rules.ts';
import { AWAIT_FALLBACK_MS, BUCKET_LINGER_MS, EXPIRY_SLACK_MS, PRELUDE as SHARED_PRELUDE } from '../lua.ts';

/** The v6 prelude: integer field reads, bucket expiry and live leases. */
const PRELUDE = `${SHARED_PRELUDE}
local function field(v, name)
  if v == false or v == nil then return nil end
  local n = tonumber(v)
  if n == nil or n ~= math.floor(n) then
    return error({err = 'TOLLGATE_BAD_DATA ' .. KEYS[1] .. ' field ' .. name .. ' is not an integer'})
  end
  return n
end
local function expire_bucket(reset, lease_end)
  -- A bucket says something until a while after its window ends (or its last lease runs out).
  -- Relative (PEXPIRE), so that it holds whichever clock "now" comes from.
  local at = math.max(reset * 1000 + ${BUCKET_LINGER_MS}, lease_end, now + ${BUCKET_LINGER_MS})
  redis.call('PEXPIRE', KEYS[1], int(at - now))
end
local function live_leases()
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', int(now))
  return redis.call('ZCARD', KEYS[2])
end
`;

/**
 * admit: KEYS bucket, leases, global · ARGV lease ms, reservation id, none ('1' for Route None)
 * → {'global', ms} | {'grant', counted, reset, id} | {'sleep', ms, reset} | {'await', retry ms}
 */
export const ADMIT = `${PRELUDE}
local global_until = tonumber(redis.call('GET', KEYS[3]) or '')
if global_until and global_until > now then return {'global', int(global_until - now)} end
if ARGV[3] == '1' then return {'grant', 0, 0, ''} end
local lease_ms = tonumber(ARGV[1])
local id = ARGV[2]
local in_flight = live_leases()
local function grant(counted, reset)
  redis.call('ZADD', KEYS[2], int(now + lease_ms), id)
  redis.call('PEXPIRE', KEYS[2], int(lease_ms + ${EXPIRY_SLACK_MS}))
  if redis.call('EXISTS', KEYS[1]) == 1 then expire_bucket(reset, now + lease_ms) end
  -- As the memory policy: an uncounted grant names no window (only a counted place is given back).
  return {'grant', counted, counted == 1 and int(reset) or 0, id}
end
local function await()
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  local wait = ${AWAIT_FALLBACK_MS}
  if oldest[2] then wait = math.max(1, tonumber(oldest[2]) - now) end
  return {'await', int(wait)}
end
local h = redis.call('HMGET', KEYS[1], 'limit', 'remaining', 'reset', 'opened', 'slept')
if h[1] == false then
  -- Limits unknown: one request in flight until its headers arrive.
  if in_flight == 0 then return grant(0, 0) end
  return await()
end
local limit = field(h[1], 'limit')
local remaining = field(h[2], 'remaining') or 0
local reset = field(h[3], 'reset') or 0
local opened = field(h[4], 'opened')
local slept = field(h[5], 'slept')
-- Row 1: limit 0, the request proceeds.
if limit == 0 then return grant(0, reset) end
local now_s = math.floor(now / 1000)
local over = now_s > reset or slept == reset
if over and opened ~= reset then
  -- Row 2, once per window, less the requests in flight (they may land in the new window).
  remaining = math.max(0, limit - in_flight)
  redis.call('HSET', KEYS[1], 'remaining', int(remaining), 'opened', int(reset), 'counting', 1)
end
if remaining > 0 then
  -- Row 4.
  redis.call('HSET', KEYS[1], 'remaining', int(remaining - 1))
  return grant(1, reset)
end
if over then
  if in_flight == 0 then
    redis.call('HSET', KEYS[1], 'counting', 0) -- a request the count does not hold
    return grant(0, reset)
  end
  return await()
end
-- Row 3: sleep (reset - now) s + the pre-emptive margin.
return {'sleep', int((reset - now_s) * 1000 + ${PRE_EMPTIVE_MARGIN_MS}), int(reset)}
`;

/**
 * settle: KEYS bucket, leases · ARGV id, limit, remaining, reset ('' when absent), channel, bucket key
 * The post-response rows, with in-flight reservations counted and no window regression.
 */
export const SETTLE = `${PRELUDE}
redis.call('ZREM', KEYS[2], ARGV[1])
local in_flight = live_leases()
local limit = tonumber(ARGV[2])
local remaining = tonumber(ARGV[3])
local reset = tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'limit', 'remaining', 'reset', 'opened', 'counting')
if h[1] == false then
  local r = 0
  if remaining then r = remaining - in_flight end
  redis.call('HSET', KEYS[1], 'limit', int(limit or 0), 'remaining', int(r), 'reset', int(reset or 0))
  expire_bucket(reset or 0, now)
else
  local cur_remaining = field(h[2], 'remaining') or 0
  local cur_reset = field(h[3], 'reset') or 0
  local opened = field(h[4], 'opened')
  local counting = field(h[5], 'counting') == 1
  if limit then redis.call('HSET', KEYS[1], 'limit', int(limit)) end
  if not (reset and reset < cur_reset) then
    local new_window = reset ~= nil and reset ~= cur_reset
    if reset then redis.call('HSET', KEYS[1], 'reset', int(reset)); cur_reset = reset end
    if remaining then
      local from_server = remaining - in_flight
      if not counting then
        if not new_window then from_server = math.min(cur_remaining, from_server) end
        redis.call('HSET', KEYS[1], 'remaining', int(from_server))
      elseif not (not new_window and reset ~= nil and reset == opened) and remaining < cur_remaining then
        -- Counting since a refill: only a figure below the count lowers it (see dialects/v6/policy.ts).
        redis.call('HSET', KEYS[1], 'remaining', int(from_server))
      end
    end
  end
  expire_bucket(cur_reset, now)
end
redis.call('PUBLISH', ARGV[5], 'b:' .. ARGV[6])
return 1
`;

/** release: KEYS bucket, leases · ARGV id, channel, bucket key, give back ('1': never sent), counted, reset */
export const RELEASE = `${PRELUDE}
local removed = redis.call('ZREM', KEYS[2], ARGV[1])
if removed == 1 and ARGV[4] == '1' and ARGV[5] == '1' then
  local cur = redis.call('HGET', KEYS[1], 'reset')
  if cur and field(cur, 'reset') == tonumber(ARGV[6]) then redis.call('HINCRBY', KEYS[1], 'remaining', 1) end
end
redis.call('PUBLISH', ARGV[2], 'b:' .. ARGV[3])
return removed
`;

/** slept: KEYS bucket · ARGV reset — row 3's sleep for that window has run. */
export const SLEPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'slept', ARGV[1]) end
return 1
`;

/** read: KEYS bucket → {limit, remaining, reset} checked, or nil. */
export const READ = `${PRELUDE}
local h = redis.call('HMGET', KEYS[1], 'limit', 'remaining', 'reset')
if h[1] == false then return nil end
return {int(field(h[1], 'limit')), int(field(h[2], 'remaining') or 0), int(field(h[3], 'reset') or 0)}
`;
