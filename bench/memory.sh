#!/usr/bin/env bash
# Where a node's memory goes after a full replay and under reads:
#   bench/memory.sh JAR SCALE_DIR [JVM flags and node flags...]
# SCALE_DIR is one dataset of a `--stages scale` run (e.g. bench/results/X/scale-1500000: its
# broker/ holds the journal). Starts that broker, a fresh node that replays the whole journal into
# an empty folder (Native Memory Tracking on), then prints at ready and after 20 s of
# `wrk -c200` reads by uniformly drawn id: RSS, the node's memory gauges (RocksDB by kind, heap)
# and the JVM's own accounting. RSS minus the JVM's committed total minus the block cache is
# native memory nothing accounts for (RocksDB's work buffers, the C allocator's kept free memory).
# Arguments after SCALE_DIR starting with -X or -D go to the JVM, the others to `serve`.
set -uo pipefail
jar=$(readlink -f "$1"); w=$(readlink -f "$2"); shift 2
jvm=(); node=()
for a in "$@"; do case "$a" in -X*|-D*) jvm+=("$a") ;; *) node+=("$a") ;; esac; done
size=${w##*-}; [[ "$size" =~ ^[0-9]+$ ]] || size=1000000
work=$(mktemp -d /tmp/quire-memory.XXXX)
free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
java -Xmx1g -jar "$jar" broker --data-dir "$w/broker" --port 0 --advertised-port 0 > "$work/broker.log" 2>&1 &
b=$!
trap 'kill $b $n 2>/dev/null; wait 2>/dev/null; rm -rf "$work/node"' EXIT
for _ in $(seq 1 240); do grep -q "broker ready" "$work/broker.log" && break; sleep 0.5; done
port=$(grep -o "broker ready at 127.0.0.1:[0-9]*" "$work/broker.log" | cut -d: -f2)
http=$(free)
t0=$(date +%s)
java "${jvm[@]}" -XX:NativeMemoryTracking=summary -jar "$jar" serve --bootstrap-servers "127.0.0.1:$port" \
  --port "$http" --data-dir "$work/node" --node-id memory --journal-replication 1 --journal-min-isr 1 \
  "${node[@]}" > "$work/node.log" 2>&1 &
n=$!
for _ in $(seq 1 2400); do curl -sf "localhost:$http/health/ready" >/dev/null && break; sleep 0.5; done
echo "ready after $(( $(date +%s) - t0 )) s; $(grep -o 'caught up offsets.*' "$work/node.log" | head -1)"
report() {
  echo "== $1: RSS $(awk '/VmRSS/ {printf "%d MiB", $2 / 1024}' /proc/$n/status)"
  curl -s "localhost:$http/metrics" | grep -E '^quire_view_memory_bytes' | awk '{printf "   %s %.0f MiB\n", $1, $2/1048576}'
  jcmd $n VM.native_memory summary 2>/dev/null | grep -E "^Total|Java Heap|  GC \(|Metaspace \(|Code \(" \
    | sed -E 's/reserved=[0-9]+KB, //; s/^ *-? */   /'
}
report "at ready"
MAX_ID=$size wrk -t2 -c200 -d20s -s "$(dirname "$0")/wrk/read-ids.lua" "http://127.0.0.1:$http" | grep -E "Requests/sec|non-2xx"
report "after 20 s of reads"
