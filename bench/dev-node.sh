# Sourced by the benchmarks that start a node as the README starts it (`java -jar JAR dev`, no JVM
# flags). Such a node relaunches itself with its budget's heap, so it is a process tree: the
# launcher ($pid) and the JVM that serves, its child.

# dev_node_start JAR DATA_DIR LOG: starts the node on a free port; sets pid and port; returns once
# it is ready (at most 120 s). Set `trap dev_node_stop EXIT` before calling it.
dev_node_start() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  java -jar "$1" dev --data-dir "$2" --port "$port" > "$3" 2>&1 &
  pid=$!
  for _ in $(seq 1 240); do curl -sf "localhost:$port/health/ready" >/dev/null && return; sleep 0.5; done
}

# dev_node_stop: the launcher and the node it started, both gone when it returns.
dev_node_stop() {
  [ -n "${pid:-}" ] || return 0
  local kids; kids=$(pgrep -P "$pid" || true)
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for k in $kids; do tail --pid="$k" -f /dev/null; done
}

# dev_node_jvm: the pid of the JVM that serves (the child when the node relaunched itself).
dev_node_jvm() {
  local jvm=$pid p
  for p in $(pgrep -P "$pid" || true); do jvm=$p; done
  echo "$jvm"
}

# tree_sum FILE AWK: the sum over the process tree of what AWK prints from each /proc/PID/FILE.
tree_sum() {
  local total=0 p
  for p in $pid $(pgrep -P "$pid" || true); do
    total=$((total + $(awk "$2" "/proc/$p/$1" 2>/dev/null || echo 0)))
  done
  echo "$total"
}

# tree_rss: KiB resident over the process tree.
tree_rss() { tree_sum status '/VmRSS/ {print $2}'; }

# tree_ticks: CPU ticks (user + system) over the process tree.
tree_ticks() { tree_sum stat '{print $14 + $15}'; }

# dev_node_seed N: registers N small Avro schemas under subjects of their own (ids 1..N on a fresh node).
dev_node_seed() {
  seq 1 "$1" | xargs -P 8 -I{} curl -sf -o /dev/null -X POST -H 'Content-Type: application/vnd.schemaregistry.v1+json' \
    -d '{"schema":"{\"type\":\"record\",\"name\":\"Seed{}\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}"}' \
    "localhost:$port/subjects/at-size-seed-{}/versions"
}

# dev_node_max_id: the highest schema id the node answers (ids handed out in blocks by this one
# node are dense up to it), found by bisection from 1,000.
dev_node_max_id() {
  python3 - "$port" <<'PY'
import sys, urllib.request
port = sys.argv[1]
def there(i):
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/schemas/ids/{i}").status == 200
    except Exception:
        return False
lo, hi = 1000, 1 << 26
while hi - lo > 1:
    mid = (lo + hi) // 2
    lo, hi = (mid, hi) if there(mid) else (lo, mid)
print(lo)
PY
}
