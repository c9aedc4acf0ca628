-- wrk script: as register.lua, with schemas that pass the STANDARD lint profile (a namespace, a
-- PascalCase record name, lowerCamelCase fields): what lint costs a registration that it accepts.
-- wrk -t2 -c20 -d30s -s bench/wrk/register-linted.lua http://127.0.0.1:8081
local counter = 0
local run = tostring(os.time()) .. tostring(math.random(1000000))

function setup(thread)
  thread:set("prefix", run .. tostring(math.random(1000000)))
end

request = function()
  counter = counter + 1
  local name = "Event" .. prefix .. "N" .. counter
  local schema = '{\\"type\\":\\"record\\",\\"name\\":\\"' .. name ..
      '\\",\\"namespace\\":\\"bench.lint\\",\\"fields\\":[{\\"name\\":\\"id\\",\\"type\\":\\"long\\"},' ..
      '{\\"name\\":\\"createdAt\\",\\"type\\":\\"long\\"}]}'
  local body = '{"schema":"' .. schema .. '"}'
  return wrk.format("POST", "/subjects/lint-" .. prefix .. "-" .. counter .. "/versions",
      {["Content-Type"] = "application/vnd.schemaregistry.v1+json"}, body)
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect +
      summary.errors.read + summary.errors.write + summary.errors.timeout))
end
