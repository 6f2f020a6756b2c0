-- The first of a step's candidate channels (comma-separated, in cascade order) that is neither
-- suppressed nor opted out, read in the record's slot: a closed channel is passed over here, with
-- its reason, instead of getting a lane job that only skips it. `suppression` maps a channel to
-- its suppression key; `optOutKey` is '' when no opt-out applies (a required category, or a tenant
-- with none recorded). Returns the channel (nil when every candidate is closed: the caller keeps
-- its own, whose step then ends the notification with the usual reasons) and the skips found.
local function firstOpenChannel(candidates, suppression, optOutKey, category, now)
  local skipped = {}
  for channel in string.gmatch(candidates or '', '[^,]+') do
    local reason = nil
    if suppression[channel] and redis.call('EXISTS', suppression[channel]) == 1 then
      reason = 'suppressed'
    elseif optOutKey ~= '' then
      local switches = redis.call('HMGET', optOutKey, '*:' .. channel, category .. ':' .. channel)
      if switches[1] == '0' or switches[2] == '0' then reason = 'opted-out' end
    end
    if reason == nil then return channel, skipped end
    table.insert(skipped, { channel = channel, reason = reason, at = now })
  end
  return nil, skipped
end

-- The skips found, as the reply's 'channel:reason,...' (the caller counts them).
local function skipsText(skipped)
  local parts = {}
  for _, s in ipairs(skipped) do table.insert(parts, s['channel'] .. ':' .. s['reason']) end
  return table.concat(parts, ',')
end
