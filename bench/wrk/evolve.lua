-- wrk script: every request registers a new version of one of 20 subjects per wrk thread, so each
-- registration is checked against the subject's latest version (BACKWARD, the default level) and
-- subjects grow to thousands of versions. Each version is {id, f<n>} with f<n> optional: compatible
-- with any earlier one, so every answer should be 200.
-- The wrk threads each count from 1, so by default they register the same texts to different
-- subjects, and each registration finds its content stored under another subject. With
-- EVOLVE_DISTINCT=1 each thread names its fields after its own prefix (f<prefix>_<n>): no text is
-- registered twice, as in a stream of new versions from CI.
-- EVOLVE_SUBJECTS=N: N subjects per wrk thread instead of 20.
-- wrk -t2 -c200 -d30s -s bench/wrk/evolve.lua http://127.0.0.1:8081
local distinct = os.getenv("EVOLVE_DISTINCT") == "1"
local subjects = tonumber(os.getenv("EVOLVE_SUBJECTS") or "20")
local counter = 0
local run = tostring(os.time()) .. tostring(math.random(1000000))

function setup(thread)
  thread:set("prefix", run .. "-" .. tostring(math.random(1000000)))
end

request = function()
  counter = counter + 1
  local field = distinct and ("f" .. prefix:gsub("%-", "_") .. "_" .. counter) or ("f" .. counter)
  local schema = '{\\"type\\":\\"record\\",\\"name\\":\\"Evolving\\",\\"fields\\":[{\\"name\\":\\"id\\",\\"type\\":\\"long\\"},' ..
      '{\\"name\\":\\"' .. field .. '\\",\\"type\\":[\\"null\\",\\"string\\"],\\"default\\":null}]}'
  local body = '{"schema":"' .. schema .. '"}'
  return wrk.format("POST", "/subjects/evolve-" .. prefix .. "-" .. (counter % subjects) .. "/versions",
      {["Content-Type"] = "application/vnd.schemaregistry.v1+json"}, body)
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect +
      summary.errors.read + summary.errors.write + summary.errors.timeout))
end
