#!/usr/bin/env bash
# bench/at-size.sh for two builds, alternated, on this machine:
#   bench/at-size-compare.sh OLD.jar NEW.jar [ROUNDS=1] [FILL_SECONDS=120] [READ_SECONDS=30]
# Each round runs the whole at-size sequence (reads over 1,000 ids, the fill, reads at size right
# after and once compactions settle) on a fresh node of the old build, then of the new one, and
# prints both summaries; the two ratios are what to compare, since the machine drifts between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(readlink -f "$1"); new=$(readlink -f "$2"); rounds=${3:-1}; fill=${4:-120}; secs=${5:-30}
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    jar=$old; [ "$side" = new ] && jar=$new
    echo "== round $r, $side build"
    bench/at-size.sh "$jar" "$fill" "$secs" "/tmp/quire-at-size-$side"
    rm -rf "/tmp/quire-at-size-$side"
  done
done
