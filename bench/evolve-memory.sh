#!/usr/bin/env bash
# Subjects that grow to thousands of versions: a `dev` node (heap 1 GiB, broker in the same JVM)
# under SECONDS of `wrk -t2 -c200` with bench/wrk/evolve.lua (40 subjects, each registration
# checked against its subject's latest version), printing every 15 s the node's RSS, the G1 heap
# in use (garbage included) and the first subject's latest version; then wrk's totals.
#   bench/evolve-memory.sh JAR [SECONDS=180] [OUT=/tmp/quire-evolve-memory]
# For the live heap, `jcmd PID GC.class_histogram` during the run (it collects first).
set -uo pipefail
cd "$(dirname "$0")/.."
jar=$(readlink -f "$1"); secs=${2:-180}; out=${3:-/tmp/quire-evolve-memory}
rm -rf "$out"; mkdir -p "$out"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
java -Xmx1g -jar "$jar" dev --data-dir "$out/data" --port "$port" > "$out/node.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do curl -sf "localhost:$port/health/ready" >/dev/null && break; sleep 0.5; done
(wrk -t2 -c200 -d"${secs}s" --latency -s bench/wrk/evolve.lua "http://127.0.0.1:$port" > "$out/wrk.txt") &
w=$!
first=""
for i in $(seq 15 15 "$secs"); do
  sleep 15
  [ -n "$first" ] || first=$(curl -s "localhost:$port/subjects" | python3 -c 'import sys,json; print(json.load(sys.stdin)[0])')
  heap=$(jcmd "$pid" GC.heap_info 2>/dev/null | awk '/garbage-first heap/ {print $4, $6}')
  latest=$(curl -s "localhost:$port/subjects/$first/versions/latest" | python3 -c 'import sys,json; print(json.load(sys.stdin)["version"])')
  echo "t=${i}s rss_mib=$(( $(ps -o rss= -p "$pid") / 1024 )) heap_total,used=$heap latest_version_of_first=$latest"
done
wait "$w"
grep -E 'Requests/sec|  50%|  99%|non-2xx|Non-2xx|requests in' "$out/wrk.txt"
kill "$pid"; wait "$pid" 2>/dev/null
