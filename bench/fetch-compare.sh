#!/usr/bin/env bash
# How long a node on an empty disk takes to be ready from a snapshot fetched over HTTP, for two
# builds, alternated:
#   bench/fetch-compare.sh OLD.jar NEW.jar BENCH_OUT [ROUNDS=2]
# BENCH_OUT is the output folder of a `bench/run.sh --stages replay` run (its replay/ holds the
# broker and node A's view). For each round and build: the broker and node A (the source, built
# with that build) start on that data, then a fresh node with the same build starts with
# --bootstrap-snapshot http://A and is timed from its JVM start to /health/ready, twice.
set -euo pipefail
old=$(readlink -f "$1"); new=$(readlink -f "$2"); w=$(readlink -f "$3")/replay; rounds=${4:-2}
[ -d "$w/node-a" ] || { echo "no $w/node-a: run bench/run.sh --stages replay first" >&2; exit 2; }
logs=$(mktemp -d /tmp/quire-fetch-compare.XXXX)
free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$logs/c"' EXIT
ready() { for _ in $(seq 1 1200); do curl -sf "localhost:$1/health/ready" >/dev/null && return 0; sleep 0.2; done; return 1; }
for round in $(seq 1 "$rounds"); do
  for jar in "$old" "$new"; do
    name=$(basename "$jar")
    java -Xmx1g -jar "$jar" broker --data-dir "$w/broker" --port 0 --advertised-port 0 > "$logs/broker.log" 2>&1 &
    pids=($!)
    for _ in $(seq 1 240); do grep -q "broker ready" "$logs/broker.log" && break; sleep 0.5; done
    # a broker restarted on its data comes up on the port it was first given
    port=$(grep -o "broker ready at 127.0.0.1:[0-9]*" "$logs/broker.log" | cut -d: -f2)
    a=$(free); c=$(free)
    java -Xmx2g -jar "$jar" serve --bootstrap-servers "127.0.0.1:$port" --port "$a" --data-dir "$w/node-a" \
      --node-id replay-a --journal-replication 1 --journal-min-isr 1 > "$logs/a.log" 2>&1 &
    pids+=($!)
    ready "$a"
    for run in 1 2; do
      rm -rf "$logs/c"
      t0=$(date +%s%N)
      java -Xmx2g -jar "$jar" serve --bootstrap-servers "127.0.0.1:$port" --port "$c" --data-dir "$logs/c" \
        --node-id "fetch-$round-$run" --journal-replication 1 --journal-min-isr 1 \
        --bootstrap-snapshot "http://127.0.0.1:$a" > "$logs/c.log" 2>&1 &
      cpid=$!
      ready "$c"
      t1=$(date +%s%N)
      kill $cpid; wait $cpid 2>/dev/null || true
      echo "round $round $name run $run: ready $(( (t1 - t0) / 1000000 )) ms after JVM start;" \
        "$(grep -o 'snapshot fetched from [^ ]* .* in [0-9]* ms' "$logs/c.log" | sed 's/from [^ ]* //')"
    done
    kill "${pids[@]}"; wait 2>/dev/null || true
  done
done
