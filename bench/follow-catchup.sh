#!/usr/bin/env bash
# How fast a node following a Confluent registry catches up its _schemas topic: RECORDS schema
# records over SUBJECTS subjects (each record a new version of a subject drawn at random, seeded),
# written to the in-process broker before the follower starts; prints records/s from the node's
# start to the last record copied. Runs FollowConfluentIT#catchUpRate, which the test suite skips.
#
#   bench/follow-catchup.sh [RECORDS] [SUBJECTS] [WINDOW] [RUN]
#   bench/follow-catchup.sh 200000 20000        # the default shape: ten versions a subject
#   bench/follow-catchup.sh 200000 2000         # long histories: a hundred versions a subject
#   bench/follow-catchup.sh 200000 20000 256 1  # as the build before runs: a journal record per source record
#
# WINDOW: steps in flight at most (default 4096); RUN: plain new versions sent as one journal
# record at most (default 256; 1 sends a record per source record).
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${1:-200000}
SUBJECTS=${2:-$((RECORDS / 10))}
WINDOW=${3:-4096}
RUN=${4:-256}
mvn -B -q -o install -DskipTests -pl journal,registry-client,id-allocator >/dev/null
mvn -B -o verify -pl query-node -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test='FollowConfluentIT#catchUpRate' -Dquire.follow.bench.records="$RECORDS" \
    -Dquire.follow.bench.subjects="$SUBJECTS" -Dquire.follow.window="$WINDOW" -Dquire.follow.run="$RUN" 2>&1 | grep -a 'follow bench'
