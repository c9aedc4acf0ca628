-- wrk script: GET /schemas/ids/{id} with ids drawn uniformly from [1, MAX_ID].
-- MAX_ID=1000 wrk -t2 -c50 -d30s -s bench/wrk/read-ids.lua http://127.0.0.1:8081
local max_id = tonumber(os.getenv("MAX_ID") or "1000")

request = function()
  return wrk.format("GET", "/schemas/ids/" .. math.random(1, max_id))
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect +
      summary.errors.read + summary.errors.write + summary.errors.timeout))
end
