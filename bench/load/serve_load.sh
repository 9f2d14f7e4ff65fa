#!/usr/bin/env bash
# Load test of `kedb serve`: wrk against POST /v1/match on the bundled
# knowledge base and, when ../shared is there, on the 2,522-record corpus,
# at each connection count in CONNECTIONS. Prints requests per second,
# p50/p99 latency, wrong answers and socket errors, the server's CPU use in
# cores, and its memory before and after. Needs wrk (apt-get install wrk).
#
#   bash bench/load/serve_load.sh [SECONDS]      # 15 s per run
#   CONNECTIONS="64" SOAK=300 bash bench/load/serve_load.sh
#     SOAK: also hold the first count for SOAK seconds on the bundled
#     knowledge base, printing the server's memory every 30 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
KEDB=${KEDB:-./build/kedb}
SECONDS_PER_RUN=${1:-15}
CONNECTIONS=${CONNECTIONS:-10 64 256 1024}
SOAK=${SOAK:-0}
CORPUS=${KEDB_CORPUS:-../shared/corpora/deadends/canons}
command -v wrk >/dev/null || { echo "serve_load: wrk is not installed (apt-get install wrk)"; exit 1; }
ulimit -n "$(ulimit -Hn)"  # wrk needs a descriptor per connection

cpu_ticks() {  # PID...: user and system ticks summed
  local p
  for p; do cat "/proc/$p/stat"; done | awk '{ sum += $14 + $15 } END { print sum }'
}
rss_mib() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

measure() {  # NAME "PID..." URL CONNECTIONS SECONDS [PATH]
  local name=$1 pid=$2 url=$3 c=$4 secs=$5 path=${6:-/v1/match} result t0 c0 rss0 t1 c1 hz
  wrk -t2 -c"$c" -d2s -s bench/load/match.lua "$url$path" >/dev/null  # warm up
  # shellcheck disable=SC2086  # several pids for nginx's workers
  t0=$(date +%s.%N); c0=$(cpu_ticks $pid); rss0=$(rss_mib "${pid%% *}")
  result=$(wrk -t2 -c"$c" -d"${secs}s" --timeout 10s --latency -s bench/load/match.lua "$url$path" | grep kedb-load)
  # shellcheck disable=SC2086
  t1=$(date +%s.%N); c1=$(cpu_ticks $pid); hz=$(getconf CLK_TCK)
  printf '%-8s c=%-5s %s server_cores=%.2f rss_mib=%s->%s\n' "$name" "$c" "${result#kedb-load: }" \
    "$(awk -v c="$((c1 - c0))" -v hz="$hz" -v a="$t0" -v b="$t1" 'BEGIN {print c / hz / (b - a)}')" "$rss0" \
    "$(rss_mib "${pid%% *}")"
}

soak() {  # PID URL CONNECTIONS
  local pid=$1 url=$2 c=$3 wrk_pid
  echo "soak: c=$c for ${SOAK} s; server rss_mib every 30 s:"
  wrk -t2 -c"$c" -d"${SOAK}s" --timeout 10s -s bench/load/match.lua "$url/v1/match" >/tmp/kedb-soak.$$ &
  wrk_pid=$!
  local line="soak: rss_mib"
  for ((t = 0; t < SOAK; t += 30)); do line+=" $(rss_mib "$pid")"; sleep 30; done
  wait $wrk_pid
  echo "$line $(rss_mib "$pid")"
  grep kedb-load /tmp/kedb-soak.$$ | sed 's/^kedb-load:/soak:/'
  rm -f /tmp/kedb-soak.$$
}

run() {  # NAME KB MESSAGE
  local name=$1 kb=$2 out pid url
  export KEDB_BODY="{\"text\":\"$3\",\"top\":3}"
  out=$(mktemp)
  $KEDB serve --kb "$kb" --port 0 >"$out" 2>/dev/null &
  pid=$!
  for _ in $(seq 600); do grep -q listening "$out" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$out")
  [ -n "$url" ] || { echo "serve_load: $name: the server did not start"; kill $pid; return 1; }
  for c in $CONNECTIONS; do measure "$name" "$pid" "$url" "$c" "$SECONDS_PER_RUN"; done
  if [ "$SOAK" -gt 0 ] && [ "$name" = bundled ]; then soak "$pid" "$url" "${CONNECTIONS%% *}"; fi
  echo "$name: server peak rss_mib $(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")"
  kill $pid; wait $pid 2>/dev/null || true
  rm -f "$out"
}

# nginx serving the bundled answer as a file, fetched with GET.
baseline() {
  local dir url port pids
  dir=$(mktemp -d)
  chmod 755 "$dir"  # nginx's workers run as an unprivileged user
  $KEDB match --json --top 3 "$1" > "$dir/answer.json" || true
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat > "$dir/nginx.conf" <<CONF
worker_processes $(nproc);
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  server { listen 127.0.0.1:$port; location / { root $dir; default_type application/json; } }
}
CONF
  nginx -c "$dir/nginx.conf" -p "$dir" 2>/dev/null || { echo "nginx: did not start"; rm -rf "$dir"; return; }
  sleep 0.5
  pids=$(pgrep -d ' ' -P "$(cat "$dir/nginx.pid")")
  url="http://127.0.0.1:$port"
  for c in $CONNECTIONS; do
    KEDB_METHOD=GET measure nginx "$pids" "$url" "$c" "$SECONDS_PER_RUN" /answer.json
  done
  nginx -c "$dir/nginx.conf" -p "$dir" -s stop 2>/dev/null
  sleep 0.5
  rm -rf "$dir"
}

echo "wrk: 2 threads, ${SECONDS_PER_RUN} s per run, $(nproc) cores shared by wrk and the server"
# Each knowledge base gets a message it knows, so every request goes through
# the patterns, the ranking and rendering a full answer.
run bundled kb "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0"
if [ -d "$CORPUS" ]; then
  run corpus "$CORPUS" "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
else echo "corpus: skipped ($CORPUS is absent)"; fi
if command -v nginx >/dev/null; then
  echo "baseline: nginx serving the same answer as a static file (no work per request)"
  baseline "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0"
else echo "baseline: skipped (nginx is not installed)"; fi
