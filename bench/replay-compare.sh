#!/usr/bin/env bash
# Full replays of one journal by two builds, alternated, on this machine:
#   bench/replay-compare.sh OLD.jar NEW.jar [ROUNDS=2] [REGISTRATIONS=1000000]
# Writes the bench's synthetic journal (registrations, four versions per subject, a lease per
# 1,000), loads it into a broker of its own with `journal import`, then starts a fresh node of each
# build in turn (same flags, `serve`, heap 2 GiB) and prints the time to its "view caught up" line,
# its RSS then, its view on disk, its per-phase timers and the CPU time of the catch-up's threads
# (when the build has them). OLD_JVM / NEW_JVM: JVM options for each build's node, after -Xmx2g;
# OLD_FLAGS / NEW_FLAGS: extra `serve` flags for each (for one jar with two settings).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/jit-ticks.sh
source bench/jit-ticks.sh
old=$(readlink -f "$1"); new=$(readlink -f "$2"); rounds=${3:-2}; n=${4:-1000000}
[ -f bench/target/quire-bench.jar ] || mvn -B -q -DskipTests package
work=$(mktemp -d /tmp/quire-replay-compare.XXXX)
java -cp bench/target/quire-bench.jar io.quire.bench.SyntheticJournal "$work/journal.ndjson" "$n" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
java -Xmx1g -jar "$new" broker --data-dir "$work/broker" --port "$port" --advertised-port 0 > "$work/broker.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null' EXIT
for _ in $(seq 1 120); do grep -q "broker ready" "$work/broker.log" && break; sleep 0.5; done
java -Xmx1g -jar "$new" journal import --file "$work/journal.ndjson" --bootstrap-servers "127.0.0.1:$port" \
  --journal-replication 1 --journal-min-isr 1 | tail -1
rm "$work/journal.ndjson"
http=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    jar=$old; [ "$build" = new ] && jar=$new
    dir="$work/$build-$round"
    jvm=${OLD_JVM:-}; [ "$build" = new ] && jvm=${NEW_JVM:-}
    flags=${OLD_FLAGS:-}; [ "$build" = new ] && flags=${NEW_FLAGS:-}
    # shellcheck disable=SC2086
    java -Xmx2g $jvm -jar "$jar" serve --bootstrap-servers "127.0.0.1:$port" --port "$http" --data-dir "$dir" \
      --node-id "$build-$round" --journal-replication 1 --journal-min-isr 1 $flags > "$dir.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 3600); do curl -sf "localhost:$http/health/ready" >/dev/null && break; sleep 0.5; done
    rss=$(ps -o rss= -p $pid)
    threads=$(thread_cpu "$pid" | python3 -c "
import json, sys
cpu = json.load(sys.stdin)
print(', '.join(f'{k} {v:.1f} s' for k, v in sorted(cpu.items(), key=lambda e: -e[1])[:8] if v >= 0.3))")
    kill $pid; wait $pid || true
    line=$(grep -o 'caught up to offset [0-9]* in [0-9]* ms.*' "$dir.log" | head -1)
    cpu=$(grep -o 'CPU: applying thread.*' "$dir.log" | head -1)   # builds since ADR 0015 log it
    echo "$build round $round ($(basename "$jar")): $line; RSS $((rss / 1024)) MiB; view $(du -sm "$dir" | cut -f1) MiB${cpu:+; catch-up $cpu}"
    echo "  CPU by thread at ready (threads that ended, such as the catch-up's, are not listed): $threads"
  done
done
rm -rf "$work"
