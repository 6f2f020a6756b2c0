-- Appends the skips of one step (a JSON array) to the record's list, keeping the newest 20:
-- a notification waiting out an outage re-checks every few seconds.
local function appendSkips(recorded, added)
  local skips = cjson.decode(recorded or '[]')
  for _, s in ipairs(cjson.decode(added)) do table.insert(skips, s) end
  while #skips > 20 do table.remove(skips, 1) end
  return cjson.encode(skips)
end
