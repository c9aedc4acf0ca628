#!/usr/bin/env bash
# Where the machine's CPU goes per read by id, at size against over 1,000 ids, on one node started
# as the README starts it (`java -jar quire.jar dev`, no JVM flags):
#   bench/read-split.sh JAR [FILL_SECONDS=150] [PAIRS=4] [OUT=/tmp/quire-read-split]
# 1,000 schemas, 40 s of reads over them, FILL_SECONDS of new subjects (bench/wrk/register.lua),
# then at once PAIRS pairs of 10 s windows of bench/wrk/read-ids.lua (wrk -t2 -c200), ids drawn
# from every id there is and from 1..1,000 in turn (at size first, then over 1,000 first, ...).
# For each window: requests/s and the CPU per request of the node (process tree, /proc), of wrk
# itself (/usr/bin/time) and of the rest of the machine (/proc/stat less those two), the node's
# three busiest threads and its resident memory split into anonymous and file pages. Ends with
# the median ratio of the rates and the median of each part's CPU per request for both kinds.
# bench/at-size.sh measures the same ratio with the other stages of issue #57.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$(readlink -f "$1"); fill=${2:-150}; pairs=${3:-4}; out=${4:-/tmp/quire-read-split}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
rm -rf "$out"; mkdir -p "$out"
# shellcheck source=bench/dev-node.sh
source bench/dev-node.sh
trap dev_node_stop EXIT
dev_node_start "$jar" "$out/data" "$out/node.log"
source bench/jit-ticks.sh
hz=$(getconf CLK_TCK)
dev_node_seed 1000
MAX_ID=1000 wrk -t2 -c200 -d40s -s bench/wrk/read-ids.lua "http://127.0.0.1:$port" > /dev/null
wrk -t2 -c200 -d"${fill}s" -s bench/wrk/register.lua "http://127.0.0.1:$port" > "$out/fill.out"
max=$(dev_node_max_id)
jvm=$(dev_node_jvm)
echo "fill: $(awk '/Requests\/sec/ {print $2}' "$out/fill.out") registrations/s for ${fill} s; highest id $max"
machine_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
window() { # MAX_ID: prints "req/s node wrk rest" (us per request), then the threads and memory lines
  local n0 n1 m0 m1 c0 c1 rps wu ws
  n0=$(tree_ticks); m0=$(machine_ticks); c0=$(thread_cpu "$jvm")
  /usr/bin/time -f "%U %S" -o "$out/wrk.time" env MAX_ID="$1" wrk -t2 -c200 -d10s -s bench/wrk/read-ids.lua \
    "http://127.0.0.1:$port" > "$out/window.out" 2>&1
  n1=$(tree_ticks); m1=$(machine_ticks); c1=$(thread_cpu "$jvm")
  rps=$(awk '/Requests\/sec/ {print $2}' "$out/window.out"); read -r wu ws < "$out/wrk.time"
  python3 - "$rps" "$hz" "$n0" "$n1" "$m0" "$m1" "$wu" "$ws" "$c0" "$c1" <<'PY'
import json, sys
rps, hz = float(sys.argv[1]), int(sys.argv[2])
node = (int(sys.argv[4]) - int(sys.argv[3])) / hz
machine = (int(sys.argv[6]) - int(sys.argv[5])) / hz
wrk = float(sys.argv[7]) + float(sys.argv[8])
per = lambda s: s / (rps * 10) * 1e6
print(f"{rps:.0f} {per(node):.2f} {per(wrk):.2f} {per(machine - node - wrk):.2f}")
a, b = json.loads(sys.argv[9]), json.loads(sys.argv[10])
top = sorted(((b[k] - a.get(k, 0), k) for k in b), reverse=True)[:3]
print("    threads: " + ", ".join(f"{k} {s / 10:.3f} cores" for s, k in top))
PY
  echo "    memory: $(awk '/^(VmRSS|RssAnon|RssFile):/ {printf "%s %d MiB  ", $1, $2 / 1024}' "/proc/$jvm/status")"
}
printf '%-9s %10s %8s %8s %8s   (us of CPU per request)\n' window req/s node wrk rest
: > "$out/pairs"
for i in $(seq 1 "$pairs"); do
  for kind in $([ $((i % 2)) = 1 ] && echo "big small" || echo "small big"); do
    ids=$max; [ "$kind" = small ] && ids=1000
    window "$ids" > "$out/w"
    read -r rps node wrk rest < "$out/w"
    printf '%-9s %10s %8s %8s %8s\n' "$kind" "$rps" "$node" "$wrk" "$rest"; tail -n +2 "$out/w"
    echo "$i $kind $rps $node $wrk $rest" >> "$out/pairs"
  done
done
python3 - "$out/pairs" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
by = {}
for i, kind, *v in rows:
    by.setdefault(kind, {})[i] = [float(x) for x in v]
ratios = [by["big"][i][0] / by["small"][i][0] for i in by["big"]]
print(f"reads at size / over 1,000: median {statistics.median(ratios):.3f} "
      f"(pairs: {' '.join(f'{r:.3f}' for r in ratios)})")
for kind in ("big", "small"):
    cols = list(zip(*by[kind].values()))
    print(f"median us per request, {'at size' if kind == 'big' else 'over 1,000'}: node "
          f"{statistics.median(cols[1]):.2f}, wrk {statistics.median(cols[2]):.2f}, "
          f"rest {statistics.median(cols[3]):.2f}")
PY
