/**
 * What every script shares: the clock, number formatting and reading, and the one global-lock
 * script. Constants the scripts use come from the TypeScript that owns them, interpolated here
 * and in the dialects' scripts, never typed again.
 */

/** A bucket (or hold) says something until this long after its window ends (or its last lease runs out). */
export const BUCKET_LINGER_MS = 10_000;
/** A key of leases or holds outlives the last of them by this much, so that an idle one expires by itself. */
export const EXPIRY_SLACK_MS = 1_000;
/** How long a verdict on a token (V16) or a webhook (V19), or a token's learned route → hash map, is kept: a day. */
export const VERDICT_TTL_MS = 24 * 60 * 60 * 1000;
/** With no lease to wait for, a caller awaiting a response asks again after this long. */
export const AWAIT_FALLBACK_MS = 1_000;
/** The global lock's key outlives the lock by this much. */
export const GLOBAL_LOCK_SLACK_MS = 10_000;

/**
 * "now" in ms, `int` (a number as Redis stores it) and `num` (a stored field read back, or an
 * error naming the key when something else wrote it). Every script's last argument is the
 * caller's clock in ms, or '' for Redis's own clock (the default).
 */
export const PRELUDE = `
local now = tonumber(ARGV[#ARGV])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function int(n) return string.format('%.0f', n) end
local function num(v, key, name)
  if v == false or v == nil then return nil end
  local n = tonumber(v)
  if n == nil then
    return error({err = 'TOLLGATE_BAD_DATA ' .. key .. ' field ' .. name .. ' is not a number'})
  end
  return n
end
`;

/**
 * lock: KEYS global · ARGV ms, channel, now — holds the global lock for ms unless it already runs
 * longer, and tells the token's other processes (v6 step 5, v10 V12).
 */
export const LOCK_GLOBAL = `${PRELUDE}
local ms = tonumber(ARGV[1])
if ms <= 0 then return 0 end
local current = tonumber(redis.call('GET', KEYS[1]) or '') or 0
if current < now + ms then
  redis.call('SET', KEYS[1], int(now + ms), 'PX', int(ms + ${GLOBAL_LOCK_SLACK_MS}))
  redis.call('PUBLISH', ARGV[2], 'g:' .. ARGV[1])
end
return 1
`;
