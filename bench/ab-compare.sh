#!/usr/bin/env bash
# Two nodes up at once, loaded in turn in short windows, for changes smaller than the machine's drift:
#   bench/ab-compare.sh A.jar B.jar [PAIRS=8] [SCRIPT=bench/wrk/register.lua] [SECONDS=10] [CONNECTIONS=200]
# Starts a `dev` node of each build (embedded broker, heap 1 GiB touched at start), warms both with
# SCRIPT until their JIT compilers are quiet (as bench/cpu-compare.sh does), then runs PAIRS pairs
# of SECONDS-long `wrk -t2` windows, A then B, then B then A, and so on, so that each pair
# is measured within half a minute and a drift of the machine falls on both. Prints each window
# (requests/s, p99, non-2xx, the loaded node's CPU per request from /proc) and, at the end, the
# median of B/A over the pairs for requests/s and for CPU per request, with the smallest and
# largest ratio. The idle node's own CPU during a window is printed too: it should be near zero.
# After each window the script waits SETTLE=5 s, so that the flushes and compactions a window
# leaves behind run before the other node's window starts (the idle node's CPU shows what is left).
# A_JVM / B_JVM: extra JVM options for each node (for one jar with two settings).
# A_FLAGS / B_FLAGS: extra `dev` flags for each node.
# A_CONFIG / B_CONFIG: a body PUT to /config of each node once it is up (for one jar with two
# registry settings, e.g. B_CONFIG='{"lint":{"profile":"STANDARD","action":"WARN"}}').
set -euo pipefail
cd "$(dirname "$0")/.."
a_jar=$(readlink -f "$1"); b_jar=$(readlink -f "$2"); pairs=${3:-8}; script=${4:-bench/wrk/register.lua}
secs=${5:-10}; conns=${6:-200}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d /tmp/quire-ab-compare.XXXX)
hz=$(getconf CLK_TCK)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# shellcheck source=bench/jit-ticks.sh
source bench/jit-ticks.sh
declare -A port pid
for n in A B; do
  jar=$a_jar; jvm=${A_JVM:-}; flags=${A_FLAGS:-}
  if [ "$n" = B ]; then jar=$b_jar; jvm=${B_JVM:-}; flags=${B_FLAGS:-}; fi
  port[$n]=$(free_port)
  # shellcheck disable=SC2086
  java -Xmx1g -Xms1g -XX:+AlwaysPreTouch $jvm -jar "$jar" dev --data-dir "$work/$n" --port "${port[$n]}" $flags \
    > "$work/$n.log" 2>&1 &
  pid[$n]=$!; pids+=("${pid[$n]}")
  for _ in $(seq 1 240); do curl -sf "localhost:${port[$n]}/health/ready" >/dev/null && break; sleep 0.5; done
  curl -sf -X POST -H 'Content-Type: application/vnd.schemaregistry.v1+json' \
    -d '{"schema":"{\"type\":\"string\"}"}' "localhost:${port[$n]}/subjects/ab-compare-seed/versions" >/dev/null
  config=A_CONFIG; [ "$n" = B ] && config=B_CONFIG
  if [ -n "${!config:-}" ]; then
    curl -sf -X PUT -H 'Content-Type: application/vnd.schemaregistry.v1+json' -d "${!config}" \
      "localhost:${port[$n]}/config" >/dev/null
    echo "$n config: ${!config}"
  fi
done
for n in A B; do
  warmed=0; jit=$(jit_ticks "${pid[$n]}")
  while [ "$warmed" -lt 300 ]; do
    wrk -t2 -c"$conns" -d10s -s "$script" "http://127.0.0.1:${port[$n]}" >/dev/null
    warmed=$((warmed + 10)); now=$(jit_ticks "${pid[$n]}")
    [ "$warmed" -ge 40 ] && [ $((now - jit)) -lt "$hz" ] && break
    jit=$now
  done
  echo "$n warmed for $warmed s"
done
window() { # node other -> "rps cpu_us_per_req"
  local n=$1 o=$2 c0 c1 o0 o1 out rps p99 bad us
  c0=$(ticks "${pid[$n]}"); o0=$(ticks "${pid[$o]}")
  out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$script" "http://127.0.0.1:${port[$n]}")
  c1=$(ticks "${pid[$n]}"); o1=$(ticks "${pid[$o]}")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  bad=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  us=$(python3 -c "print(round(($c1 - $c0) / $hz * 1e6 / ($rps * $secs), 1))")
  echo "  $n: $rps req/s, p99 $p99, non-2xx ${bad:-0}, node CPU $us us/req (idle node $(( (o1 - o0) * 1000 / hz )) ms of CPU)" >&2
  echo "$rps $us"
  sleep "${SETTLE:-5}"
}
ratios=()
for i in $(seq 1 "$pairs"); do
  echo "pair $i"
  if [ $((i % 2)) = 1 ]; then ra=$(window A B); rb=$(window B A); else rb=$(window B A); ra=$(window A B); fi
  ratios+=("$(python3 -c "a='$ra'.split(); b='$rb'.split(); print(float(b[0])/float(a[0]), float(b[1])/float(a[1]))")")
done
printf '%s\n' "${ratios[@]}" | python3 -c '
import sys, statistics
r = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
t = sorted(x[0] for x in r); c = sorted(x[1] for x in r)
print(f"B/A over {len(r)} pairs: requests/s median {statistics.median(t):.3f} (from {t[0]:.3f} to {t[-1]:.3f}); "
      f"CPU per request median {statistics.median(c):.3f} (from {c[0]:.3f} to {c[-1]:.3f})")'
