#!/usr/bin/env bash
# The bench suite: bench/run.sh [--full] [--duration S] [--warmup S] [--sizes 10000,50000] [--out DIR]
# Builds Quire and the bench, installs PostgreSQL from Debian if it is missing (for the single-row
# sequence baseline) and wrk (for the steady stage), then runs everything on this machine and writes bench/results/<time>/report.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "PostgreSQL not found and cannot be installed here: the sequence baseline will be skipped" >&2
  fi
fi
if ! command -v wrk >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  # The steady-state stage drives its load with wrk (it falls back to the suite's own generator).
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk) >/dev/null 2>&1 \
    || echo "wrk could not be installed: the steady stage will use the suite's own load generator" >&2
fi
mvn -B -q -DskipTests package
cores=$(nproc)
if [ "$cores" -ge 4 ] && command -v taskset >/dev/null; then
  # Servers on the first half of the cores, the load generator on the second half.
  half=$((cores / 2))
  export QUIRE_BENCH_SERVER_CPUS="0-$((half - 1))"
  exec taskset -c "$half-$((cores - 1))" java -Xmx1g -Djava.awt.headless=true -jar bench/target/quire-bench.jar "$@"
fi
exec java -Xmx1g -Djava.awt.headless=true -jar bench/target/quire-bench.jar "$@"
