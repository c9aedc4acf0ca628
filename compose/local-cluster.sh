#!/usr/bin/env bash
# A local Quire cluster as plain processes on loopback: 3 KRaft brokers (broker 1 is also the
# controller; journal replication 3, min.insync.replicas 2) and N query nodes.
#
#   compose/local-cluster.sh start [NODES]   # default 3 nodes; builds the jar if missing
#   compose/local-cluster.sh status
#   compose/local-cluster.sh stop
#
# Everything lives under $QUIRE_CLUSTER_DIR (default ./quire-cluster): logs, data, pids.
# Ports: controller $BASE, brokers $BASE+1..3, nodes $NODE_BASE, $NODE_BASE+1, ...
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${QUIRE_CLUSTER_DIR:-./quire-cluster}
BASE=${QUIRE_CLUSTER_BASE_PORT:-19090}
NODE_BASE=${QUIRE_CLUSTER_NODE_PORT:-18081}
JAR=${QUIRE_JAR:-query-node/target/quire.jar}
JAVA=${JAVA:-java}

brokers() { echo "127.0.0.1:$((BASE + 1)),127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 3))"; }

wait_for() { # file text seconds
  for _ in $(seq 1 $(($3 * 5))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done
  echo "timed out waiting for '$2' in $1" >&2; return 1
}

start() {
  local nodes=${1:-3}
  [ -f "$JAR" ] || mvn -B -q -DskipTests package
  mkdir -p "$DIR/logs" "$DIR/pids"
  local cluster_id
  if [ -f "$DIR/cluster-id" ]; then cluster_id=$(cat "$DIR/cluster-id"); else
    # A Kafka cluster id: 16 random bytes, URL-safe base64 without padding.
    cluster_id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)
    echo "$cluster_id" > "$DIR/cluster-id"
  fi
  for b in 1 2 3; do
    local controller=false; [ "$b" = 1 ] && controller=true
    nohup "$JAVA" -Xmx1g -jar "$JAR" broker --data-dir "$DIR/broker-$b" --node-id "$b" --controller "$controller" \
      --port $((BASE + b)) --controller-port "$BASE" --voters "1@127.0.0.1:$BASE" --cluster-id "$cluster_id" \
      --internal-replication 3 > "$DIR/logs/broker-$b.log" 2>&1 &
    echo $! > "$DIR/pids/broker-$b"
  done
  for b in 1 2 3; do wait_for "$DIR/logs/broker-$b.log" "broker ready" 120; done
  echo "brokers up: $(brokers)"
  for n in $(seq 1 "$nodes"); do
    nohup "$JAVA" -Xmx1g -jar "$JAR" serve --bootstrap-servers "$(brokers)" --node-id "node-$n" \
      --port $((NODE_BASE + n - 1)) --data-dir "$DIR/node-$n" --journal-replication 3 --journal-min-isr 2 \
      > "$DIR/logs/node-$n.log" 2>&1 &
    echo $! > "$DIR/pids/node-$n"
  done
  for n in $(seq 1 "$nodes"); do wait_for "$DIR/logs/node-$n.log" "Quire is ready" 180; done
  status
}

status() {
  for f in "$DIR"/pids/*; do
    [ -e "$f" ] || { echo "not running"; return 0; }
    local name; name=$(basename "$f")
    if kill -0 "$(cat "$f")" 2>/dev/null; then state=up; else state=down; fi
    case "$name" in
      node-*) port=$((NODE_BASE + ${name#node-} - 1))
              pos=$(curl -s "http://127.0.0.1:$port/admin/position" || true)
              echo "$name  $state  http://127.0.0.1:$port  $pos" ;;
      *)      echo "$name  $state" ;;
    esac
  done
}

stop() {
  for f in "$DIR"/pids/node-* "$DIR"/pids/broker-*; do
    [ -e "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
  done
  for f in "$DIR"/pids/*; do
    [ -e "$f" ] || continue
    for _ in $(seq 1 150); do kill -0 "$(cat "$f")" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
  echo "stopped"
}

case "${1:-}" in
  start) start "${2:-3}" ;;
  status) status ;;
  stop) stop ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac
