#!/usr/bin/env bash
# Plan and apply of a folder of N subjects against a dev node (schemas as code, docs/schemas-as-code.md):
#   bench/schemas-as-code.sh JAR [SUBJECTS=1000]
# Starts a fresh `dev` node (embedded broker, heap 1 GiB), writes a folder of N Avro subjects (each
# fifth one references a shared record, every subject with its own compatibility level), then times:
# the first plan (everything to create), apply, a plan of the applied folder (nothing to do), a
# plan after one subject in ten gained a compatible field, and its apply. Prints each step's wall
# time and exit code.
set -euo pipefail
jar=$(readlink -f "$1"); n=${2:-1000}
work=$(mktemp -d /tmp/quire-sac.XXXX)
http=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
java -Xmx1g -jar "$jar" dev --data-dir "$work/data" --port "$http" > "$work/node.log" 2>&1 &
node=$!
trap 'kill $node 2>/dev/null; wait $node 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 240); do curl -sf "localhost:$http/health/ready" >/dev/null && break; sleep 0.5; done
dir="$work/schemas"; mkdir -p "$dir/shared"
echo '{"type":"record","name":"Money","namespace":"acme.shared","fields":[{"name":"cents","type":"long"}]}' \
  > "$dir/shared/money.avsc"
write() { # write SUBJECT_INDEX EXTRA_FIELD
  local i=$1 extra=$2 ref=""
  if (( i % 5 == 0 )); then
    ref=',{"name":"total","type":["null","acme.shared.Money"],"default":null}'
    printf 'compatibility: BACKWARD\nreferences:\n  - name: acme.shared.Money\n    subject: shared/money\n    version: latest\n' \
      > "$dir/topic-$i-value.yaml"
  else
    printf 'compatibility: BACKWARD\n' > "$dir/topic-$i-value.yaml"
  fi
  echo "{\"type\":\"record\",\"name\":\"Event$i\",\"namespace\":\"acme.t$i\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}$ref$extra]}" \
    > "$dir/topic-$i-value.avsc"
}
for i in $(seq 1 "$n"); do write "$i" ""; done
step() { # step NAME COMMAND...
  local name=$1; shift
  local t0 t1 code=0
  t0=$(date +%s%N)
  java -jar "$jar" "$@" --registry "http://127.0.0.1:$http" --dir "$dir" > "$work/$name.out" 2>&1 || code=$?
  t1=$(date +%s%N)
  printf '%-28s %6d ms  exit %d  %s\n' "$name" $(( (t1 - t0) / 1000000 )) "$code" "$(tail -1 "$work/$name.out")"
}
echo "$n subjects (+1 shared), node on :$http"
step "plan (all new)" plan
step "apply (all new)" apply
step "plan (nothing to do)" plan
for i in $(seq 10 10 "$n"); do write "$i" ',{"name":"note","type":"string","default":""}'; done
step "plan (1 in 10 changed)" plan
step "apply (1 in 10 changed)" apply
step "plan (nothing to do)" plan
