#!/usr/bin/env bash
# Registrations of new subjects by two builds, alternated, on this machine:
#   bench/write-compare.sh OLD.jar NEW.jar [ROUNDS=2] [CONNECTIONS=200] [SECONDS=30]
# Each round starts a fresh `dev` node of each build in turn (embedded broker, heap 1 GiB), warms it
# up with WARMUP (30) s of wrk and then until the JIT is quiet (cpu-compare.sh's JIT_WAIT), then measures SECONDS of `wrk -t2 -cCONNECTIONS` with bench/wrk/register.lua
# (every request a new subject; SCRIPT=bench/wrk/evolve.lua evolves 20 subjects per wrk thread
# instead) and prints requests/s, p99, non-2xx answers and the node's CPU per request
# (bench/cpu-compare.sh, with these arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
exec bench/cpu-compare.sh "$1" "$2" "${3:-2}" "${SCRIPT:-bench/wrk/register.lua}" "${WARMUP:-30}" "${5:-30}" "${4:-200}"
