#!/usr/bin/env bash
# Writes the golden journal of a release: runs its quire.jar in embedded mode, sends the requests
# of DIR/requests.txt (METHOD PATH [JSON body]), exports the journal to DIR/journal.ndjson and
# records every answer to DIR/reads.txt's paths in DIR/answers.ndjson, with the view's digest.
# JournalUpgradeIT applies that journal with the current code and expects the same answers.
#   bench/golden-journal.sh OLD/quire.jar query-node/src/test/resources/golden/journal-v0.1.0
set -euo pipefail
jar=$1 dir=$2 port=${PORT:-18777}
data=$(mktemp -d)
java -Xmx512m -jar "$jar" dev --data-dir "$data" --port "$port" --host 127.0.0.1 >"$data/node.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 1; done
: >"$dir/statuses.txt"
while IFS= read -r line; do
  [ -z "$line" ] && continue
  method=${line%% *}; rest=${line#* }; path=${rest%% *}; body=""
  [ "$path" != "$rest" ] && body=${rest#* }
  status=$(curl -s -o /dev/null -w '%{http_code}' -X "$method" -H 'Content-Type: application/vnd.schemaregistry.v1+json' \
    ${body:+--data-binary "$body"} "http://127.0.0.1:$port$path")
  echo "$status $method $path" >>"$dir/statuses.txt"
done <"$dir/requests.txt"
sleep 1
: >"$dir/answers.ndjson"
while IFS= read -r path; do
  [ -z "$path" ] && continue
  out=$(curl -s -w '\n%{http_code}' "http://127.0.0.1:$port$path")
  status=${out##*$'\n'}; body=${out%$'\n'*}
  python3 -c 'import json,sys; print(json.dumps({"path":sys.argv[1],"status":int(sys.argv[2]),"body":json.loads(sys.argv[3])}))' \
    "$path" "$status" "$body" >>"$dir/answers.ndjson"
done <"$dir/reads.txt"
curl -s "http://127.0.0.1:$port/admin/view-digest" >"$dir/view-digest.json"
curl -s "http://127.0.0.1:$port/admin/position" >"$dir/position.json"
broker=$(grep '^broker.port=' "$data/kafka/quire-embedded.properties" | cut -d= -f2)
java -jar "$jar" journal export --file "$dir/journal.ndjson" --bootstrap-servers "127.0.0.1:$broker" >/dev/null
echo "wrote $(wc -l <"$dir/journal.ndjson") journal records and $(wc -l <"$dir/answers.ndjson") answers to $dir"
