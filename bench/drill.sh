#!/usr/bin/env bash
# The long failure drill: bench/drill.sh [REGISTRATIONS] [NODE_KILLS] [HEAP]
# Runs the same drill as the CI test (query-node ClusterDrillIT: 3 broker processes, 3 nodes,
# 16 writers over every node, node kill -9s, a broker kill, every broker down) with bigger sizes,
# by default 200,000 registrations and 3 node kills, and keeps the drill's own report lines in
# bench/results/drill-<time>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
registrations=${1:-200000}
kills=${2:-3}
heap=${3:-4g}
out=bench/results/drill-$(date -u +%Y%m%dT%H%M%SZ).txt
mkdir -p bench/results
mvn -B -q -DskipTests install
start=$(date +%s)
mvn -B verify -pl query-node -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ClusterDrillIT \
    -Dquire.drill.registrations="$registrations" -Dquire.drill.node-kills="$kills" -Dquire.it.argLine="-Xmx$heap" \
    | tee "$out.log" | grep --line-buffered -E '^drill:|Tests run:|FAIL|BUILD' | tee "$out"
status=${PIPESTATUS[0]}
{
  echo "command: bench/drill.sh $registrations $kills $heap"
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(java -version 2>&1 | head -1)"
  echo "wall time: $(( $(date +%s) - start )) s, exit $status"
} | tee -a "$out"
exit "$status"
