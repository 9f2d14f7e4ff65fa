#!/usr/bin/env bash
# The installed package as a user gets it: `cmake --install` into a fresh
# prefix, then
#   - the installed `kedb` finds the installed knowledge base by itself;
#   - examples/embed builds against the installed CMake package and runs;
#   - the same program builds with `pkg-config --cflags --libs kedb`;
#   - the public headers compile on their own (no internal header leaks in).
#   - the shell completions and the man page are where bash-completion, zsh,
#     fish and man look for them.
#
#   install_test.sh BUILD_DIR
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(realpath "${1:?usage: install_test.sh BUILD_DIR}")"
cmake_bin="${CMAKE_COMMAND:-cmake}"
cxx="${CXX:-c++}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
message='RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0'

"$cmake_bin" --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/kedb share/kedb/kb include/kedb/engine.h lib/cmake/kedb/kedbConfig.cmake lib/pkgconfig/kedb.pc \
         lib/libkedb_engine.a; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f was not installed"; exit 1; }
done
for f in share/bash-completion/completions/kedb share/zsh/vendor-completions/_kedb \
         share/fish/vendor_completions.d/kedb.fish share/man/man1/kedb.1; do
  [ -s "$prefix/$f" ] || { echo "FAIL: $f was not installed, or is empty"; exit 1; }
done
grep -q '^complete -F _kedb kedb$' "$prefix/share/bash-completion/completions/kedb" ||
  { echo "FAIL: the installed bash completion does not register for kedb"; exit 1; }
if find "$prefix/include" -name '*.h' | xargs grep -l '#include "\(util\|regex\|record\|kb\|logs\|match\|search\|engine\|lint\)/' ; then
  echo "FAIL: an installed header includes an internal one"; exit 1
fi

# The command, away from the source tree, with no --kb.
out="$(cd "$work" && env -u KEDB_KB "$prefix/bin/kedb" match --top 1 --json "$message")"
grep -q '"id":"cuda/cudnn-bn-epsilon-nan"' <<< "$out" || { echo "FAIL: installed kedb: $out"; exit 1; }

# Each public header alone.
for h in "$prefix"/include/kedb/*.h; do
  echo "#include <kedb/$(basename "$h")>" > "$work/one.cc"
  "$cxx" -std=c++20 -fsyntax-only -I"$prefix/include" "$work/one.cc" || { echo "FAIL: $h does not compile alone"; exit 1; }
done

# find_package(kedb).
"$cmake_bin" -S "$repo/examples/embed" -B "$work/embed" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
"$cmake_bin" --build "$work/embed" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
out="$("$work/embed/kedb-embed-example" "$prefix/share/kedb/kb" "$message")"
echo "$out"
grep -q '^cuda/cudnn-bn-epsilon-nan (regex' <<< "$out" || { echo "FAIL: the CMake-built example answered wrongly"; exit 1; }
status=0
"$work/embed/kedb-embed-example" "$prefix/share/kedb/kb" "all is well" > /dev/null || status=$?
[ "$status" -eq 1 ] || { echo "FAIL: no match should exit 1, got $status"; exit 1; }

# pkg-config.
flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs kedb)"
# shellcheck disable=SC2086
"$cxx" -O1 "$repo/examples/embed/main.cc" -o "$work/pc-example" $flags
"$work/pc-example" "$prefix/share/kedb/kb" "$message" | grep -q '^cuda/cudnn-bn-epsilon-nan' ||
  { echo "FAIL: the pkg-config-built example answered wrongly"; exit 1; }
echo "ok: installed command, CMake package and pkg-config all work"
