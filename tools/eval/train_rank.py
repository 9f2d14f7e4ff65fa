#!/usr/bin/env python3
"""Fits kedb's rank model and writes src/match/rank_model.inc.

The model (src/match/rank.h) scores each candidate record of a text with a
linear function of its features. It is fitted as a choice among the
candidates and "none of them": for a text whose right record is among the
candidates, the probability of a right candidate is maximised; for the
others (errors no record knows, or a right record no candidate reached),
the probability of "none". The model's bias is what "none" weighs against.

    P(candidate i) = exp(s_i) / (1 + sum_j exp(s_j)),  s_i = b + w . x_i

Then scores are calibrated (Platt scaling: the chance an answer is right,
as a logistic function of its score, fitted on the five best answers of
each text of the tuning half). Answers below --list-confidence are not
shown (0.2: on the tuning half no right answer ranked below the first had
less, so MRR is the same as listing everything), and the abstention
threshold
is chosen: the confidence below which answering does more harm than good
on the tuning half (a right answer +1, a right abstention +1, a wrong answer
-1, an abstention on a known error 0).

Input: files written by
    kedb-eval --kb KB --cases CASES --split tune --min-confidence 0 \\
              --list-confidence 0 --top 30 --scores FILE
each optionally with a weight (FILE:WEIGHT) that scales its cases, e.g. the
self-retrieval set, which keeps the model honest on records' own
signatures. Deterministic: same inputs, same file. Needs only Python 3.
"""
import argparse
import json
import math
import sys

FEATURES = ["specificity", "coverage", "similarity", "recall", "context", "domain", "regex",
            "confidence", "env", "names_agree", "closeness", "fuzzy_alone", "explained", "names_conflict", "family", "code_agree", "fix_quoted"]
# Features whose weight may not be negative: more of them can only speak
# for a record. The record's confidence and the environment's fit are
# priors the case set cannot teach (its texts state no environment, and a
# corpus's confidences say nothing about a case's answer); they are kept at
# a small fixed weight so that they only break near ties.
NON_NEGATIVE = {"specificity", "coverage", "similarity", "recall", "context", "domain", "regex",
                "names_agree", "closeness", "fuzzy_alone", "explained", "family", "code_agree", "fix_quoted"}
FIXED = {"confidence": 0.3, "env": 0.5}
# Features that can only speak against a record.
NON_POSITIVE = {"names_conflict"}


def read_cases(spec):
    path, _, weight = spec.partition(":")
    weight = float(weight) if weight else 1.0
    cases = []
    with open(path) as f:
        for line in f:
            c = json.loads(line)
            xs = [[a["features"].get(n, 0.0) for n in FEATURES] for a in c["answers"]]
            right = [bool(a["right"]) for a in c["answers"]]
            cases.append({"x": xs, "right": right, "covered": c.get("covered", any(right)), "w": weight})
    return cases


def scores(case, b, w):
    return [b + sum(wi * xi for wi, xi in zip(w, x)) for x in case["x"]]


def loss_and_grad(cases, b, w, l2):
    """Negative log-likelihood of the choice model, its gradient."""
    total = 0.0
    gb = 0.0
    gw = [0.0] * len(w)
    weight_sum = 0.0
    for c in cases:
        s = scores(c, b, w)
        m = max([0.0] + s)
        e = [math.exp(v - m) for v in s]
        z = math.exp(-m) + sum(e)
        p = [v / z for v in e]
        targets = [i for i, r in enumerate(c["right"]) if r]
        if targets:
            pr = sum(p[i] for i in targets)
            total -= c["w"] * math.log(max(pr, 1e-300))
            q = [p[i] / pr if i in targets else 0.0 for i in range(len(p))]
        else:
            total -= c["w"] * math.log(max(math.exp(-m) / z, 1e-300))
            q = [0.0] * len(p)
        # d(-log L)/ds_i = p_i - q_i
        for i, x in enumerate(c["x"]):
            d = c["w"] * (p[i] - q[i])
            gb += d
            for k, xk in enumerate(x):
                gw[k] += d * xk
        weight_sum += c["w"]
    total /= weight_sum
    gb /= weight_sum
    gw = [g / weight_sum + 2 * l2 * wk for g, wk in zip(gw, w)]
    total += l2 * sum(wk * wk for wk in w)
    return total, gb, gw


def fit(cases, l2, iterations):
    """Adam, full batch, from zero: deterministic."""
    b, w = 0.0, [FIXED.get(n, 0.0) for n in FEATURES]
    mb, vb = 0.0, 0.0
    mw, vw = [0.0] * len(w), [0.0] * len(w)
    rate, beta1, beta2, eps = 0.05, 0.9, 0.999, 1e-8
    for t in range(1, iterations + 1):
        loss, gb, gw = loss_and_grad(cases, b, w, l2)
        mb = beta1 * mb + (1 - beta1) * gb
        vb = beta2 * vb + (1 - beta2) * gb * gb
        b -= rate * (mb / (1 - beta1 ** t)) / (math.sqrt(vb / (1 - beta2 ** t)) + eps)
        for k in range(len(w)):
            if FEATURES[k] in FIXED:
                continue
            mw[k] = beta1 * mw[k] + (1 - beta1) * gw[k]
            vw[k] = beta2 * vw[k] + (1 - beta2) * gw[k] * gw[k]
            w[k] -= rate * (mw[k] / (1 - beta1 ** t)) / (math.sqrt(vw[k] / (1 - beta2 ** t)) + eps)
            if FEATURES[k] in NON_NEGATIVE:
                w[k] = max(w[k], 0.0)
            if FEATURES[k] in NON_POSITIVE:
                w[k] = min(w[k], 0.0)
        if t % 100 == 0:
            print(f"  iteration {t}: loss {loss:.4f}", file=sys.stderr)
    return b, w


def top_answers(cases, b, w):
    """(top score, whether it is right, covered) per case with any candidate."""
    out = []
    for c in cases:
        if not c["x"]:
            out.append((None, False, c["covered"]))
            continue
        s = scores(c, b, w)
        i = max(range(len(s)), key=lambda k: s[k])
        out.append((s[i], c["right"][i], c["covered"]))
    return out


def listed(cases, b, w, k=5):
    """(score, right) of each case's best k candidates: what a user is shown."""
    out = []
    for c in cases:
        s = scores(c, b, w)
        for i in sorted(range(len(s)), key=lambda j: -s[j])[:k]:
            out.append((s[i], c["right"][i], c["covered"]))
    return out


def platt(pairs):
    """a, b with P(right) = 1 / (1 + exp(-(a*s + b))), by Newton's method."""
    data = [(s, 1.0 if r else 0.0) for s, r, _ in pairs if s is not None]
    a, b = 1.0, 0.0
    for _ in range(100):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for s, y in data:
            p = 1 / (1 + math.exp(-(a * s + b)))
            g0 += (p - y) * s
            g1 += (p - y)
            v = p * (1 - p)
            h00 += v * s * s
            h01 += v * s
            h11 += v
        h00 += 1e-6
        h11 += 1e-6
        det = h00 * h11 - h01 * h01
        if abs(det) < 1e-12:
            break
        da = (h11 * g0 - h01 * g1) / det
        db = (h00 * g1 - h01 * g0) / det
        a, b = a - da, b - db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


def choose_threshold(tops, a, b):
    """The confidence below which abstaining serves best (see the top)."""
    def confidence(s):
        return 1 / (1 + math.exp(-(a * s + b)))
    candidates = sorted({round(confidence(s), 4) for s, _, _ in tops if s is not None} | {0.0})
    best, best_utility = 0.0, -1e9
    for t in candidates:
        u = 0
        for s, right, covered in tops:
            answered = s is not None and confidence(s) >= t
            if answered:
                u += 1 if right else -1
            elif not covered:
                u += 1
        if u > best_utility:
            best, best_utility = t, u
    return best


def report(name, tops, a, b, threshold):
    covered = [t for t in tops if t[2]]
    uncovered = [t for t in tops if not t[2]]
    def conf(s):
        return 1 / (1 + math.exp(-(a * s + b)))
    answered = [t for t in covered if t[0] is not None and conf(t[0]) >= threshold]
    right = sum(1 for t in answered if t[1])
    abst_unc = sum(1 for t in uncovered if t[0] is None or conf(t[0]) < threshold)
    print(f"{name}: P@1 {right / max(len(covered), 1):.3f} on {len(covered)} covered "
          f"({len(covered) - len(answered)} withheld); abstention {abst_unc / max(len(uncovered), 1):.3f} "
          f"on {len(uncovered)} uncovered", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scores", nargs="+", help="kedb-eval --scores files, FILE or FILE:WEIGHT")
    ap.add_argument("--calibrate", required=True,
                    help="the scores file whose top answers calibrate confidence and the threshold (the tuning half)")
    ap.add_argument("--l2", type=float, default=0.001)
    ap.add_argument("--iterations", type=int, default=600)
    ap.add_argument("--list-confidence", type=float, default=0.2)
    ap.add_argument("--out", default="src/match/rank_model.inc")
    ap.add_argument("--sources", help="how the inputs were made, for the written file's header")
    args = ap.parse_args()

    cases = [c for spec in args.scores for c in read_cases(spec)]
    b, w = fit(cases, args.l2, args.iterations)
    calibration = read_cases(args.calibrate)
    tops = top_answers(calibration, b, w)
    # Calibrated on every answer a user is shown, not only the first: a
    # second answer's confidence must mean the same as a first's.
    a, cb = platt(listed(calibration, b, w))
    threshold = choose_threshold(tops, a, cb)
    report("tuning half", tops, a, cb, threshold)
    for name, value in zip(FEATURES, w):
        print(f"  {name:12} {value:+.4f}", file=sys.stderr)
    print(f"  bias         {b:+.4f}; calibration a={a:.4f} b={cb:.4f}; min confidence {threshold:.4f}",
          file=sys.stderr)

    sources = args.sources or ", ".join(args.scores)
    with open(args.out, "w") as f:
        f.write("// The rank model's weights (see rank.h), fitted by tools/eval/train_rank.py\n")
        f.write(f"// from {sources}.\n")
        f.write("// Regenerate with tools/eval/retrain.sh; do not edit by hand.\n")
        f.write(f"inline constexpr double kRankBias = {b:.6f};\n")
        f.write(f"inline constexpr std::array<double, {len(w)}> kRankWeights = {{\n")
        for name, value in zip(FEATURES, w):
            f.write(f"    {value:.6f},  // {name}\n")
        f.write("};\n")
        f.write(f"inline constexpr double kCalibrationA = {a:.6f};\n")
        f.write(f"inline constexpr double kCalibrationB = {cb:.6f};\n")
        f.write(f"inline constexpr double kMinConfidence = {threshold:.4f};\n")
        f.write(f"inline constexpr double kListConfidence = {args.list_confidence:.4f};\n")


if __name__ == "__main__":
    main()
