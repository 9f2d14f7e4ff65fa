#!/usr/bin/env bash
# Load test of `kedb serve`: wrk against POST /v1/match on the bundled
# knowledge base and, when ../shared is there, on the 2,522-record corpus.
# Prints requests per second, p50/p99 latency, wrong answers, the server's
# CPU use in cores, and its memory before and after. Needs wrk
# (apt-get install wrk). Usage: bash bench/load/serve_load.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
KEDB=${KEDB:-./build/kedb}
SECONDS_PER_RUN=${1:-15}
CONNECTIONS=${CONNECTIONS:-16}
CORPUS=${KEDB_CORPUS:-../shared/corpora/deadends/canons}
command -v wrk >/dev/null || { echo "serve_load: wrk is not installed (apt-get install wrk)"; exit 1; }

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mib() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

run() {  # NAME KB MESSAGE
  local name=$1 kb=$2 out pid url
  export KEDB_BODY="{\"text\":\"$3\",\"top\":3}"
  out=$(mktemp)
  $KEDB serve --kb "$kb" --port 0 >"$out" 2>/dev/null &
  pid=$!
  for _ in $(seq 600); do grep -q listening "$out" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$out")
  [ -n "$url" ] || { echo "serve_load: $name: the server did not start"; kill $pid; return 1; }
  wrk -t2 -c"$CONNECTIONS" -d2s -s bench/load/match.lua "$url/v1/match" >/dev/null  # warm up
  local rss0 t0 c0 result t1 c1 hz
  rss0=$(rss_mib $pid); c0=$(cpu_ticks $pid); t0=$(date +%s.%N)
  result=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s bench/load/match.lua "$url/v1/match" | grep kedb-load)
  t1=$(date +%s.%N); c1=$(cpu_ticks $pid); hz=$(getconf CLK_TCK)
  printf '%-8s %s server_cores=%.2f rss_mib=%s->%s\n' "$name" "${result#kedb-load: }" \
    "$(awk -v c="$((c1 - c0))" -v hz="$hz" -v a="$t0" -v b="$t1" 'BEGIN {print c / hz / (b - a)}')" "$rss0" "$(rss_mib $pid)"
  kill $pid; wait $pid 2>/dev/null || true
  rm -f "$out"
}

echo "wrk: 2 threads, $CONNECTIONS connections, ${SECONDS_PER_RUN} s per run, $(nproc) cores shared by wrk and the server"
# Each knowledge base gets a message it knows, so every request goes through
# the patterns, the ranking and rendering a full answer.
run bundled kb "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0"
if [ -d "$CORPUS" ]; then
  run corpus "$CORPUS" "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
else echo "corpus: skipped ($CORPUS is absent)"; fi
