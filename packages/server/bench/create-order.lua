-- wrk script: POSTs the quotes of a file (one JSON body a line) to create-order, each once, in order.
-- A run that outlasts the file sends quotes again; those answer DUPLICATE_ORDER and count as non-2xx.
local bodies = {}
local next_body = 0

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
end

function request()
  next_body = next_body % #bodies + 1
  return wrk.format("POST", "/v4/create-order", { ["content-type"] = "application/json" }, bodies[next_body])
end
