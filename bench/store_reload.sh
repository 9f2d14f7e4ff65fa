#!/usr/bin/env bash
# How long a record written into a store takes to be answered by a server
# following it (`kedb serve --kb STORE`): from the start of
# `kedb import ... --into STORE` to the first /v1/match that returns the
# new record, ten times per backend, on the bundled knowledge base. The
# import's own process start is included: it is what a person waits for.
# PostgreSQL runs on a throwaway server (tests/pg/server.sh) when one can
# be started.
set -uo pipefail
cd "$(dirname "$0")/.."
KEDB=$PWD/build/kedb
WORK=$(mktemp -d); chmod 755 "$WORK"  # the PostgreSQL server runs as its own user
trap 'kill $(cat "$WORK"/serve.pid 2>/dev/null) 2>/dev/null; bash tests/pg/server.sh stop "$WORK/pg"; rm -rf "$WORK"' EXIT

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

measure() {  # store spec, label
  local kb=$1 label=$2
  "$KEDB" import native kb --into "$kb" > /dev/null || { echo "$label: import failed"; return; }
  "$KEDB" serve --kb "$kb" --store "$WORK/o-$label.sqlite" --port 0 > "$WORK/serve.out" 2> "$WORK/serve.err" &
  echo $! > "$WORK/serve.pid"
  for _ in $(seq 1 200); do grep -q 'listening on' "$WORK/serve.out" && break; sleep 0.05; done
  local url; url=$(sed -n 's/listening on //p' "$WORK/serve.out")
  local times=()
  for i in $(seq 1 10); do
    mkdir -p "$WORK/r$i"
    printf '{"id":"t/bench-%s","signature":"BenchReloadError%s: probe","regex":"BenchReloadError%s: probe","domain":"t","root_cause":"A probe record.","workarounds":[{"action":"None","success_rate":0.5}]}' \
      "$i" "$i" "$i" > "$WORK/r$i/r.json"
    local t0; t0=$(now_ms)
    "$KEDB" import native "$WORK/r$i" --into "$kb" > /dev/null
    while ! curl -sf "$url/v1/match" -d "{\"text\":\"BenchReloadError$i: probe\"}" | grep -q "t/bench-$i"; do
      [ $(( $(now_ms) - t0 )) -gt 10000 ] && { echo "$label: record $i not live after 10 s"; break; }
      sleep 0.005
    done
    times+=($(( $(now_ms) - t0 )))
  done
  kill "$(cat "$WORK/serve.pid")"; wait 2>/dev/null
  sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
  read -r -a s <<< "$sorted"
  echo "$label: write to answer, 10 changes: median ${s[4]} ms, max ${s[9]} ms (all: $sorted)"
}

measure "sqlite:$WORK/records.sqlite" sqlite
bash tests/pg/server.sh start "$WORK/pg"
if [ -s "$WORK/pg/url" ]; then
  measure "$(cat "$WORK/pg/url")" postgresql
else
  echo "postgresql: skipped: $(cat "$WORK/pg/missing")"
fi
