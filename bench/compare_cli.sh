#!/usr/bin/env bash
# Timed command-line runs on one generated log: kedb scan against ripgrep
# with the same patterns (rg -i -f, PCRE2 mode for Python syntax), plus
# kedb's cold start with a warm cache. Prints MB/s and ratios; needs ripgrep
# (apt-get install ripgrep) and the corpus in ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
KEDB=./build/kedb
CORPUS=${KEDB_CORPUS:-../shared/corpora/deadends/canons}
MB=${MB:-200}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

[ -d "$CORPUS" ] || { echo "corpus not found at $CORPUS; set KEDB_CORPUS"; exit 0; }
./build/kedb-bench --benchmark_filter=none >/dev/null 2>&1 || true

# The log: the benchmark's own generator, written out once.
python3 - "$CORPUS" "$MB" "$WORK/log.txt" "$WORK/patterns.txt" <<'PY'
import json, glob, random, sys
corpus, mb, out, pats = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
recs = [json.load(open(f)) for f in sorted(glob.glob(corpus + '/**/*.json', recursive=True))]
sigs = [r['error']['signature'] for r in recs]
with open(pats, 'w') as p:
    for r in recs: p.write(r['error']['regex'].replace('\n', ' ') + '\n')
r = random.Random(42)
words = "model data request user file value node worker batch epoch cache server client config token shard queue".split()
target, n, line = mb << 20, 0, 0
with open(out, 'w') as f:
    while n < target:
        line += 1
        k = r.random()
        if line % 5000 == 0: s = "2026-03-01T00:00:00Z ERROR " + r.choice(sigs)
        elif k < .3: s = f"2026-03-01T10:{r.randint(0,59):02d}:{r.randint(0,59):02d}Z INFO [trainer] epoch {r.randint(0,99)} step {r.randint(0,99999)} loss={r.random():.4f}"
        elif k < .5: s = f"10.0.{r.randint(0,255)}.{r.randint(0,255)} - - \"GET /api/v1/{r.choice(words)}/{r.randint(1,9999)} HTTP/1.1\" 200 {r.randint(100,9999)}"
        elif k < .7: s = "DEBUG " + " ".join(r.choice(words) for _ in range(r.randint(3, 12)))
        else: s = f"  File \"/usr/lib/python3.11/site-packages/{r.choice(words)}.py\", line {r.randint(1,999)}, in {r.choice(words)}"
        f.write(s + "\n"); n += len(s) + 1
PY
SIZE=$(stat -c %s "$WORK/log.txt")
secs() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }

$KEDB match --kb "$CORPUS" x >/dev/null 2>&1 || true   # warm the pattern cache
T_KEDB=$(secs $KEDB scan --kb "$CORPUS" --json "$WORK/log.txt")
T_RG=$(secs rg -i -c --pcre2 -f "$WORK/patterns.txt" "$WORK/log.txt" || true)
T_START=$(secs $KEDB match --kb kb "CUDNN_STATUS_BAD_PARAM")
python3 - "$SIZE" "$T_KEDB" "$T_RG" "$T_START" <<'PY'
import sys
size, kedb, rg, start = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
mb = size / 1e6
print(f"log {mb:.0f} MB, corpus patterns")
print(f"  kedb scan       {kedb:7.2f} s  {mb / kedb:8.1f} MB/s")
print(f"  rg -i --pcre2   {rg:7.2f} s  {mb / rg:8.1f} MB/s   kedb is {rg / kedb:.1f}x ripgrep")
print(f"  kedb match cold start, warm cache, bundled kb: {start * 1000:.0f} ms")
PY
