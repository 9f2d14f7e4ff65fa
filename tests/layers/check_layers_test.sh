#!/usr/bin/env bash
# The layer check (cmake/check_layers.cmake) on the real tree, which must
# pass, and on copies with one backward include each, which must fail and
# name the file, the line and the two layers.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cmake_bin="${CMAKE_COMMAND:-cmake}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

check() {  # TREE -> output; status of the check
  "$cmake_bin" -DSOURCE_DIR="$1" -DSTAMP="$work/stamp" -P "$repo/cmake/check_layers.cmake" 2>&1
}

check "$repo" > "$work/out" || { echo "FAIL: the tree itself breaks the layer order:"; cat "$work/out"; exit 1; }

expect_refused() {  # FILE LINE WHAT
  local tree="$work/tree"
  rm -rf "$tree"
  mkdir -p "$tree"
  cp -r "$repo/cmake" "$repo/src" "$tree/"
  printf '%s\n' "$2" >> "$tree/$1"
  if check "$tree" > "$work/out"; then
    echo "FAIL: $1 with '$2' passed the layer check"
    exit 1
  fi
  grep -qF "$3" "$work/out" || { echo "FAIL: the message does not say '$3':"; cat "$work/out"; exit 1; }
  echo "ok: $1 including '$2' is refused"
}
expect_refused src/logs/blocks.h '#include "engine/candidate.h"' "src/logs/blocks.h: #include \"engine/candidate.h\": layer logs may not include layer engine"
expect_refused src/util/utf8.h '#include "kedb/engine.h"' "layer util may not include layer engine"
expect_refused src/match/rank.cc '#include "search/bm25.h"' "layer match may not include layer search"
expect_refused src/kb/graph.cc '#include "kedb/brand_new.h"' "kedb/brand_new.h is not assigned a layer"
