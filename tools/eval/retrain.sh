#!/usr/bin/env bash
# Refits the rank model (src/match/rank_model.inc) from the tuning half of
# the real-world case set and the corpus's own signatures:
#
#   tools/eval/retrain.sh [SHARED]     # SHARED: the folder holding corpora/deadends (default ../shared)
#
# Each candidate's features are measured by the current build (kedb-eval
# --scores), so after a change of features run it, rebuild, and run it
# again; the second run changes the weights in the last digits only. The
# check half is never read.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED=${1:-../shared}
CANONS="$SHARED/corpora/deadends/canons"
OUT=build/retrain
mkdir -p "$OUT"
NONCODE=culture,visa,legal,policy,emergency,medical,safety,communication,mental-health,disaster,food-safety,pet-safety,banking
ALL="--min-confidence 0 --list-confidence 0 --top 30"
build/kedb-eval --kb "$CANONS" --cases tools/eval/data/real/cases.jsonl --split tune $ALL --scores "$OUT/tune.jsonl" >/dev/null
build/kedb-eval --kb "$CANONS" --self-retrieval --exclude-domains "$NONCODE" $ALL --scores "$OUT/self.jsonl" >/dev/null
python3 tools/eval/train_rank.py "$OUT/tune.jsonl" "$OUT/self.jsonl:0.1" --calibrate "$OUT/tune.jsonl" \
  --sources "tools/eval/retrain.sh: the real cases' tuning half, and the corpus's signatures at weight 0.1 (the least that keeps self-retrieval at 0.974)" \
  --out src/match/rank_model.inc
