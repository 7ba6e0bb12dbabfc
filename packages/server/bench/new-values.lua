-- wrk script: every request asks get-quote with a value of one parameter no other request asked
-- for, counting up from the second argument, interleaved between wrk's threads (the third argument:
-- how many). The first argument names the parameter: `amount` (a new amount: the quote is computed,
-- never answered from the memo, src/quote/memo.ts), `recipient` (a new EVM address, all lowercase,
-- checked and quoted anew), `amount+recipient` (both: every request a new user asking a new amount)
-- or `affiliates` (a new affiliate address with 25 bps).
local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

local count = 0

function init(args)
  parameter = args[1]
  first_value = tonumber(args[2])
  thread_count = tonumber(args[3])
end

function request()
  local value = first_value + count * thread_count + index
  count = count + 1
  local path = wrk.path
  local address = string.format("0x%040x", value)
  if parameter == "amount" or parameter == "amount+recipient" then
    path = path:gsub("amount=%d+", "amount=" .. string.format("%d", value))
  end
  if parameter == "recipient" or parameter == "amount+recipient" then
    path = path:gsub("recipient=[^&]+", "recipient=" .. address)
  end
  if parameter == "affiliates" then
    path = path:gsub("affiliates=[^&]+", function() return "affiliates=" .. address .. "%3A25" end)
  end
  return wrk.format(nil, path)
end
