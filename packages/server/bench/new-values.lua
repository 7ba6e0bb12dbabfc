-- wrk script: every request asks get-quote with a value of one parameter no other request asked
-- for, counting up from the second argument, interleaved between wrk's threads (the third argument:
-- how many). The first argument names the parameter: `amount` (a new amount: the quote's figures are
-- computed from its kept plan, src/quote/memo.ts) or `recipient` (a new EVM address, all lowercase:
-- a new plan every request, as a stream of new wallets asks).
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
  if parameter == "amount" then
    return wrk.format(nil, (wrk.path:gsub("amount=%d+", "amount=" .. string.format("%d", value))))
  end
  return wrk.format(nil, (wrk.path:gsub("recipient=[^&]+", "recipient=" .. string.format("0x%040x", value))))
end
