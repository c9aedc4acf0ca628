-- wrk script: GET /schemas/ids/1 on every request (the id bench/cpu-compare.sh registers first).
-- wrk -t2 -c50 -d15s -s bench/wrk/read-one.lua http://127.0.0.1:8081
request = function()
  return wrk.format("GET", "/schemas/ids/1")
end
