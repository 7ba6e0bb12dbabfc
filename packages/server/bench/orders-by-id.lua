-- wrk script: get-order for the orders of a file (one order id a line), each thread going through
-- them in turn from its own place (the second argument: thread count), so that requests arriving
-- together ask for different orders, as the clients of many orders do.
local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

local ids = {}
local next_id = 0

function init(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  next_id = math.floor(index * #ids / tonumber(args[2]))
end

function request()
  next_id = next_id % #ids + 1
  return wrk.format(nil, "/v4/get-order/" .. ids[next_id])
end
