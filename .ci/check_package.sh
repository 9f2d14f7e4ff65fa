#!/usr/bin/env bash
# After the .deb is installed: the command runs from /usr/bin with the
# knowledge base it brought, its shell completions and man page are in
# place, and examples/embed builds against the package
# (find_package and pkg-config) and answers.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
message='RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0'

[ "$(command -v kedb)" = /usr/bin/kedb ] || { echo "FAIL: kedb is not /usr/bin/kedb"; exit 1; }
for f in /usr/share/bash-completion/completions/kedb /usr/share/zsh/vendor-completions/_kedb \
         /usr/share/fish/vendor_completions.d/kedb.fish /usr/share/man/man1/kedb.1; do
  [ -s "$f" ] || { echo "FAIL: the package did not install $f"; exit 1; }
done
(cd "$work" && env -u KEDB_KB kedb match --top 1 "$message") | grep -q 'cuda/cudnn-bn-epsilon-nan'
cmake -S examples/embed -B "$work/embed" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/embed" >/dev/null
"$work/embed/kedb-embed-example" /usr/share/kedb/kb "$message" | grep -q '^cuda/cudnn-bn-epsilon-nan'
# shellcheck disable=SC2046
c++ -O1 examples/embed/main.cc -o "$work/pc-example" $(pkg-config --cflags --libs kedb)
"$work/pc-example" /usr/share/kedb/kb "$message" | grep -q '^cuda/cudnn-bn-epsilon-nan'
echo "package ok: $(dpkg-query -W -f='${Package} ${Version}' kedb), /usr/bin/kedb, find_package and pkg-config"
