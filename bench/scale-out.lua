-- wrk's side of bench/scale-out.ts (BENCH_CLIENT=wrk): every body sent once, from a file of
-- pre-built bodies separated by NUL bytes, each thread its own share (i-th body to thread i mod n);
-- each answer must be 200 and, for bookings, hold the BOOKED status. A thread whose share is
-- answered stops; a connection with nothing left to send waits (delay) and then asks GET
-- /health/live, not counted, should the thread still be running. Each thread prints "started" when it begins and "finished" when its share is
-- answered: wrk's own clock runs for the whole -d, so the bench times the window from those lines
-- and then stops wrk with SIGINT. `done` prints one JSON line: answers, failures, the first failure.
--   wrk -t N -c C --timeout 60s -d 600s -s bench/scale-out.lua URL -- <path> <bodies file> <threads> <message> <api key> [<must contain>]

local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local path, file, n, message, key, must = args[1], args[2], tonumber(args[3]), args[4], args[5], args[6]
  local f = assert(io.open(file, "rb"))
  local all = f:read("*a")
  f:close()
  local headers = { ["Content-Type"] = "application/xml", ["IATA-Message-Name"] = "IATA_" .. message, ["X-API-Key"] = key, ["Accept-Encoding"] = "identity" }
  requests = {}
  local i, start = 0, 1
  while start <= #all do
    local stop = string.find(all, "\0", start, true) or (#all + 1)
    if i % n == id then table.insert(requests, wrk.format("POST", path, headers, string.sub(all, start, stop - 1))) end
    i = i + 1
    start = stop + 1
  end
  filler = wrk.format("GET", "/health/live", {}, nil)
  mustContain = must
  nextRequest, answered, failures, failure = 1, 0, 0, ""
  io.stdout:write("started\n")
  io.stdout:flush()
  if #requests == 0 then finish() end
end

function finish()
  io.stdout:write("finished\n")
  io.stdout:flush()
  wrk.thread:stop()
end

function delay()
  if requests[nextRequest] == nil then return 60000 end
  return 0
end

function request()
  -- wrk calls the first thread's request() once before sending anything (script_verify_request,
  -- counting the pipelined requests in one string): that call must not use up a body.
  if id == 0 and not verified then
    verified = true
    return requests[1] or filler
  end
  local r = requests[nextRequest]
  if r == nil then return filler end
  nextRequest = nextRequest + 1
  return r
end

function response(status, headers, body)
  if body == '{"status":"live"}' then return end
  answered = answered + 1
  if status ~= 200 or (mustContain ~= nil and not string.find(body, mustContain, 1, true)) then
    failures = failures + 1
    if failure == "" then failure = status .. ": " .. string.sub(body, 1, 300) end
  end
  if answered == #requests then finish() end
end

function done(summary, latency, reqs)
  local failed, first, answeredAll = 0, "", 0
  for _, t in ipairs(threads) do
    failed = failed + t:get("failures")
    answeredAll = answeredAll + t:get("answered")
    if first == "" then first = t:get("failure") end
  end
  first = string.gsub(first, "%s", " ")
  first = string.gsub(first, "[^%w%p ]", "?")
  first = string.gsub(first, '["\\]', "'")
  io.write(string.format('{"answered":%d,"failures":%d,"failure":"%s","socketErrors":%d}\n', answeredAll, failed, first,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
