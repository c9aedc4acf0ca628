#!/usr/bin/env bash
# Where does a node spend its CPU? Starts a dev node with Java Flight Recorder, drives it with wrk
# (writes: new subjects; reads: GET /schemas/ids/{id}), then prints the sampled CPU by thread group
# and the hottest frames of each. Needs wrk (apt-get install wrk).
#   bench/profile.sh writes 30     bench/profile.sh reads 30     bench/profile.sh replay
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-writes}; seconds=${2:-30}
out=${PROFILE_OUT:-bench/results/profile-$mode}; rm -rf "$out"; mkdir -p "$out"
[ -f query-node/target/quire.jar ] || mvn -B -q -DskipTests package
port=18099
start_node() {
  java -Xmx2g -XX:StartFlightRecording=filename="$out/$1.jfr",settings=profile,dumponexit=true \
    -jar query-node/target/quire.jar dev --port $port --data-dir "$out/data" > "$out/$1.log" 2>&1 &
  echo $! > "$out/pid"
  for _ in $(seq 1 120); do curl -sf localhost:$port/health/ready >/dev/null && return; sleep 0.5; done
  echo "node not ready" >&2; exit 1
}
stop_node() { kill "$(cat "$out/pid")"; while kill -0 "$(cat "$out/pid")" 2>/dev/null; do sleep 0.2; done; }
case "$mode" in
  writes) start_node writes
          wrk -t2 -c100 -d10s -s bench/wrk/register.lua http://127.0.0.1:$port > /dev/null   # warm-up
          wrk -t2 -c100 -d"${seconds}s" --latency -s bench/wrk/register.lua http://127.0.0.1:$port | tee "$out/wrk.txt"
          stop_node; jfr_file="$out/writes.jfr" ;;
  reads)  start_node reads
          wrk -t2 -c100 -d20s -s bench/wrk/register.lua http://127.0.0.1:$port > /dev/null
          MAX_ID=1000 wrk -t2 -c200 -d10s -s bench/wrk/read-ids.lua http://127.0.0.1:$port > /dev/null
          MAX_ID=1000 wrk -t2 -c200 -d"${seconds}s" --latency -s bench/wrk/read-ids.lua http://127.0.0.1:$port | tee "$out/wrk.txt"
          stop_node; jfr_file="$out/reads.jfr" ;;
  replay) start_node seed
          wrk -t2 -c100 -d"${seconds}s" -s bench/wrk/register.lua http://127.0.0.1:$port > /dev/null
          stop_node; rm -rf "$out/data/streams"
          start_node replay; grep "view caught up" "$out/replay.log"; stop_node; jfr_file="$out/replay.jfr" ;;
  *) sed -n '2,6p' "$0"; exit 2 ;;
esac
"$(dirname "$(readlink -f "$(command -v java)")")/jfr" print --json --events jdk.ExecutionSample "$jfr_file" > "$out/samples.json"
python3 - "$out/samples.json" <<'PY'
import json, re, sys, collections
events = json.load(open(sys.argv[1]))["recording"]["events"]
by_group = collections.Counter(); frames = collections.defaultdict(collections.Counter)
ours = collections.defaultdict(collections.Counter)
for e in events:
    v = e["values"]; name = (v.get("sampledThread") or {}).get("javaName") or "?"
    group = re.sub(r"[-#]?\d+$", "", re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "*", name))
    by_group[group] += 1
    st = (v.get("stackTrace") or {}).get("frames") or []
    if st:
        m = st[0]["method"]; frames[group][m["type"]["name"] + "." + m["name"]] += 1
        for f in st:
            t = f["method"]["type"]["name"]
            if t.startswith("io.quire") or t.startswith("io/quire"):
                ours[group][t.split(".")[-1].split("/")[-1] + "." + f["method"]["name"]] += 1
                break
total = sum(by_group.values())
print(f"{total} CPU samples")
for g, n in by_group.most_common(8):
    print(f"{100*n/total:5.1f} %  {g}")
    for f, k in frames[g].most_common(5):
        print(f"          {100*k/total:5.1f} %  top frame  {f}")
    for f, k in ours[g].most_common(4):
        print(f"          {100*k/total:5.1f} %  in Quire   {f}")
PY
