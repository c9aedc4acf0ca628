-- wrk script: every request registers a new Avro record under a new subject, shaped for search:
-- a namespace of one of 50 teams, a doc, five fields (two with docs), every tenth customer_id
-- tagged PII. Record and subject names are predictable: Order<RUN><thread>x<n> in search-<RUN><thread>x<n>-value
-- (RUN: an environment variable, empty by default, so that a second run registers new names).
-- wrk -t2 -c200 -d60s -s bench/wrk/register-search.lua http://127.0.0.1:8081
local counter = 0
local threads = 0
local run = os.getenv("RUN") or ""

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

request = function()
  counter = counter + 1
  local name = "Order" .. run .. tid .. "x" .. counter
  local team = "team" .. (counter % 50)
  local tags = ""
  if counter % 10 == 0 then tags = ',\\"confluent:tags\\":[\\"PII\\"]' end
  local schema = '{\\"type\\":\\"record\\",\\"name\\":\\"' .. name .. '\\",\\"namespace\\":\\"com.bench.' .. team ..
      '\\",\\"doc\\":\\"An order placed by a customer of ' .. team .. '\\",\\"fields\\":[' ..
      '{\\"name\\":\\"id\\",\\"type\\":\\"long\\"},' ..
      '{\\"name\\":\\"customer_id\\",\\"type\\":\\"string\\"' .. tags .. '},' ..
      '{\\"name\\":\\"amount_cents\\",\\"type\\":\\"long\\",\\"doc\\":\\"Amount in cents\\"},' ..
      '{\\"name\\":\\"status\\",\\"type\\":\\"string\\"},' ..
      '{\\"name\\":\\"note\\",\\"type\\":\\"string\\",\\"doc\\":\\"Free text from the shop\\"}]}'
  local body = '{"schema":"' .. schema .. '"}'
  return wrk.format("POST", "/subjects/search-" .. run .. tid .. "x" .. counter .. "-value/versions",
      {["Content-Type"] = "application/vnd.schemaregistry.v1+json"}, body)
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect +
      summary.errors.read + summary.errors.write + summary.errors.timeout))
end
