#!/usr/bin/env bash
# Reads by id at size, right after a bulk load, against reads over 1,000 ids, on a node started as
# the README starts it (`java -jar quire.jar dev`, no JVM flags):
#   bench/at-size.sh JAR [FILL_SECONDS=120] [READ_SECONDS=30] [OUT=/tmp/quire-at-size]
# 1. 1,000 schemas registered (ids 1..1,000); 20 s of reads by id over them to warm up, then
#    READ_SECONDS measured (bench/wrk/read-ids.lua, MAX_ID=1000, wrk -t2 -c200).
# 2. EVOLVE_WARM (20) s of new versions of 20 subjects, so that stage 5 does not measure the
#    JIT compiling the evolving path (the fill warms the new-subject one for FILL_SECONDS).
#    Then the fill: FILL_SECONDS of new subjects (bench/wrk/register.lua, wrk -t2 -c200), one journal
#    record each, as an import or a follower's catch-up writes them.
# 3. At once, with no idle wait: READ_SECONDS of reads by id drawn uniformly from every id there is.
#    Then NEAR_PAIRS (3) pairs of 10 s windows, reads at size and reads over 1,000 ids in turn
#    (at size first, then over 1,000 first, and so on), before compactions are waited for: the
#    ratio of the two measured in the same minutes, median over the pairs. Stage 1's rate, the
#    denominator of the ratio above, moved by 13-16 % between two builds of one run before any
#    fill (2026-12-07), so the ratio of two windows taken minutes apart moves as much.
# 4. For the record, the same reads again once RocksDB has no compaction running or pending.
# 5. Registrations at that size: EVOLVE_SECONDS (30) of new versions of 20 subjects
#    (bench/wrk/evolve.lua, EVOLVE_SUBJECTS=10 per wrk thread, each text once), then as long of new
#    subjects (bench/wrk/register.lua), both with 200 writers. Then both again once the JIT is
#    quiet under each (10 s runs of it until the compiler threads use under a tenth of a core, at
#    most JIT_WAIT s): C2 goes on compiling the evolving path for minutes (a fresh node,
#    2026-12-07: 0.26 of a core over its third 20 s of evolving registrations, 0.06 over the
#    fourth; 0.09 and 0.02 over the 20 s of new subjects after each), so the first pair measures
#    the compiler as much as the registrations. These are EVOLVE_PAIRS (4) pairs of EVOLVE_WINDOW
#    (15) s windows, evolving then new, then new then evolving, and so on; the ratio is the median
#    over the pairs, printed with every pair's: consecutive 15 s windows of one kind moved by up to
#    a fifth on this machine (0.80 to 0.99 for three pairs in a row, 2026-12-07).
# 6. The read's CPU against the machine's HTTP limit: the node's CPU per read (process tree,
#    /proc) over stage 1's reads against io.quire.bench.TrivialServer's under the same wrk. The
#    trivial server starts with the node and idles on a port of its own until the end; then both
#    are warmed with stage 1's reads until their JIT is quiet (as bench/cpu-compare.sh waits, at
#    most JIT_WAIT=180 s more) and loaded in turn, PAIRS (4) pairs of 10 s windows, node then
#    trivial, then trivial then node, and so on. The ratio is the median over the pairs, with the
#    smallest and largest: on this machine the CPU per read of one process moves by a fifth from
#    one 10 s window to the next (bench/ab-compare.sh's windows), so a ratio of two windows taken
#    minutes apart moves as much. Before the node's warm-up, the compactions stage 5's writes left
#    run out (at most 300 s), as stage 4 waits for the fill's. The node's CPU per read over stage 1
#    itself is printed too.
# 7. FOLLOW=1 also runs bench/follow-catchup.sh 200000 (the follower's copy rate; it builds and runs
#    the source tree here, not JAR).
# Prints each stage's requests/s, non-2xx answers and the node's peak RSS (process tree), the ratio
# of the reads at size to the reads over 1,000, of evolving to new-subject registrations and of the
# node's CPU per read to the trivial server's, the journal's end offset and the view's size on disk.
# bench/at-size-compare.sh alternates two builds.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$(readlink -f "$1"); fill=${2:-120}; secs=${3:-30}; out=${4:-/tmp/quire-at-size}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
rm -rf "$out"; mkdir -p "$out"
# shellcheck source=bench/dev-node.sh
source bench/dev-node.sh
trap dev_node_stop EXIT
dev_node_start "$jar" "$out/data" "$out/node.log"
hz=$(getconf CLK_TCK)
# the trivial server, idle until stage 6, on its own port
trivial_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
java -cp bench/target/quire-bench.jar io.quire.bench.TrivialServer "$trivial_port" > "$out/trivial.log" 2>&1 &
trivial_pid=$!
trap 'kill $trivial_pid 2>/dev/null || true; dev_node_stop' EXIT
for _ in $(seq 1 120); do grep -q "trivial server on" "$out/trivial.log" && break; sleep 0.5; done
stage() { # name seconds script [env...]: wrk; prints req/s, non-2xx, peak RSS MiB, CPU us per request
  local name=$1 s=$2 script=$3 peak=0 r t0 t1; shift 3
  t0=$(tree_ticks)
  env "$@" wrk -t2 -c200 -d"${s}s" -s "$script" "http://127.0.0.1:$port" > "$out/$name.out" 2>&1 &
  local w=$!
  while kill -0 $w 2>/dev/null; do r=$(tree_rss); [ "$r" -gt "$peak" ] && peak=$r; sleep 1; done
  t1=$(tree_ticks)
  local rps bad
  rps=$(awk '/Requests\/sec/ {print $2}' "$out/$name.out"); bad=$(awk '/non-2xx/ {print $NF}' "$out/$name.out")
  echo "$rps ${bad:-0} $((peak / 1024)) $(python3 -c "print(round(($t1 - $t0) / $hz * 1e6 / max(1.0, $rps * $s), 1))")"
}
# shellcheck source=bench/jit-ticks.sh
source bench/jit-ticks.sh
jit_quiet() { # PID [SCRIPT ENV...]: wrk with SCRIPT (stage 1's reads), 10 s at a time, until the JIT used under a tenth of a core
  local pid=$1 script=bench/wrk/read-ids.lua waited=0 before now to=${JIT_PORT:-$port}
  shift
  if [ $# -gt 0 ]; then script=$1; shift; else set -- MAX_ID=1000; fi
  before=$(jit_ticks "$pid")
  while [ "$waited" -lt "${JIT_WAIT:-180}" ]; do
    env "$@" wrk -t2 -c200 -d10s -s "$script" "http://127.0.0.1:$to" > /dev/null 2>&1
    waited=$((waited + 10)); now=$(jit_ticks "$pid")
    [ $((now - before)) -lt "$hz" ] && break
    before=$now
  done
  echo "$waited"
}
dev_node_seed 1000
stage warm 20 bench/wrk/read-ids.lua MAX_ID=1000 > /dev/null
small_jit=$(jit_quiet "$(dev_node_jvm)")
read -r small small_err small_rss small_us <<< "$(stage small "$secs" bench/wrk/read-ids.lua MAX_ID=1000)"
# the evolving path warmed up as the fill warms the new-subject one (other subjects than stage 5's)
stage evolve-warm "${EVOLVE_WARM:-20}" bench/wrk/evolve.lua EVOLVE_SUBJECTS=10 EVOLVE_DISTINCT=1 > /dev/null
read -r fill_rate fill_err fill_rss _ <<< "$(stage fill "$fill" bench/wrk/register.lua)"
# the highest id there is (ids are handed out in blocks by this one node: dense up to it)
max=$(dev_node_max_id)
metric() { curl -s "localhost:$port/metrics" | awk -v m="$1" '$1 == m {print $2}'; }
pending_before=$(metric quire_view_compactions)
read -r big big_err big_rss _ <<< "$(stage big "$secs" bench/wrk/read-ids.lua MAX_ID="$max")"
pending_after=$(metric quire_view_compactions)
offset=$(metric quire_journal_applied_offset)
view=$(du -sm "$out/data" | awk '{print $1}')
# 3b. then the same reads at size alternated with reads over 1,000 ids, in 10 s windows, before
# compactions are waited for: both measured in the same minutes after the fill
near_ratios=(); near_big=(); near_small=()
for i in $(seq 1 "${NEAR_PAIRS:-3}"); do
  for kind in $([ $((i % 2)) = 1 ] && echo "big small" || echo "small big"); do
    if [ "$kind" = big ]; then
      read -r nb _ _ _ <<< "$(stage near-big-$i 10 bench/wrk/read-ids.lua MAX_ID="$max")"
    else
      read -r ns _ _ _ <<< "$(stage near-small-$i 10 bench/wrk/read-ids.lua MAX_ID=1000)"
    fi
  done
  near_big+=("$nb"); near_small+=("$ns"); near_ratios+=("$(python3 -c "print(round($nb / $ns, 3))")")
done
# then, for the record, the same reads once RocksDB has no compaction running or pending (at most 300 s more)
waited=0
while [ "$waited" -lt 300 ] && [ "$(metric quire_view_compactions | cut -d. -f1)" != "0" ]; do sleep 5; waited=$((waited + 5)); done
read -r settled settled_err settled_rss _ <<< "$(stage settled "$secs" bench/wrk/read-ids.lua MAX_ID="$max")"
evolve_secs=${EVOLVE_SECONDS:-30}
read -r evolve evolve_err evolve_rss evolve_us <<< "$(stage evolve "$evolve_secs" bench/wrk/evolve.lua EVOLVE_SUBJECTS=10 EVOLVE_DISTINCT=1)"
read -r fresh fresh_err fresh_rss fresh_us <<< "$(stage fresh "$evolve_secs" bench/wrk/register.lua)"
# the same two once the JIT is quiet under each, in alternated pairs of windows
evolve_jit=$(jit_quiet "$(dev_node_jvm)" bench/wrk/evolve.lua EVOLVE_SUBJECTS=10 EVOLVE_DISTINCT=1)
fresh_jit=$(jit_quiet "$(dev_node_jvm)" bench/wrk/register.lua)
ewin=${EVOLVE_WINDOW:-15}; pair_ratios=(); evolve_q_all=(); fresh_q_all=(); evolve_q_us_all=(); fresh_q_us_all=()
evolve_q_err=0; fresh_q_err=0; pairs_rss=0
for i in $(seq 1 "${EVOLVE_PAIRS:-4}"); do
  for kind in $([ $((i % 2)) = 1 ] && echo "evolve fresh" || echo "fresh evolve"); do
    if [ "$kind" = evolve ]; then
      read -r e_rps e_err e_rss e_us <<< "$(stage evolve-quiet-$i "$ewin" bench/wrk/evolve.lua EVOLVE_SUBJECTS=10 EVOLVE_DISTINCT=1)"
      evolve_q_all+=("$e_rps"); evolve_q_us_all+=("$e_us"); evolve_q_err=$((evolve_q_err + ${e_err:-0}))
      [ "$e_rss" -gt "$pairs_rss" ] && pairs_rss=$e_rss
    else
      read -r f_rps f_err f_rss f_us <<< "$(stage fresh-quiet-$i "$ewin" bench/wrk/register.lua)"
      fresh_q_all+=("$f_rps"); fresh_q_us_all+=("$f_us"); fresh_q_err=$((fresh_q_err + ${f_err:-0}))
      [ "$f_rss" -gt "$pairs_rss" ] && pairs_rss=$f_rss
    fi
  done
  pair_ratios+=("$(python3 -c "print(round($e_rps / $f_rps, 3))")")
done
# stage 6: the node and the trivial server, warmed with stage 1's reads, then in alternated windows
window() { # node|trivial: one 10 s window of stage 1's reads; prints req/s and CPU us per request (the node's process tree)
  local t0 t1 rps to=$port ticks=tree_ticks
  [ "$1" = trivial ] && to=$trivial_port && ticks="pid_ticks $trivial_pid"
  t0=$($ticks)
  MAX_ID=1000 wrk -t2 -c200 -d10s -s bench/wrk/read-ids.lua "http://127.0.0.1:$to" > "$out/window.out" 2>&1
  t1=$($ticks)
  rps=$(awk '/Requests\/sec/ {print $2}' "$out/window.out")
  echo "$rps $(python3 -c "print(round(($t1 - $t0) / $hz * 1e6 / max(1.0, $rps * 10), 2))")"
}
pid_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
node_jvm=$(dev_node_jvm)
# the flushes and compactions stage 5's registrations left run first (at most 300 s): their CPU is not a read's
read_waited=0
while [ "$read_waited" -lt 300 ] && [ "$(metric quire_view_compactions | cut -d. -f1)" != "0" ]; do sleep 5; read_waited=$((read_waited + 5)); done
stage read-warm 20 bench/wrk/read-ids.lua MAX_ID=1000 > /dev/null
read_jit=$(jit_quiet "$node_jvm")
wrk -t2 -c200 -d20s -s bench/wrk/read-ids.lua "http://127.0.0.1:$trivial_port" > /dev/null 2>&1 || true
trivial_jit=$(JIT_PORT=$trivial_port jit_quiet "$trivial_pid")
ratios=(); node_all=(); trivial_all=(); trivial_rps=()
for i in $(seq 1 "${PAIRS:-4}"); do
  if [ $((i % 2)) = 1 ]; then
    read -r _ n_us <<< "$(window node)"; read -r t_rps t_us <<< "$(window trivial)"
  else
    read -r t_rps t_us <<< "$(window trivial)"; read -r _ n_us <<< "$(window node)"
  fi
  node_all+=("$n_us"); trivial_all+=("$t_us"); trivial_rps+=("$t_rps")
  ratios+=("$(python3 -c "print(round($n_us / $t_us, 3))")")
done
dev_node_stop
kill "$trivial_pid" 2>/dev/null || true
median() { python3 -c "import statistics, sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 3))" "$@"; }
echo "$(basename "$jar"): $(grep -o 'memory budget[^;]*' "$out/node.log" | head -1)"
printf '%-34s %10s req/s  non-2xx %-6s peak RSS %5s MiB\n' "reads over 1,000 ids" "$small" "${small_err:-0}" "$small_rss"
printf '%-34s %10s req/s  non-2xx %-6s peak RSS %5s MiB\n' "fill: new subjects, ${fill} s" "$fill_rate" "${fill_err:-0}" "$fill_rss"
printf '%-34s %10s req/s  non-2xx %-6s peak RSS %5s MiB\n' "reads over $max ids, right after" "$big" "${big_err:-0}" "$big_rss"
printf '%-34s %10s req/s  non-2xx %-6s peak RSS %5s MiB (after %s s idle)\n' "the same once compactions settled" "$settled" \
  "${settled_err:-0}" "$settled_rss" "$waited"
echo "ratio at size / over 1,000: right after $(python3 -c "print(round($big / $small, 2))"), settled $(python3 -c "print(round($settled / $small, 2))")"
echo "compactions running or pending: ${pending_before:-?} before the reads at size, ${pending_after:-?} after"
echo "reads at size / over 1,000 right after those, ${#near_ratios[@]} alternated pairs of 10 s: median $(median "${near_ratios[@]}") (pairs: ${near_ratios[*]})"
echo "  at size req/s: ${near_big[*]}; over 1,000 req/s: ${near_small[*]}"
printf '%-34s %10s req/s  non-2xx %-6s peak RSS %5s MiB\n' "evolving: 20 subjects, ${evolve_secs} s" "$evolve" "${evolve_err:-0}" "$evolve_rss"
printf '%-34s %10s req/s  non-2xx %-6s peak RSS %5s MiB\n' "new subjects, right after, ${evolve_secs} s" "$fresh" "${fresh_err:-0}" "$fresh_rss"
echo "ratio evolving / new subjects: $(python3 -c "print(round($evolve / $fresh, 2))") (node CPU per registration: evolving ${evolve_us} us, new ${fresh_us} us)"
echo "evolving and new subjects, JIT quiet (after ${evolve_jit} and ${fresh_jit} s more), ${#pair_ratios[@]} alternated pairs of ${ewin} s:"
echo "  evolving req/s: ${evolve_q_all[*]} (non-2xx ${evolve_q_err}; node CPU us per registration: ${evolve_q_us_all[*]})"
echo "  new subjects req/s: ${fresh_q_all[*]} (non-2xx ${fresh_q_err}; node CPU us per registration: ${fresh_q_us_all[*]})"
echo "  peak RSS over the pairs: ${pairs_rss} MiB"
echo "ratio evolving / new subjects, JIT quiet: median $(median "${pair_ratios[@]}") (pairs: ${pair_ratios[*]})"
echo "read CPU over 1,000 ids, stage 1: node ${small_us} us/req (JIT quiet after ${small_jit} s more)"
echo "read CPU over 1,000 ids, ${#ratios[@]} alternated pairs of 10 s windows (after ${read_waited} s for compactions; JIT quiet after ${read_jit} s, trivial ${trivial_jit} s):"
echo "  node us/req: ${node_all[*]}; trivial server us/req: ${trivial_all[*]} (at ${trivial_rps[*]} req/s)"
echo "  node / trivial server: median $(median "${ratios[@]}")x (pairs: ${ratios[*]})"
echo "journal offset ${offset:-?}   data folder ${view} MiB"
if [ "${FOLLOW:-0}" = 1 ]; then
  bench/follow-catchup.sh 200000
fi
