#!/usr/bin/env bash
# What a page of GET /subjects and GET /schemas costs deep into a big registry, for two builds
# on one view, alternated:
#   bench/page-compare.sh OLD.jar NEW.jar [REGISTRATIONS=1000000] [ROUNDS=2]
# Writes the bench's synthetic journal (four versions per subject: 1 M registrations are 250,000
# subjects), loads it into a broker of its own, builds one node's view with NEW, then for each
# build in turn serves that same view (same node id, so nothing is replayed) and times with curl:
# one page of 1,000 at the start, in the middle and at the end of each list; a walk of the first
# 250 pages in order (offset 0, 1000, ...; every page of the subjects at 1 M registrations); and
# the page at the walk's end again after it.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(readlink -f "$1"); new=$(readlink -f "$2"); n=${3:-1000000}; rounds=${4:-2}
[ -f bench/target/quire-bench.jar ] || mvn -B -q -DskipTests package
work=$(mktemp -d /tmp/quire-page-compare.XXXX)
java -cp bench/target/quire-bench.jar io.quire.bench.SyntheticJournal "$work/journal.ndjson" "$n" >/dev/null
free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free)
java -Xmx1g -jar "$new" broker --data-dir "$work/broker" --port "$port" --advertised-port 0 > "$work/broker.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null' EXIT
for _ in $(seq 1 120); do grep -q "broker ready" "$work/broker.log" && break; sleep 0.5; done
java -Xmx1g -jar "$new" journal import --file "$work/journal.ndjson" --bootstrap-servers "127.0.0.1:$port" \
  --journal-replication 1 --journal-min-isr 1 | tail -1
rm "$work/journal.ndjson"
http=$(free)
subjects=$((n / 4)); versions=$n
ms() { curl -s -o /dev/null -w '%{time_total}' "localhost:$http$1" | awk '{printf "%.0f", $1 * 1000}'; }
walk() { # list, entries: total ms of every page in order
  local t0 t1; t0=$(date +%s%N)
  for ((o = 0; o < $2; o += 1000)); do curl -s -o /dev/null "localhost:$http/$1?limit=1000&offset=$o"; done
  t1=$(date +%s%N); echo $(((t1 - t0) / 1000000))
}
serve() {
  java -Xmx2g -jar "$1" serve --bootstrap-servers "127.0.0.1:$port" --port "$http" --data-dir "$work/node" \
    --node-id page-node --journal-replication 1 --journal-min-isr 1 >> "$work/node.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 3600); do curl -sf "localhost:$http/health/ready" >/dev/null && break; sleep 0.5; done
}
serve "$new"; kill $pid; wait $pid || true
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    jar=$old; [ "$build" = new ] && jar=$new
    serve "$jar"
    for list in subjects schemas; do
      total=$subjects; [ "$list" = schemas ] && total=$versions
      first=$(ms "/$list?limit=1000&offset=0"); mid=$(ms "/$list?limit=1000&offset=$((total / 2))")
      last=$(ms "/$list?limit=1000&offset=$((total - 1000))")
      walked=$((total < 250000 ? total : 250000))
      w=$(walk "$list" "$walked"); again=$(ms "/$list?limit=1000&offset=$((walked - 1000))")
      echo "$build round $round ($(basename "$jar")) /$list of $total: page at start ${first} ms, middle ${mid} ms," \
        "end ${last} ms; walk of $((walked / 1000)) pages ${w} ms; page at the walk's end again ${again} ms"
    done
    kill $pid; wait $pid || true
  done
done
rm -rf "$work"
