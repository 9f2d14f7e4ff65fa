-- wrk script: POST one error message to /v1/match and count answers that
-- are not a 200 naming at least one known error, so a load run also says
-- whether the server kept answering correctly.
-- KEDB_METHOD=GET and KEDB_EXPECT serve the baseline run, which fetches a
-- copy of the same answer from nginx.
wrk.method = os.getenv("KEDB_METHOD") or "POST"
wrk.headers["Content-Type"] = "application/json"
local expect = os.getenv("KEDB_EXPECT") or '"matches":[{'
wrk.body = os.getenv("KEDB_BODY") or
  '{"text":"RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0","top":3}'
if wrk.method == "GET" then wrk.body = nil end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  wrong = 0
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, expect, 1, true) then
    wrong = wrong + 1
  end
end

function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do bad = bad + t:get("wrong") end
  io.write(string.format("kedb-load: requests=%d wrong=%d errors=%d rps=%.0f p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, bad, summary.errors.status + summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
