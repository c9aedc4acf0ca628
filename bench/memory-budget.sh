#!/usr/bin/env bash
# RSS of a node started as the README starts it (`java -jar quire.jar dev`, no JVM flags), stage by stage:
#   bench/memory-budget.sh JAR [SECONDS=60]
# Stages, each SECONDS long with wrk -t2 -c200: evolving subjects (bench/wrk/evolve.lua), new subjects
# (bench/wrk/register.lua), then reads by id right after (bench/wrk/read-one.lua). RSS is the sum over the
# process and its children (a node relaunched with its budget's heap runs in a child JVM), sampled each
# second; each stage prints its peak and the requests/s wrk saw.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$(readlink -f "$1"); secs=${2:-60}
work=$(mktemp -d /tmp/quire-memory.XXXX)
# shellcheck source=bench/dev-node.sh
source bench/dev-node.sh
stop() { dev_node_stop; rm -rf "$work"; } # both gone before the data is removed
trap stop EXIT
dev_node_start "$jar" "$work/data" "$work/node.log"
curl -sf -X POST -H 'Content-Type: application/vnd.schemaregistry.v1+json' -d '{"schema":"{\"type\":\"string\"}"}' \
  "localhost:$port/subjects/memory-seed/versions" >/dev/null
stage() { # name script
  local name=$1 script=$2 peak=0 r out
  wrk -t2 -c200 -d"${secs}s" -s "$script" "http://127.0.0.1:$port" > "$work/$name.out" 2>&1 &
  local w=$!
  while kill -0 $w 2>/dev/null; do r=$(tree_rss); [ "$r" -gt "$peak" ] && peak=$r; sleep 1; done
  out=$(awk '/Requests\/sec/ {print $2}' "$work/$name.out")
  printf '%-26s peak RSS %5d MiB   %s req/s\n' "$name" $((peak / 1024)) "$out"
}
echo "$(basename "$jar"): $(grep -o 'memory budget[^;]*' "$work/node.log" | head -1)"
printf '%-26s RSS %5d MiB\n' "started" $(( $(tree_rss) / 1024 ))
stage "evolving subjects" bench/wrk/evolve.lua
stage "new subjects" bench/wrk/register.lua
stage "reads right after" bench/wrk/read-one.lua
printf '%-26s RSS %5d MiB (the process started; the rest is its child, the node, when relaunched)\n' "launcher alone" \
  $(( $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") / 1024 ))
