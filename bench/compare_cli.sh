#!/usr/bin/env bash
# Timed command-line runs on generated logs: `kedb scan` against ripgrep with
# the same patterns (`rg -i -c -f`), and kedb's cold start with a warm cache.
# Prints MB/s and ratios measured in this one script. Needs python3, ripgrep
# (apt-get install ripgrep) and, for the corpus run, ../shared.
set -uo pipefail
cd "$(dirname "$0")/.."
KEDB=./build/kedb
CORPUS=${KEDB_CORPUS:-../shared/corpora/deadends/canons}
MB=${MB:-200}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 - "$CORPUS" "$MB" "$WORK" <<'PY'
import json, glob, os, random, sys
corpus, mb, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
r = random.Random(42)
words = "model data request user file value node worker batch epoch cache server client config token shard queue".split()
def noise():
    k = r.random()
    if k < .3: return f"2026-03-01T10:{r.randint(0,59):02d}:{r.randint(0,59):02d}Z INFO [trainer] epoch {r.randint(0,99)} step {r.randint(0,99999)} loss={r.random():.4f}"
    if k < .5: return f"10.0.{r.randint(0,255)}.{r.randint(0,255)} - - \"GET /api/v1/{r.choice(words)}/{r.randint(1,9999)} HTTP/1.1\" 200 {r.randint(100,9999)}"
    if k < .7: return "DEBUG " + " ".join(r.choice(words) for _ in range(r.randint(3, 12)))
    return f"  File \"/usr/lib/python3.11/site-packages/{r.choice(words)}.py\", line {r.randint(1,999)}, in {r.choice(words)}"
def write_log(path, errors):
    n, line = 0, 0
    with open(path, 'w') as f:
        while n < (mb << 20):
            line += 1
            s = "2026-03-01T00:00:00Z ERROR " + r.choice(errors) if line % 5000 == 0 else noise()
            f.write(s + "\n"); n += len(s) + 1
# Generated error-like patterns, as a JSONL knowledge base and a pattern file.
subjects = ["shard writer", "lease keeper", "index builder", "gradient reducer", "checkpoint saver"]
verbs = ["stalled", "aborted", "diverged", "timed out", "lost quorum"]
msgs = []
with open(f"{work}/gen.jsonl", "w") as kb, open(f"{work}/gen.txt", "w") as pats:
    for i in range(2000):
        code, s, v = f"E{chr(65 + i % 26)}{i:05d}", r.choice(subjects), r.choice(verbs)
        pat, msg = f"{code}: {s} {v} after \\d+ retries", f"{code}: {s} {v} after {r.randint(1, 50)} retries"
        kb.write(json.dumps({"id": f"gen/{i}", "signature": msg, "regex": pat, "domain": "gen"}) + "\n")
        pats.write(pat + "\n"); msgs.append(msg)
write_log(f"{work}/gen.log", msgs)
if os.path.isdir(corpus):
    recs = [json.load(open(f)) for f in sorted(glob.glob(corpus + '/**/*.json', recursive=True))]
    with open(f"{work}/corpus.txt", "w") as p:
        for x in recs: p.write(x['error']['regex'].replace('\n', ' ') + '\n')
    write_log(f"{work}/corpus.log", [x['error']['signature'] for x in recs])
PY

secs() { local s; s=$( { /usr/bin/time -f %e "$@" >/dev/null 2>"$WORK/err"; } 2>&1; tail -1 "$WORK/err"); echo "$s"; }
report() {  # name bytes kedb_seconds kedb_one_thread_seconds rg_seconds rg_status
  python3 - "$@" <<'PY'
import sys
name, size, k, k1, g, st = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
mb = size / 1e6
print(f"{name}: {mb:.0f} MB log")
print(f"  kedb scan               {k:7.2f} s {mb / k:8.1f} MB/s (one thread per core)")
print(f"  kedb scan --threads 1   {k1:7.2f} s {mb / k1:8.1f} MB/s")
if st == "0" or st == "1":
    g = float(g); print(f"  rg -i -c -f             {g:7.2f} s {mb / g:8.1f} MB/s   ratio kedb/rg {g / k:.2f}x, one thread {g / k1:.2f}x")
else:
    print(f"  rg -i -c -f             failed: {st}")
PY
}

$KEDB match --kb "$WORK/gen.jsonl" x >/dev/null 2>&1
T_K=$(secs $KEDB scan --kb "$WORK/gen.jsonl" "$WORK/gen.log")
T_K1=$(secs $KEDB scan --threads 1 --kb "$WORK/gen.jsonl" "$WORK/gen.log")
T_G=$(secs rg -i -c -f "$WORK/gen.txt" "$WORK/gen.log")
report "2,000 generated patterns" "$(stat -c %s "$WORK/gen.log")" "$T_K" "$T_K1" "$T_G" "$(rg -i -c -f "$WORK/gen.txt" "$WORK/gen.log" >/dev/null 2>&1; echo $?)"

if [ -f "$WORK/corpus.log" ]; then
  cp -r "$CORPUS" "$WORK/kb"   # keep the pattern cache out of the shared corpus
  $KEDB match --kb "$WORK/kb" x >/dev/null 2>&1
  T_K=$(secs $KEDB scan --kb "$WORK/kb" "$WORK/corpus.log")
  T_K1=$(secs $KEDB scan --threads 1 --kb "$WORK/kb" "$WORK/corpus.log")
  RG_ERR=$(rg -i -c --pcre2 -f "$WORK/corpus.txt" "$WORK/corpus.log" 2>&1 >/dev/null | head -1)
  report "deadends corpus, 2,522 patterns" "$(stat -c %s "$WORK/corpus.log")" "$T_K" "$T_K1" 0 "${RG_ERR:-0}"
fi
python3 - "$KEDB" <<'PY'
import subprocess, sys, time
cmd = [sys.argv[1], "match", "--kb", "kb", "CUDNN_STATUS_BAD_PARAM"]
subprocess.run(cmd, capture_output=True)  # warm the cache
runs = []
for _ in range(20):
    t = time.perf_counter(); subprocess.run(cmd, capture_output=True); runs.append(time.perf_counter() - t)
runs.sort()
print(f"kedb match, cold process with a warm cache, bundled kb: median {runs[10] * 1000:.1f} ms over 20 runs")
PY
