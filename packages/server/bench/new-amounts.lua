-- wrk script: every request asks get-quote for an amount no other request asked for, counting up
-- from the first argument, interleaved between wrk's threads (the second argument: how many), so
-- that every quote is computed: none is issued again from the quote memo (src/quote/memo.ts).
local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

local count = 0

function init(args)
  first_amount = tonumber(args[1])
  thread_count = tonumber(args[2])
end

function request()
  local amount = string.format("%d", first_amount + count * thread_count + index)
  count = count + 1
  return wrk.format(nil, (wrk.path:gsub("amount=%d+", "amount=" .. amount)))
end
