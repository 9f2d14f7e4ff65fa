#!/usr/bin/env bash
# The scale benchmark: kedb on generated knowledge bases of growing size.
#
#   bash bench/scale.sh                        # 10k and 100k records
#   SIZES="10000 100000 1000000" bash bench/scale.sh
#   BASELINE=/path/to/older/kedb bash bench/scale.sh   # the same CLI runs with another build, side by side
#
# For each size it reports, as a Markdown table:
#   - the first `match` (compiles and caches everything a match needs):
#     seconds and peak RSS;
#   - warm `show ID`, `match TEXT` and `search WORDS` as whole processes:
#     median of 5 runs in ms, and peak RSS;
#   - in-process Engine::Match p50 and p99 on messages of random records
#     (kedb-scale probe), the first time (patterns compiled on first use)
#     and again;
#   - `scan` of a 50 MB log as a whole process, in MB/s.
# Wall-clock figures depend on the machine; compare rows of one run.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
KEDB=$PWD/$BUILD/kedb
SCALE=$PWD/$BUILD/kedb-scale
SIZES=${SIZES:-"10000 100000"}
WORK=${WORK:-$BUILD/scale}
LOG_MB=${LOG_MB:-50}
mkdir -p "$WORK"

# Seconds and peak RSS (MB) of one command: "S MB".
measure() {
  local t=$WORK/time.out
  /usr/bin/time -o "$t" -f '%e %M' "$@" >/dev/null 2>&1 || true
  awk 'END { printf "%.3f %.0f", $1, $2 / 1024 }' "$t"
}

# Median ms and max RSS of 5 runs of one command: "MS MB".
warm() {
  local runs=() mb=0 s m
  for _ in 1 2 3 4 5; do
    read -r s m <<<"$(measure "$@")"
    runs+=("$s")
    (( m > mb )) && mb=$m
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p | awk -v mb="$mb" '{ printf "%.0f %s", $1 * 1000, mb }'
}

# One row of the table for the kedb binary $1 on the knowledge base $2.
row() {
  local bin=$1 kb=$2 n=$3 label=$4
  rm -rf "$(dirname "$kb")/.kedb-cache"
  local first show match search scan probe
  local id msg
  id=$(sed -n 1p "$kb" | sed 's/^{"id":"\([^"]*\)".*/\1/')
  msg=$(sed -n 1p "$kb" | sed 's/.*"signature":"\([^"]*\)".*/\1/')
  # A match and a search build every cache: the snapshot, the pattern
  # database, the similarity and search indexes.
  first=$(measure "$bin" match --kb "$kb" -- "$msg")
  "$bin" search --kb "$kb" "replica segment compact" >/dev/null 2>&1 || true
  show=$(warm "$bin" show --kb "$kb" "$id")
  match=$(warm "$bin" match --kb "$kb" -- "$msg")
  search=$(warm "$bin" search --kb "$kb" "replica segment compact")
  read -r scan_s _ <<<"$(measure "$bin" scan --kb "$kb" --format json "$WORK/bench.log")"
  probe="– / –"
  if [[ $label == current ]]; then
    probe=$("$SCALE" probe --kb "$kb" --records "$n" --queries 2000 |
      sed 's/.*"known_p50_us": \([0-9.]*\), "known_p99_us": \([0-9.]*\), "again_p50_us": \([0-9.]*\), "again_p99_us": \([0-9.]*\).*/\1 \/ \2 µs; again \3 \/ \4 µs/')
  fi
  read -r first_s first_mb <<<"$first"
  printf '| %s | %s | %s s, %s MB | %s | %s | %s | %s | %s |\n' "$n" "$label" "$first_s" "$first_mb" \
    "$(awk '{ print $1 " ms, " $2 " MB" }' <<<"$show")" "$(awk '{ print $1 " ms, " $2 " MB" }' <<<"$match")" \
    "$(awk '{ print $1 " ms, " $2 " MB" }' <<<"$search")" "$probe" \
    "$(awk -v s="$scan_s" -v mb="$LOG_MB" 'BEGIN { printf "%.0f MB/s", mb / s }')"
}

echo "| records | build | first call | show | match | search | match in process p50 / p99 | scan ${LOG_MB} MB |"
echo "|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
  dir=$WORK/$n
  mkdir -p "$dir"
  if [[ ! -s $dir/kb.jsonl ]]; then
    "$SCALE" gen --records "$n" --out "$dir/kb.jsonl" --log "$WORK/bench.log" --log-mb "$LOG_MB"
  elif [[ ! -s $WORK/bench.log ]]; then
    "$SCALE" gen --records "$n" --out /dev/null --log "$WORK/bench.log" --log-mb "$LOG_MB"
  fi
  # kedb caches a snapshot only of files a few seconds old (see
  # src/kb/snapshot.h): date the new file back so the warm runs are warm.
  touch -d '-1 minute' "$dir/kb.jsonl"
  row "$KEDB" "$dir/kb.jsonl" "$n" current
  if [[ -n ${BASELINE:-} ]]; then
    mkdir -p "$dir/baseline"
    cp -fp "$dir/kb.jsonl" "$dir/baseline/kb.jsonl"
    row "$BASELINE" "$dir/baseline/kb.jsonl" "$n" baseline
  fi
done
