-- wrk script: every request asks get-quote with a value of one parameter no other request asked
-- for, counting up from the second argument, interleaved between wrk's threads (the third argument:
-- how many). The first argument names the parameter: `amount` (a new amount: the quote is computed,
-- never answered from the memo, src/quote/memo.ts), `recipient` (a new EVM address, all lowercase,
-- checked and quoted anew), `amount+recipient` (both: every request a new user asking a new amount),
-- `affiliates` (a new affiliate address with 25 bps) or `refundAddress` (a new mainnet P2WPKH
-- address, as a wallet that hands out a fresh address each time).
local bit = require("bit")
local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

local count = 0

-- BIP-173: the bech32 checksum over the human-readable part's expansion and the 5-bit data.
local charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
local generator = { 0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3 }

local function polymod(values)
  local checksum = 1
  for _, value in ipairs(values) do
    local top = bit.rshift(checksum, 25)
    checksum = bit.bxor(bit.lshift(bit.band(checksum, 0x1ffffff), 5), value)
    for i = 1, 5 do
      if bit.band(bit.rshift(top, i - 1), 1) == 1 then checksum = bit.bxor(checksum, generator[i]) end
    end
  end
  return checksum
end

-- xorshift32: the bits a program has before its value, so that its characters spread as a real one's.
local function next_bits(state)
  state = bit.bxor(state, bit.lshift(state, 13))
  state = bit.bxor(state, bit.rshift(state, 17))
  return bit.bxor(state, bit.lshift(state, 5))
end

-- The P2WPKH address (bc1q...) of the 20-byte program that is `value` in its last 4 bytes (a new
-- address for each value) after bits drawn from it.
local function segwit_address(value)
  local data = { 0 } -- witness version 0
  local state = bit.bxor(value, 0x5bd1e995) -- never 0 for the values the bench asks, below 10^9
  for group = 0, 31 do
    local shift = 155 - 5 * group -- the group's lowest bit, counted from the program's last bit
    if shift < 32 then
      data[#data + 1] = bit.band(bit.rshift(value, shift), 31)
    else
      state = next_bits(state)
      data[#data + 1] = bit.band(state, 31)
    end
  end
  local values = { 3, 3, 0, 2, 3 } -- "bc" expanded
  for _, item in ipairs(data) do values[#values + 1] = item end
  for _ = 1, 6 do values[#values + 1] = 0 end
  local checksum = bit.bxor(polymod(values), 1)
  for i = 0, 5 do data[#data + 1] = bit.band(bit.rshift(checksum, 5 * (5 - i)), 31) end
  local text = { "bc1" }
  for _, item in ipairs(data) do text[#text + 1] = charset:sub(item + 1, item + 1) end
  return table.concat(text)
end

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
  if parameter == "refundAddress" then
    path = path:gsub("refundAddress=[^&]+", "refundAddress=" .. segwit_address(value))
  end
  return wrk.format(nil, path)
end
