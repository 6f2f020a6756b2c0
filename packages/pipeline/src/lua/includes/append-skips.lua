-- Appends the skips of one step (a JSON array) to the record's list, once per (channel, reason):
-- a notification waiting out an outage re-checks every few seconds, and the first skip of a kind
-- already says why (its `at` is when it began), so a record's size stays bounded by its channels.
local function appendSkips(recorded, added)
  local skips = cjson.decode(recorded or '[]')
  local seen = {}
  for _, s in ipairs(skips) do seen[tostring(s['channel']) .. ':' .. tostring(s['reason'])] = true end
  for _, s in ipairs(cjson.decode(added)) do
    local kind = tostring(s['channel']) .. ':' .. tostring(s['reason'])
    if not seen[kind] then
      seen[kind] = true
      table.insert(skips, s)
    end
  end
  return cjson.encode(skips)
end
