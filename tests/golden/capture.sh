#!/usr/bin/env bash
# Captures what every command and endpoint answers, for a change that must
# not alter behaviour: capture before, capture after, `diff -r` the two.
#
#   bash tests/golden/capture.sh OUT_DIR [KEDB_BINARY]
#
# One file per invocation: stdout, then stderr and the exit status. Covers
# the bundled knowledge base on the example logs and, when ../shared is
# there, the 2,522-record corpus on its 20 scenarios and the same logs.
# Values that differ between runs (load times, temporary paths) are masked.
set -euo pipefail
export LC_ALL=C.UTF-8
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: capture.sh OUT_DIR [KEDB_BINARY]}"
kedb="$(realpath "${2:-$repo/build/kedb}")"
corpus="$repo/../shared/corpora/deadends"
mkdir -p "$out"
out="$(realpath "$out")"
cd "$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mask() { sed -e "s#$work#TMP#g" -e "s#$repo#REPO#g" -e 's/"loaded_at":[0-9]*/"loaded_at":0/g'; }

# run NAME ARGS...: `kedb ARGS...` (stdin from $STDIN) into OUT/NAME.
run() {
  local name=$1 status=0
  shift
  "$kedb" "$@" > "$work/stdout" 2> "$work/stderr" < "${STDIN:-/dev/null}" || status=$?
  { mask < "$work/stdout"; echo "--- stderr"; mask < "$work/stderr"; echo "--- exit $status"; } > "$out/$name"
}

capture_cli() {  # PREFIX KB MESSAGES_FILE
  local p=$1 kb=$2 messages=$3 i=0 m log b q id f
  while IFS= read -r m; do
    i=$((i + 1))
    run "$p.match.$i.txt" match --kb "$kb" "$m"
    run "$p.match.$i.json" match --kb "$kb" --json --top 3 "$m"
    run "$p.match.$i.zh.txt" match --kb "$kb" --lang zh --env "torch=2.2,os=linux" "$m"
  done < "$messages"
  python3 -c 'import json,sys; [print(json.dumps({"text": l.rstrip("\n")})) for l in sys.stdin]' \
    < "$messages" > "$work/batch.jsonl"
  STDIN="$work/batch.jsonl" run "$p.match.batch.jsonl" match --kb "$kb" --batch
  STDIN="$work/batch.jsonl" run "$p.match.batch.json.jsonl" match --kb "$kb" --batch --json
  for log in examples/*.log; do
    b=$(basename "$log" .log)
    run "$p.scan.$b.txt" scan --kb "$kb" "$log"
    run "$p.scan.$b.zh.txt" scan --kb "$kb" --lang zh "$log"
    run "$p.scan.$b.json" scan --kb "$kb" --json --threads 1 "$log"
    run "$p.scan.$b.all.json" scan --kb "$kb" --json --all-lines --threads 2 "$log"
    run "$p.cluster.$b.json" cluster --kb "$kb" --json "$log"
  done
  STDIN=examples/pytest-cuda.log run "$p.scan.stdin.txt" scan --kb "$kb" -
  run "$p.scan.missing.txt" scan --kb "$kb" no-such.log
  run "$p.cluster.all.txt" cluster --kb "$kb" examples/*.log
  for q in "cudnn bad param" "out of memory" "显存不足" "module not found" "zzzz"; do
    run "$p.search.${q// /_}.txt" search --kb "$kb" "$q"
    run "$p.search.${q// /_}.json" search --kb "$kb" --json "$q"
  done
  run "$p.search.domain.json" search --kb "$kb" --json --domain cuda "error"
  run "$p.stats.txt" stats --kb "$kb"
  run "$p.stats.json" stats --kb "$kb" --json
  run "$p.lint.txt" lint --kb "$kb"
  run "$p.lint.json" lint --kb "$kb" --json
  # Every seventh record, shown and chained, in both languages.
  while IFS= read -r id; do
    f=${id//\//_}
    run "$p.show.$f.txt" show --kb "$kb" "$id"
    run "$p.show.$f.zh.txt" show --kb "$kb" --lang zh "$id"
    run "$p.show.$f.json" show --kb "$kb" --json "$id"
    run "$p.chain.$f.txt" chain --kb "$kb" "$id"
    run "$p.chain.$f.json" chain --kb "$kb" --json --depth 2 "$id"
  done < <(awk 'NR % 7 == 1' "$work/ids")
  run "$p.show.missing.txt" show --kb "$kb" "cuda/no-such-record"
}

capture_kb() {  # PREFIX KB MESSAGES_FILE
  local p=$1 kb=$2 messages=$3 url pid
  "$kedb" serve --kb "$kb" --port 0 > "$work/serve.out" 2> /dev/null &
  pid=$!
  for _ in $(seq 600); do grep -q listening "$work/serve.out" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$work/serve.out")
  python3 "$repo/tests/golden/capture_wire.py" "$url" "$kedb" "$kb" "$messages" "$out/$p" "$work/ids"
  kill "$pid"
  wait "$pid" 2> /dev/null || true
  for f in "$out/$p".http.* "$out/$p".mcp.*; do mask < "$f" > "$work/m" && mv "$work/m" "$f"; done
  capture_cli "$p" "$kb" "$messages"
}

cat > "$work/bundled.txt" <<'MESSAGES'
RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
RuntimeError: CUDA error: out of memory
NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version 2.14.3
ModuleNotFoundError: No module named 'torch'
Segmentation fault (core dumped)
everything is fine
MESSAGES
capture_kb bundled kb "$work/bundled.txt"

if [ -d "$corpus/canons" ]; then
  python3 -c 'import json,sys; [print(s["error_message"]) for s in json.load(open(sys.argv[1]))]' \
    "$corpus/error_scenarios.json" > "$work/corpus.txt"
  capture_kb corpus "$corpus/canons" "$work/corpus.txt"
else
  echo "capture: the corpus part is skipped ($corpus is absent)" >&2
fi
echo "capture: $(ls "$out" | wc -l) files in $out"
