-- wrk script: every request registers a new, distinct Avro schema under a new subject.
-- wrk -t2 -c20 -d30s -s bench/wrk/register.lua http://127.0.0.1:8081
local counter = 0
local run = tostring(os.time()) .. tostring(math.random(1000000))

function setup(thread)
  thread:set("prefix", run .. "-" .. tostring(math.random(1000000)))
end

request = function()
  counter = counter + 1
  local name = "W" .. prefix:gsub("%-", "_") .. "_" .. counter
  local schema = '{\\"type\\":\\"record\\",\\"name\\":\\"' .. name ..
      '\\",\\"fields\\":[{\\"name\\":\\"id\\",\\"type\\":\\"long\\"}]}'
  local body = '{"schema":"' .. schema .. '"}'
  return wrk.format("POST", "/subjects/wrk-" .. prefix .. "-" .. counter .. "/versions",
      {["Content-Type"] = "application/vnd.schemaregistry.v1+json"}, body)
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect +
      summary.errors.read + summary.errors.write + summary.errors.timeout))
end
