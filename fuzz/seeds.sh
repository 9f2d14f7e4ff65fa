#!/usr/bin/env bash
# Builds a seed folder per fuzz target from the repository's own files:
#   fuzz/seeds.sh OUT_DIR
# OUT_DIR/<target>/ is emptied and filled anew. Needs bash, coreutils and
# awk only (no python3 or jq), so that it runs wherever the build does.
# The deadends.dev corpus in ../shared (or $KEDB_SHARED_DIR) adds canon
# records and their patterns when it is there.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: fuzz/seeds.sh OUT_DIR}"
shared="${KEDB_SHARED_DIR:-$repo/../shared}"
canons="$shared/corpora/deadends/canons"

for t in record_loader python_regex log_blocks http_request mcp_handler tokenizer mine_thread; do
  rm -rf "${out:?}/$t"
  mkdir -p "$out/$t"
done

# Record files of the bundled kb/, hidden folders (caches) left out.
kb_records() { find "$repo/kb" -name '.*' -prune -o -type f -name '*.json' -print | sort; }

# A sample of the canon corpus: every 25th file is ~100 records of every
# domain, enough to reach the import path without slowing each start.
canon_sample() {
  [[ -d "$canons" ]] || return 0
  find "$canons" -type f -name '*.json' | sort | awk 'NR % 25 == 1'
}

# record_loader: whole record files, good and broken.
n=0
while IFS= read -r f; do
  cp "$f" "$out/record_loader/$((n += 1)).json"
done < <(kb_records; canon_sample; find "$repo/tests/data" -type f -name '*.json' | sort)

# python_regex: each "regex" string of the records (pretty-printed, one
# field a line), its JSON escapes undone. \uXXXX stays as written: Python's
# re reads that escape the same way.
extract_regexes() {
  awk -v dir="$1" '
    function unescape(s,   r, i, c) {
      r = ""
      for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\" && i < length(s)) {
          c = substr(s, ++i, 1)
          if (c == "n") c = "\n"; else if (c == "t") c = "\t"; else if (c == "r") c = "\r"
          else if (c == "u" || c == "b" || c == "f") c = "\\" c
        }
        r = r c
      }
      return r
    }
    match($0, /"regex": *"/) {
      s = substr($0, RSTART + RLENGTH)
      sub(/" *,? *$/, "", s)
      file = dir "/" (++n) ".re"
      printf "%s", unescape(s) > file
      close(file)
    }'
}
{ kb_records; [[ ! -d "$canons" ]] || find "$canons" -type f -name '*.json' | sort; } |
  tr '\n' '\0' | xargs -0 cat | extract_regexes "$out/python_regex"

# log_blocks: the example logs and any log under tests/data, in pieces of
# whole lines of at most 64 KiB (the target's -max_len).
# tokenizer: the same logs in 2 KiB pieces (the first 16 of each), and
# the records, whose Chinese fields hold CJK runs.
while IFS= read -r f; do
  name="$(basename "$f")"
  split -C 65536 -d -a 3 "$f" "$out/log_blocks/$name."
  head -c $((16 * 2048)) "$f" | split -C 2048 -d -a 3 - "$out/tokenizer/$name."
done < <(find "$repo/examples" "$repo/tests/data" -type f ! -name '*.json' | sort)
n=0
while IFS= read -r f; do
  head -c 4096 "$f" > "$out/tokenizer/record.$((n += 1))"
done < <(kb_records)

# mine_thread: the threads written for the miner's tests (text, Markdown
# and GitHub JSON), and seed 003, the raw thread, when it is there.
cp "$repo"/tests/data/mine/*.md "$repo"/tests/data/mine/*.json "$out/mine_thread/"
rm -f "$out"/mine_thread/*.expect.json
[[ ! -f "$shared/seeds/003_698a6721a9e937b7.txt" ]] || cp "$shared/seeds/003_698a6721a9e937b7.txt" "$out/mine_thread/"

# http_request and mcp_handler: the hand-written messages kept in fuzz/seeds.
cp "$repo"/fuzz/seeds/http/* "$out/http_request/"
cp "$repo"/fuzz/seeds/mcp/* "$out/mcp_handler/"

for t in record_loader python_regex log_blocks http_request mcp_handler tokenizer mine_thread; do
  echo "seeds $t: $(find "$out/$t" -type f | wc -l) files"
done
