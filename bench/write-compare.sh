#!/usr/bin/env bash
# Registrations of new subjects by two builds, alternated, on this machine:
#   bench/write-compare.sh OLD.jar NEW.jar [ROUNDS=2] [CONNECTIONS=200] [SECONDS=30]
# Each round starts a fresh `dev` node of each build in turn (embedded broker, heap 1 GiB), warms it
# up with WARMUP (30) s of wrk, then measures SECONDS of `wrk -t2 -cCONNECTIONS` with bench/wrk/register.lua
# (every request a new subject; SCRIPT=bench/wrk/evolve.lua evolves 20 subjects per wrk thread
# instead) and prints requests/s, p50 and p99, and non-2xx answers.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(readlink -f "$1"); new=$(readlink -f "$2"); rounds=${3:-2}; conns=${4:-200}; secs=${5:-30}
script=${SCRIPT:-bench/wrk/register.lua}; warmup=${WARMUP:-30}
if ! command -v wrk >/dev/null && command -v apt-get >/dev/null; then
  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk) >/dev/null 2>&1 || true
fi
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d /tmp/quire-write-compare.XXXX)
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    jar=$old; [ "$build" = new ] && jar=$new
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    java -Xmx1g -jar "$jar" dev --data-dir "$work/$build-$round" --port "$port" > "$work/$build-$round.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 240); do curl -sf "localhost:$port/health/ready" >/dev/null && break; sleep 0.5; done
    wrk -t2 -c"$conns" -d"${warmup}s" -s "$script" "http://127.0.0.1:$port" >/dev/null
    out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$script" "http://127.0.0.1:$port")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1=="50%" {print $2}')
    p99=$(echo "$out" | awk '$1=="99%" {print $2}')
    bad=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    echo "round $round $build: $rps registrations/s, p50 $p50, p99 $p99, non-2xx ${bad:-0}"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
rm -rf "$work"
