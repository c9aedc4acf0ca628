#!/usr/bin/env bash
# What search costs at a million versions, on this machine:
#   bench/search-cost.sh JAR [VERSIONS=1000000] [ROUNDS=2] [OUT=/tmp/quire-search-cost]
# 1. A broker of its own; a node registers VERSIONS new Avro records through the API
#    (bench/wrk/register-search.lua: a namespace, a doc, five fields, every tenth tagged PII), so
#    the journal holds each schema's search terms as the real edge computed them.
# 2. The journal is exported, and copied without the terms (`index` dropped from every record)
#    into a second topic: the same registry, without search.
# 3. Replays, alternated: a fresh node catches up each topic in turn, ROUNDS times: the time to
#    ready, then until a search answers (the index is filed after the catch-up), and the view's size
#    on disk once its compactions settled, with and without the index. PLAIN_JAR (default: JAR)
#    replays the copy without terms: give a build from before search for a view without any index
#    (JAR's own still files subject names).
# 4. Search latency on the indexed view (io.quire.bench.SearchLatency, one request at a time).
# 5. Reads by id over every id (bench/wrk/read-ids.lua, wrk -t2 -c200), alternated between the two
#    views: 15 s warm-up, 30 s measured.
# REUSE=1 starts again from an earlier run's OUT: its broker and both topics, skipping 1 and 2 (the
# journal does not change with a build of the view; a fill of a million versions takes a while).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$(readlink -f "$1"); versions=${2:-1000000}; rounds=${3:-2}; out=${4:-/tmp/quire-search-cost}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
[ -f bench/target/quire-bench.jar ] || mvn -B -q -o -DskipTests -pl bench -am package
reuse=${REUSE:-}
if [ -n "$reuse" ]; then
  [ -f "$out/records" ] || { echo "REUSE: $out holds no earlier run (no $out/records)" >&2; exit 1; }
  find "$out" -maxdepth 1 -mindepth 1 ! -name broker ! -name records ! -name offset ! -name 'fill*' -exec rm -rf {} +
else
  rm -rf "$out"; mkdir -p "$out"
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
kport=$(free_port); http=$(free_port)
java -Xmx1g -jar "$jar" broker --data-dir "$out/broker" --port "$kport" --advertised-port 0 > "$out/broker.log" 2>&1 &
broker=$!
node=""
cleanup() { [ -n "$node" ] && kill "$node" 2>/dev/null; kill $broker 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 120); do grep -q "broker ready" "$out/broker.log" && break; sleep 0.5; done
# a broker started again on its data keeps the port it first had
kport=$(grep -o 'broker ready at [0-9.]*:[0-9]*' "$out/broker.log" | head -1 | sed 's/.*://')
plain_jar=$(readlink -f "${PLAIN_JAR:-$jar}")
node_jar=$jar
serve() { # topic data-dir [log-suffix]: starts a node of $node_jar, waits until it is ready
  java -Xmx2g -jar "$node_jar" serve --bootstrap-servers "127.0.0.1:$kport" --port "$http" --data-dir "$2" \
    --node-id "$(basename "$2")" --journal-topic "$1" --journal-replication 1 --journal-min-isr 1 > "$2${3:-}.log" 2>&1 &
  node=$!
  for _ in $(seq 1 7200); do
    curl -sf "localhost:$http/health/ready" >/dev/null && return
    kill -0 "$node" 2>/dev/null || { echo "node on $1 exited: see $2${3:-}.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "node on $1 never ready" >&2; exit 1
}
halt() { kill "$node"; wait "$node" 2>/dev/null || true; node=""; }
versions_now() { curl -sf "localhost:$http/admin/position" | python3 -c 'import json,sys; print(json.load(sys.stdin)["offset"])'; }

if [ -z "$reuse" ]; then
# 1. the fill, through the API
serve search-indexed "$out/fill"
run=a; start=$(date +%s)
while [ "$(versions_now)" -lt $((versions + versions / 1000 + 10)) ]; do
  RUN=$run wrk -t2 -c200 -d"${FILL_CHUNK:-60}s" -s bench/wrk/register-search.lua "http://127.0.0.1:$http" >> "$out/fill.out" 2>&1
  run=${run}a
done
offset=$(versions_now)
echo "fill: journal at offset $offset after $(( $(date +%s) - start )) s ($(grep -c 'non-2xx or errors: 0' "$out/fill.out") wrk runs without errors)"
records=$(curl -sf "localhost:$http/subjects?subjectPrefix=search-a1x&limit=-1" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "$offset" > "$out/offset"; echo "$records" > "$out/records"
halt

# 2. the same journal without the terms
java -Xmx1g -jar "$jar" journal export --file "$out/indexed.ndjson" --bootstrap-servers "127.0.0.1:$kport" \
  --journal-topic search-indexed | tail -1
python3 - "$out/indexed.ndjson" "$out/plain.ndjson" <<'PY'
import json, sys
with open(sys.argv[1]) as src, open(sys.argv[2], "w") as dst:
    for line in src:
        r = json.loads(line)
        v = r.get("value")
        if isinstance(v, dict) and isinstance(v.get("payload"), dict):
            v["payload"].pop("index", None)
        dst.write(json.dumps(r, separators=(",", ":")) + "\n")
PY
java -Xmx1g -jar "$jar" journal import --file "$out/plain.ndjson" --bootstrap-servers "127.0.0.1:$kport" \
  --journal-topic search-plain --journal-replication 1 --journal-min-isr 1 | tail -1
echo "journal as NDJSON: $(du -m "$out/indexed.ndjson" | cut -f1) MiB with the terms, $(du -m "$out/plain.ndjson" | cut -f1) MiB without"
rm -f "$out/indexed.ndjson" "$out/plain.ndjson"
else
  offset=$(cat "$out/offset"); records=$(cat "$out/records")
  echo "the journal of the earlier run in $out: offset $offset"
fi

# 3. replays, alternated
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
jar_of() { if [ "$1" = plain ]; then echo "$plain_jar"; else echo "$jar"; fi; }
for round in $(seq 1 "$rounds"); do
  for variant in plain indexed; do
    dir="$out/$variant-$round"; node_jar=$(jar_of $variant); t0=$(date +%s%N)
    serve "search-$variant" "$dir"
    ready=$(ms_since "$t0")
    until [[ "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$http/search?q=id")" =~ ^(200|404)$ ]]; do sleep 0.2; done
    searchable=$(ms_since "$t0") # 404: a build without search
    # the filing compacts its bundles' range last, then logs its line (not in quire_view_compactions)
    if [ "$variant" = indexed ]; then
      for _ in $(seq 1 600); do grep -q 'search index complete' "$dir.log" && break; sleep 1; done
    fi
    until curl -sf "localhost:$http/metrics" | grep -q '^quire_view_compactions 0'; do sleep 1; done
    settled=$(du -sm "$dir" | cut -f1)
    halt
    line=$(grep -o 'caught up offsets .* records in [0-9]* ms' "$dir.log" | head -1 | grep -o '[0-9]* ms$' || true)
    cpu=$(grep -o 'CPU: applying thread.*' "$dir.log" | head -1 || true)
    filing=$(grep -o 'search index complete.*' "$dir.log" | head -1 || true) # none: a build without search
    echo "replay $variant ($(basename "$node_jar")) round $round: caught up in $line, ready after $ready ms," \
      "search answers after $searchable ms; view once compactions settled $settled MiB; $cpu${filing:+; $filing}"
  done
done
node_jar=$jar

# 4. search latency on the indexed view
serve search-indexed "$out/indexed-$rounds" -search
echo "search latency over $offset journal records, one request at a time (200 each):"
java -cp bench/target/quire-bench.jar io.quire.bench.SearchLatency "http://127.0.0.1:$http" 200 "$records"
max=$(curl -sf "localhost:$http/schemas/ids/1?fetchMaxId=true" | python3 -c 'import json,sys; print(json.load(sys.stdin)["maxId"])')
halt

# 5. reads by id, alternated
for round in $(seq 1 "$rounds"); do
  for variant in plain indexed; do
    node_jar=$(jar_of $variant)
    serve "search-$variant" "$out/$variant-$rounds" "-read-$round"
    MAX_ID=$max wrk -t2 -c200 -d15s -s bench/wrk/read-ids.lua "http://127.0.0.1:$http" > /dev/null 2>&1
    MAX_ID=$max wrk -t2 -c200 -d30s -s bench/wrk/read-ids.lua "http://127.0.0.1:$http" > "$out/read-$variant-$round.out" 2>&1
    echo "reads by id over $max ids, $variant view, round $round: $(awk '/Requests\/sec/ {print $2}' "$out/read-$variant-$round.out")/s," \
      "$(awk '/non-2xx/ {print $NF}' "$out/read-$variant-$round.out") errors"
    halt
  done
done
