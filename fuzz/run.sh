#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS, one at
# a time:
#   fuzz/run.sh SECONDS [TARGET...]      (default: every target)
# TARGET is a name such as python_regex. The build goes to $FUZZ_BUILD
# (default build-fuzz/ in the repository); the corpus each target grows is
# kept there between runs, crashes land in $FUZZ_BUILD/crashes/TARGET/.
# Prints one line per target and exits 1 when any target crashed.
set -euo pipefail
export LC_ALL=C  # one sort order for ls and comm

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:?usage: fuzz/run.sh SECONDS [TARGET...]}"
shift
all=(record_loader python_regex log_blocks http_request mcp_handler tokenizer mine_thread)
targets=("${@:-${all[@]}}")
build="${FUZZ_BUILD:-$repo/build-fuzz}"

# Longest input per target: a log piece may span chunks, a request or MCP
# message carries a small log, patterns and words are short.
declare -A max_len=([record_loader]=65536 [python_regex]=4096 [log_blocks]=65536
                    [http_request]=16384 [mcp_handler]=16384 [tokenizer]=4096 [mine_thread]=32768)
declare -A dict=([record_loader]=json [python_regex]=regex [log_blocks]=log
                 [http_request]=http [mcp_handler]=json [tokenizer]=log [mine_thread]=json)
for t in "${targets[@]}"; do
  [[ -n "${max_len[$t]:-}" ]] || { echo "unknown target $t (one of: ${all[*]})" >&2; exit 2; }
done

mkdir -p "$build"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-15 -DKEDB_FUZZ=ON -DKEDB_WERROR=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; exit 2; }
cmake --build "$build" -j2 --target "${targets[@]/%/_fuzz}"
bash "$repo/fuzz/seeds.sh" "$build/seeds" > /dev/null

# Undefined behaviour counts as a crash (the libraries are built with
# recoverable UBSan checks).
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# Stacks get function names only when the symbolizer is named explicitly
# (clang-15's sanitizers look for llvm-symbolizer-15's own path otherwise).
if [[ -z "${ASAN_SYMBOLIZER_PATH:-}" ]]; then
  symbolizer="$(command -v llvm-symbolizer-15 || command -v llvm-symbolizer || true)"
  [[ -z "$symbolizer" ]] || export ASAN_SYMBOLIZER_PATH="$symbolizer"
fi

status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/crashes/$t" "$build/logs"
  log="$build/logs/$t.log"
  before="$(ls "$build/crashes/$t")"
  # New inputs go to corpus/ (kept between runs); seeds/ is only read.
  # libFuzzer stops at the first crash, leak, timeout or out-of-memory.
  "$build/fuzz/${t}_fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 \
    -max_len="${max_len[$t]}" -dict="$repo/fuzz/dicts/${dict[$t]}.dict" \
    -artifact_prefix="$build/crashes/$t/" -print_final_stats=1 \
    "$build/corpus/$t" "$build/seeds/$t" > "$log" 2>&1 || true
  # The last status line: "#123456	DONE   cov: 2345 ft: ..." (or "pulse",
  # "NEW", ... when the run stopped at a crash).
  last="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  execs="$(sed -E 's/^#([0-9]+).*/\1/' <<< "$last")"
  cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<< "$last")"
  new="$(comm -13 <(echo "$before") <(ls "$build/crashes/$t"))"
  crashes="$(grep -c . <<< "$new" || true)"
  echo "fuzz $t: ${execs:-0} execs, ${cov:-0} cov, $crashes crashes"
  if [[ "$crashes" -gt 0 ]]; then
    status=1
    sed "s|^|  $build/crashes/$t/|" <<< "$new"
    echo "  log: $log"
  fi
done
exit "$status"
