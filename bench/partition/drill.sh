#!/usr/bin/env bash
# The full partition drill (docs/reliability.md): a fresh cluster in network namespaces
# (bench/partition/cluster.sh), SECONDS of nine clients writing and reading while a seeded
# schedule of faults runs (links cut, a broker or the journal partition's leader isolated, a
# minority split off, a node paused for PAUSE_MS, killed and started again, a third of a node's
# packets lost, the journal's leader isolated while a node is paused), then every link healed and
# the history checked. Writes report.md, history.tsv and timeline.png into OUT; exits 1 on an
# anomaly. Needs root, iproute2 and nftables; builds quire.jar and the bench jar when missing.
#
#   bench/partition/drill.sh [SECONDS=300] [SEED=1] [OUT=target/drill-full] [PAUSE_MS=50000]
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_=${1:-300}; SEED=${2:-1}; OUT=${3:-target/drill-full}; PAUSE_MS=${4:-50000}
[ -f query-node/target/quire.jar ] && [ -f bench/target/quire-bench.jar ] || mvn -B -q -DskipTests package
export DRILL_DIR=${DRILL_DIR:-/tmp/quire-drill}
bench/partition/cluster.sh up
trap 'bench/partition/cluster.sh down' EXIT
java -Dquire.drill.dir="$DRILL_DIR" -cp bench/target/quire-bench.jar io.quire.bench.drill.PartitionDrill \
  --seconds "$SECONDS_" --seed "$SEED" --out "$OUT" --hold-ms 10000 --gap-ms 5000 --pause-ms "$PAUSE_MS" \
  --cluster bench/partition/cluster.sh
