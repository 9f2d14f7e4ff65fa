#!/usr/bin/env python3
"""Derives kedb's abstention thresholds from data, and checks them on held-out data.

Usage: tools/eval/calibrate.py UNCOVERED.jsonl KNOWN.jsonl...

Each file is what `kedb-eval --min-evidence 0 --min-fuzzy-evidence 0 --scores F`
writes: one line per case with every answer's evidence, kind and whether it
was right. UNCOVERED holds real errors the knowledge base does not cover
(every answer is wrong); the KNOWN files hold cases with a right answer.

Rule: the uncovered cases are split in two (even and odd lines). For each
kind of match (regex, fuzzy) the threshold is the most evidence any answer of
that kind reached on the even half, plus 0.005, rounded up to 0.01. The odd
half and the known sets then show what the thresholds cost and earn.
"""
import json
import math
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def kept(answers, thresholds):
    return [a for a in answers if a["evidence"] >= thresholds[a["kind"]]]


def main():
    uncovered = load(sys.argv[1])
    calibration, held_out = uncovered[0::2], uncovered[1::2]
    thresholds = {}
    for kind in ("regex", "fuzzy"):
        top = max((a["evidence"] for r in calibration for a in r["answers"] if a["kind"] == kind), default=0.0)
        thresholds[kind] = math.ceil((top + 0.005) * 100) / 100
    print(f"thresholds: regex {thresholds['regex']:.2f}, fuzzy {thresholds['fuzzy']:.2f}")
    for name, rows in (("calibration half", calibration), ("held-out half", held_out)):
        abstained = sum(1 for r in rows if not kept(r["answers"], thresholds))
        print(f"  abstention on uncovered errors, {name}: {abstained / len(rows):.3f} ({abstained}/{len(rows)})")
    for path in sys.argv[2:]:
        rows = load(path)
        before = sum(1 for r in rows if r["answers"] and r["answers"][0]["right"])
        after = 0
        for r in rows:
            a = kept(r["answers"], thresholds)
            after += 1 if a and a[0]["right"] else 0
        print(f"  {path}: P@1 {before / len(rows):.4f} without abstention, {after / len(rows):.4f} with")


if __name__ == "__main__":
    main()
