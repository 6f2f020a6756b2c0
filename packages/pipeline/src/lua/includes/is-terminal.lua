-- The statuses after which nothing changes a record (core's NOTIFICATION_STATUSES / isTerminal).
local function isTerminal(status)
  return status == 'delivered' or status == 'failed' or status == 'unconfirmed'
    or status == 'bounced' or status == 'complained' or status == 'canceled' or status == 'expired'
    or status == 'opted-out'
end
