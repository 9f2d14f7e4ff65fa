#!/usr/bin/env bash
# Starts `kedb serve` on the bundled knowledge base and runs
# slowloris.mjs against it (needs Node). Usage:
#   bash bench/load/slowloris.sh [CONNS=1000] [SECONDS=20]
set -euo pipefail
cd "$(dirname "$0")/../.."
KEDB=${KEDB:-./build/kedb}
ulimit -n "$(ulimit -Hn)"
out=$(mktemp)
$KEDB serve --kb kb --port 0 >"$out" 2>/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 600); do grep -q listening "$out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$out")
node bench/load/slowloris.mjs "$url" "${1:-1000}" "${2:-20}"
echo "slowloris: server peak rss_mib $(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")"
