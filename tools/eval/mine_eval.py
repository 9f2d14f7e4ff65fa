#!/usr/bin/env python3
"""How well `kedb mine` drafts records from real issue threads.

Each line of EXPECT (JSON Lines) names a thread file in THREADS and what a
person reading the thread found: the error line as printed, words of the
real cause (cause_any) and of what fixed it (fix_any). The threads' text is
not kept in the repository; these files keep their addresses and the
expected answers:
  - tools/eval/mine_tuning_threads.jsonl: 30 threads the miner is tuned on;
  - tools/eval/mine_threads.jsonl: the first held-out set, scored twice and
    since read, so no longer held out;
  - tools/eval/mine_check_threads.jsonl: the second held-out set, gathered
    and labelled before the miner was run on it, and never tuned on.

For each thread the draft is checked on three counts:
  - cause: the first root-cause candidate holds one of cause_any;
  - fix: the first workaround candidate (its text or its command) holds one
    of fix_any;
  - regex: the draft's pattern (Python `re`, as kedb applies it: case
    insensitive) matches the thread's own error line and no other thread's.

  tools/eval/mine_eval.py build/kedb tools/eval/mine_threads.jsonl DIR [--kb KB] [--verbose]
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path


def first_text(candidates):
    if not candidates:
        return ""
    c = candidates[0]
    return (c.get("text", "") + "\n" + c.get("how", "")).lower()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kedb")
    ap.add_argument("expect")
    ap.add_argument("threads")
    ap.add_argument("--kb", default="")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    cases = [json.loads(l) for l in Path(args.expect).read_text().splitlines() if l.strip()]
    drafts = {}
    for case in cases:
        cmd = [args.kedb, "mine", "--json", str(Path(args.threads) / case["file"])]
        if args.kb:
            cmd += ["--kb", args.kb]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode not in (0, 1):
            print(f"{case['file']}: kedb mine failed: {out.stderr.strip()}", file=sys.stderr)
            drafts[case["file"]] = None
            continue
        drafts[case["file"]] = json.loads(out.stdout)

    cause = fix = regex = 0
    for case in cases:
        d = drafts[case["file"]]
        if d is None:
            continue
        x = d["x_mined"]["candidates"]
        got_cause = first_text(x["root_causes"])
        got_fix = first_text(x["workarounds"])
        ok_cause = any(w.lower() in got_cause for w in case["cause_any"])
        ok_fix = any(w.lower() in got_fix for w in case["fix_any"])
        ok_regex = False
        try:
            pattern = re.compile(d["regex"], re.IGNORECASE)
            own = bool(pattern.search(case["error_line"]))
            others = [c["file"] for c in cases if c is not case and pattern.search(c["error_line"])]
            ok_regex = own and not others
        except re.error:
            own, others = False, []
        cause += ok_cause
        fix += ok_fix
        regex += ok_regex
        if args.verbose:
            mark = lambda ok: "ok " if ok else "-- "
            print(f"{case['file']}  {case['url']}")
            print(f"  {mark(ok_cause)}cause: {got_cause.strip()[:160]!r}  want any of {case['cause_any']}")
            print(f"  {mark(ok_fix)}fix:   {got_fix.strip()[:160]!r}  want any of {case['fix_any']}")
            print(f"  {mark(ok_regex)}regex: own line {'matched' if own else 'missed'}; other threads' lines matched: {others}")
    n = len(cases)
    print(json.dumps({"threads": n, "cause_at_1": round(cause / n, 3), "fix_at_1": round(fix / n, 3),
                      "regex_own_only": round(regex / n, 3)}))


if __name__ == "__main__":
    main()
