#!/usr/bin/env bash
# How long a one-record edit of a JSONL knowledge base takes to be answered
# by a running server: `kedb serve --kb FILE` is started on the file (its
# caches built first if need be), then, EDITS times, one record's regex
# gets a new alternative, SIGHUP is sent, and /v1/match is asked for the new
# text until it returns that record. The time is from SIGHUP to that answer;
# rewriting the file comes before it. The server then compiles the whole
# file on a thread of its own (serve/engine_slot.h); the edits that follow
# are measured while it does, as happens when edits come in a row.
# The file is edited in place: run it on a generated knowledge base
# (bench/scale.sh makes them), not on one you keep.
#
#   bench/edit_reload.sh build/scale/1000000/kb.jsonl 5
set -uo pipefail
cd "$(dirname "$0")/.."
KEDB=$PWD/build/kedb
FILE=$(realpath "$1")
EDITS=${2:-5}
WORK=$(mktemp -d)
trap 'kill $(cat "$WORK"/serve.pid 2>/dev/null) 2>/dev/null; rm -rf "$WORK"' EXIT

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

"$KEDB" match --kb "$FILE" "warm up" > /dev/null 2>&1
"$KEDB" serve --kb "$FILE" --port 0 > "$WORK/serve.out" 2> "$WORK/serve.err" &
echo $! > "$WORK/serve.pid"
for _ in $(seq 1 6000); do grep -q 'listening on' "$WORK/serve.out" && break; sleep 0.05; done
url=$(sed -n 's/listening on //p' "$WORK/serve.out")
[ -n "$url" ] || { echo "the server did not start: $(cat "$WORK/serve.err")"; exit 1; }
# Waits for the first full compile's indexes: one match compiles them.
curl -sf "$url/v1/match" -d '{"text":"warm up"}' > /dev/null
records=$(wc -l < "$FILE")
times=()
for i in $(seq 1 "$EDITS"); do
  line=$(( (i * 7919 * 127) % records + 1 ))
  # Words of its own per edit: markers sharing words would make the edited
  # records look alike, and the answer abstain, compiled or not.
  word() { head -c 5 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr '0-9' 'g-p'; }
  marker="$(word)Error: $(word) $(word) failed"
  python3 - "$FILE" "$line" "$marker" <<'PY'
import json, sys
path, line, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, 'rb') as f:
    data = f.read()
start = 0
for _ in range(line - 1):
    start = data.index(b'\n', start) + 1
end = data.index(b'\n', start)
record = json.loads(data[start:end])
record['regex'] = record['regex'] + '|' + marker
new = json.dumps(record, ensure_ascii=False).encode()
with open(path + '.tmp', 'wb') as f:
    f.write(data[:start] + new + data[end:])
import os
os.replace(path + '.tmp', path)
print(record['id'], file=open(sys.argv[1] + '.probe-id', 'w'))
PY
  id=$(cat "$FILE.probe-id"); rm -f "$FILE.probe-id"
  t0=$(now_ms)
  kill -HUP "$(cat "$WORK/serve.pid")"
  while ! curl -sf "$url/v1/match" -d "{\"text\":\"$marker\"}" | grep -q "\"$id\""; do
    [ $(( $(now_ms) - t0 )) -gt 300000 ] && { echo "edit $i ($id): not live after 300 s"; break; }
    sleep 0.01
  done
  t=$(( $(now_ms) - t0 ))
  times+=("$t")
  health=$(curl -sf "$url/healthz")
  echo "edit $i ($id, line $line): live after $t ms; $(echo "$health" | python3 -c 'import json,sys; h=json.load(sys.stdin); print("layered_changes", h["layered_changes"], "full_compile_running", h["full_compile_running"])')"
done
rss=$(awk '/VmHWM/ {print $2}' "/proc/$(cat "$WORK/serve.pid")/status")
sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
echo "$(basename "$(dirname "$FILE")") records: SIGHUP to answer, $EDITS edits: $sorted ms; server peak RSS $(( rss / 1024 )) MB"
