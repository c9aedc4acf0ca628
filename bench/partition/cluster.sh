#!/usr/bin/env bash
# A Quire cluster across network namespaces, for the partition drill (docs/reliability.md): three
# KRaft brokers (each also a controller; the journal replicated 3 times, min.insync.replicas 2) and
# three query nodes, each in a namespace of its own, joined by a bridge whose address in the root
# namespace is where the drill's clients run. Only the 10.77.0.0/24 addresses of these namespaces
# and loopback are used.
#
#   bench/partition/cluster.sh up [JAR]    # a fresh cluster (namespaces, brokers, nodes); waits until every node is ready
#   bench/partition/cluster.sh down        # stops every process, removes the namespaces and the bridge
#   bench/partition/cluster.sh start NAME / stop NAME / kill NAME   # one process (b1..b3, n1..n3)
#
# Needs root, iproute2 and nftables (installed by .ci/run). State under $DRILL_DIR (default
# /tmp/quire-drill): logs, data, pids.
set -euo pipefail
DIR=${DRILL_DIR:-/tmp/quire-drill}
JAR=${QUIRE_JAR:-$(cd "$(dirname "$0")/../.." && pwd)/query-node/target/quire.jar}
if [ "${1:-}" = up ] && [ -n "${2:-}" ]; then JAR=$(readlink -f "$2"); fi
NET=10.77.0
BRIDGE=qdrill0
CLUSTER_ID=quireDrillCluster0001A
VOTERS="1@$NET.11:9093,2@$NET.12:9093,3@$NET.13:9093"
BROKERS="$NET.11:9092,$NET.12:9092,$NET.13:9092"

addr() { case "$1" in b*) echo "$NET.1${1#b}" ;; n*) echo "$NET.2${1#n}" ;; esac; }

wait_for() { # file text seconds
  for _ in $(seq 1 $(($3 * 5))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done
  echo "timed out waiting for '$2' in $1" >&2; return 1
}

netns_up() {
  ip link add "$BRIDGE" type bridge
  ip addr add "$NET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for name in b1 b2 b3 n1 n2 n3; do
    ip netns add "qd-$name"
    ip link add "qd-$name-h" type veth peer name eth0 netns "qd-$name"
    ip link set "qd-$name-h" master "$BRIDGE" up
    ip netns exec "qd-$name" ip addr add "$(addr "$name")/24" dev eth0
    ip netns exec "qd-$name" ip link set eth0 up
    ip netns exec "qd-$name" ip link set lo up
    # the drill's faults go into this table's chains (bench/partition: Faults)
    ip netns exec "qd-$name" nft add table inet drill
    ip netns exec "qd-$name" nft add chain inet drill input '{ type filter hook input priority 0; }'
    ip netns exec "qd-$name" nft add chain inet drill output '{ type filter hook output priority 0; }'
  done
}

start_one() {
  local name=$1 log="$DIR/logs/$1.log"
  mkdir -p "$DIR/logs" "$DIR/pids"
  case "$name" in
    b*)
      ip netns exec "qd-$name" nohup java -Xmx512m -jar "$JAR" broker --data-dir "$DIR/$name" --node-id "${name#b}" \
        --controller true --host "$(addr "$name")" --port 9092 --controller-port 9093 --voters "$VOTERS" \
        --cluster-id "$CLUSTER_ID" --internal-replication 3 >> "$log" 2>&1 &
      ;;
    n*)
      ip netns exec "qd-$name" nohup java -Xmx512m -jar "$JAR" serve --bootstrap-servers "$BROKERS" --node-id "$name" \
        --host "$(addr "$name")" --port 8081 --data-dir "$DIR/$name" --journal-replication 3 --journal-min-isr 2 \
        --id-block-size 100 --shutdown-delay-ms 0 --memory-mib 768 >> "$log" 2>&1 &
      ;;
  esac
  echo $! > "$DIR/pids/$name"
}

up() {
  [ -f "$JAR" ] || { echo "no $JAR: build it with mvn -B -DskipTests package" >&2; exit 1; }
  down # whatever a previous run left
  rm -rf "$DIR" # a fresh cluster: its data and logs start empty
  netns_up
  for b in b1 b2 b3; do start_one "$b"; done
  for b in b1 b2 b3; do wait_for "$DIR/logs/$b.log" "broker ready" 120; done
  for n in n1 n2 n3; do start_one "$n"; done
  for n in n1 n2 n3; do wait_for "$DIR/logs/$n.log" "Quire is ready" 180; done
  echo "brokers $BROKERS; nodes http://$NET.21:8081 http://$NET.22:8081 http://$NET.23:8081"
}

signal() { # name signal
  local f="$DIR/pids/$1"
  [ -f "$f" ] && kill "-$2" "$(cat "$f")" 2>/dev/null || true
}

down() {
  for f in "$DIR"/pids/*; do [ -e "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true; done
  pkill -9 -f -- "--data-dir $DIR/" 2>/dev/null || true # a process started outside this script's pids
  rm -rf "$DIR/pids"
  sleep 1 # the killed processes leave their namespaces
  for name in b1 b2 b3 n1 n2 n3; do
    ip netns del "qd-$name" 2>/dev/null || true
    ip link del "qd-$name-h" 2>/dev/null || true
  done
  ip link del "$BRIDGE" 2>/dev/null || true
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  start) start_one "$2" ;;
  stop) signal "$2" TERM ;;
  kill) signal "$2" KILL ;;
  pause) signal "$2" STOP ;;
  resume) signal "$2" CONT ;;
  *) sed -n 2,14p "$0"; exit 2 ;;
esac
