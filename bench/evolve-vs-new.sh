#!/usr/bin/env bash
# Evolving subjects against new ones on one node, with the collector's share:
#   bench/evolve-vs-new.sh JAR [SECONDS=30] [OUT=/tmp/quire-evolve-vs-new]
# A node started as the README starts it (`java -jar JAR dev`, no JVM flags), 60 s of new subjects
# to warm up (bench/wrk/register.lua), then SECONDS each of: evolving (bench/wrk/evolve.lua,
# EVOLVE_SUBJECTS=10 per wrk thread, each text once: 20 subjects, every registration a new version
# checked BACKWARD against the latest), new subjects, evolving, new subjects; wrk -t2 -c200.
# The first evolving stage is also the first time the JVM runs that path (the JIT compiles it);
# compare the later two. Per stage: requests/s, the node's CPU per request (process tree, /proc)
# and its collector's pause time per request (jstat's GCT).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$(readlink -f "$1"); secs=${2:-30}; out=${3:-/tmp/quire-evolve-vs-new}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
rm -rf "$out"; mkdir -p "$out"
# shellcheck source=bench/dev-node.sh
source bench/dev-node.sh
trap dev_node_stop EXIT
dev_node_start "$jar" "$out/data" "$out/node.log"
jvm=$(dev_node_jvm)
gc_seconds() { jstat -gc "$jvm" | awk 'NR == 2 {print $NF}'; }
hz=$(getconf CLK_TCK)
wrk -t2 -c200 -d60s -s bench/wrk/register.lua "http://127.0.0.1:$port" > /dev/null
printf '%-8s %10s %8s %14s %14s\n' stage 'req/s' non-2xx 'CPU us/req' 'GC us/req'
for stage in evolve new evolve new; do
  t0=$(tree_ticks); g0=$(gc_seconds)
  if [ "$stage" = new ]; then
    wrk -t2 -c200 -d"${secs}s" -s bench/wrk/register.lua "http://127.0.0.1:$port" > "$out/$stage.out" 2>&1
  else
    EVOLVE_SUBJECTS=10 EVOLVE_DISTINCT=1 wrk -t2 -c200 -d"${secs}s" -s bench/wrk/evolve.lua \
      "http://127.0.0.1:$port" > "$out/$stage.out" 2>&1
  fi
  t1=$(tree_ticks); g1=$(gc_seconds)
  rps=$(awk '/Requests\/sec/ {print $2}' "$out/$stage.out"); bad=$(awk '/non-2xx/ {print $NF}' "$out/$stage.out")
  python3 -c "r = $rps * $secs; print(f'%-8s %10s %8s %14.1f %14.1f' % ('$stage', '$rps', '${bad:-0}', ($t1 - $t0) / $hz * 1e6 / r, ($g1 - $g0) * 1e6 / r))"
done
