#!/usr/bin/env bash
# Requests per second, p99 and the node's CPU per request for two builds, alternated:
#   bench/cpu-compare.sh OLD.jar NEW.jar [ROUNDS=2] [SCRIPT=bench/wrk/register.lua] [WARMUP=40] [SECONDS=30] [CONNECTIONS=200]
# Each round starts a fresh `dev` node of each build in turn (embedded broker, heap 1 GiB),
# registers one schema (so that bench/wrk/read-one.lua finds id 1), runs WARMUP s of
# `wrk -t2 -cCONNECTIONS` with SCRIPT, then measures SECONDS more and prints requests/s, p99,
# non-2xx answers and the node process's CPU time (user + system, /proc) per request. The CPU per
# request drifts less with the machine than requests/s do, but both drift: compare rounds, not runs.
# The warm-up goes on past WARMUP s, 10 s at a time, until the JVM's JIT compiler threads used
# under a tenth of a core over the last 10 s (at most JIT_WAIT=300 s more): a node under this load
# keeps C2 busy for two to three minutes, and a measurement taken meanwhile counts the JIT's work
# (half a core) against the requests. JIT_WAIT=0 measures after WARMUP s whatever the JIT does.
# OLD_FLAGS / NEW_FLAGS: extra `dev` flags for each build (for one jar with two settings).
# OLD_JVM / NEW_JVM: JVM options for each build's node, after -Xmx1g (for example -Xms1g -XX:+AlwaysPreTouch).
# RESTART=1: each node is stopped once it has the seed schema and started again on the same data
# folder before the load, so it serves from a view it opened with data (as after any restart).
# THREADS=1: also prints the CPU per request of the node's busiest thread groups over the
# measured window (bench/jit-ticks.sh's thread_cpu).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(readlink -f "$1"); new=$(readlink -f "$2"); rounds=${3:-2}; script=${4:-bench/wrk/register.lua}
warmup=${5:-40}; secs=${6:-30}; conns=${7:-200}
if ! command -v wrk >/dev/null && command -v apt-get >/dev/null; then
  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk) >/dev/null 2>&1 || true
fi
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d /tmp/quire-cpu-compare.XXXX)
hz=$(getconf CLK_TCK)
# shellcheck source=bench/jit-ticks.sh
source bench/jit-ticks.sh
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    jar=$old; [ "$build" = new ] && jar=$new
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    flags=${OLD_FLAGS:-}; [ "$build" = new ] && flags=${NEW_FLAGS:-}
    jvm=${OLD_JVM:-}; [ "$build" = new ] && jvm=${NEW_JVM:-}
    # shellcheck disable=SC2086
    java -Xmx1g $jvm -jar "$jar" dev --data-dir "$work/$build-$round" --port "$port" $flags > "$work/$build-$round.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 240); do curl -sf "localhost:$port/health/ready" >/dev/null && break; sleep 0.5; done
    curl -sf -X POST -H 'Content-Type: application/vnd.schemaregistry.v1+json' \
      -d '{"schema":"{\"type\":\"string\"}"}' "localhost:$port/subjects/cpu-compare-seed/versions" >/dev/null
    if [ "${RESTART:-0}" = 1 ]; then
      kill "$pid"; wait "$pid" 2>/dev/null || true
      # shellcheck disable=SC2086
      java -Xmx1g $jvm -jar "$jar" dev --data-dir "$work/$build-$round" --port "$port" $flags >> "$work/$build-$round.log" 2>&1 &
      pid=$!
      for _ in $(seq 1 240); do curl -sf "localhost:$port/health/ready" >/dev/null && break; sleep 0.5; done
    fi
    wrk -t2 -c"$conns" -d"${warmup}s" -s "$script" "http://127.0.0.1:$port" >/dev/null
    warmed=$warmup; jit=$(jit_ticks "$pid")
    while [ "$warmed" -lt $((warmup + ${JIT_WAIT:-300})) ]; do
      wrk -t2 -c"$conns" -d10s -s "$script" "http://127.0.0.1:$port" >/dev/null
      warmed=$((warmed + 10)); now=$(jit_ticks "$pid")
      [ $((now - jit)) -lt "$hz" ] && break # under a tenth of a core over those 10 s
      jit=$now
    done
    j0=$(jit_ticks "$pid"); c0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    [ "${THREADS:-0}" = 1 ] && thread_cpu "$pid" > "$work/threads0.json"
    out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$script" "http://127.0.0.1:$port")
    c1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    [ "${THREADS:-0}" = 1 ] && thread_cpu "$pid" > "$work/threads1.json"
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1=="99%" {print $2}')
    bad=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    us=$(python3 -c "print(round(($c1 - $c0) / $hz * 1e6 / ($rps * $secs), 1))")
    jit_s=$(python3 -c "print(round(($(jit_ticks "$pid") - $j0) / $hz, 1))")
    echo "round $round $build: $rps req/s, p99 $p99, non-2xx ${bad:-0}, node CPU $us us/req (warm-up ${warmed} s; JIT ${jit_s} s of CPU while measured)"
    if [ "${THREADS:-0}" = 1 ]; then
      python3 - "$work/threads0.json" "$work/threads1.json" "$rps" "$secs" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
n = float(sys.argv[3]) * float(sys.argv[4])
top = sorted(((b[k] - a.get(k, 0), k) for k in b), reverse=True)[:10]
print('  threads, us/req: ' + ', '.join(f'{k} {v * 1e6 / n:.1f}' for v, k in top if v > 0))
PY
    fi
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "${work:?}/$build-$round"
  done
done
rm -rf "$work"
