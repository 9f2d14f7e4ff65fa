#!/usr/bin/env bash
# Runs the kedb commands of examples/ci/*.yml (the lines between
# "kedb:begin" and "kedb:end") on an example log standing in for test.log,
# and checks what each wrote: GitHub annotations and job summary, SARIF,
# GitLab Code Quality and JUnit.
#   usage: examples_test.sh KEDB_BINARY SOURCE_DIR
set -euo pipefail
kedb=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# The training log, and after it an error no record knows.
{ cat "$src/examples/train-cudnn.log"; echo "ValueError: could not convert string to float: 'n/a'"; } > "$work/test.log"
mkdir -p "$work/bin"; ln -s "$kedb" "$work/bin/kedb"
export PATH="$work/bin:$PATH" KEDB_KB="$src/kb" KEDB_STORE="$work/outcomes.sqlite"
export GITHUB_STEP_SUMMARY="$work/summary.md"

commands() {  # the lines between the markers, YAML list dashes removed
  sed -n '/kedb:begin/,/kedb:end/p' "$1" | grep -v 'kedb:' | sed -E 's/^ *(- )?//'
}
fail() { echo "FAIL: $*"; exit 1; }

cd "$work"
# GitHub: the step fails (exit 1) because the log has an error no record knows.
# Actions runs a step with bash -e: the first failing command fails it.
set +e; bash -e -o pipefail -c "$(commands "$src/examples/ci/github-actions.yml")" > github.out 2> github.err; rc=$?; set -e
[ $rc -eq 1 ] || fail "the GitHub step exited $rc, expected 1 (--fail-on unknown): $(cat github.err)"
grep -q '^::error file=test.log,line=3018,' github.out || fail "no ::error annotation for line 3018: $(head -c 400 github.out)"
grep -q 'cuda/cudnn-bn-epsilon-nan' summary.md || fail "the job summary does not name the record"
grep -q '"version": "2.1.0"' kedb.sarif && grep -q '"ruleId": "cuda/cudnn-bn-epsilon-nan"' kedb.sarif \
  || fail "kedb.sarif is not a SARIF log with the record's result"
# GitLab: the commands succeed and leave the two reports.
bash -e -c "$(commands "$src/examples/ci/gitlab-ci.yml")" || fail "the GitLab commands failed"
[ "$(grep -m1 '"check_name"' gl-code-quality-report.json | tr -d ' ,')" = '"check_name":"cuda/cudnn-bn-epsilon-nan"' ] \
  || fail "the Code Quality report does not start with the root error"
grep -q '<testcase classname="kedb.cuda"' kedb-junit.xml || fail "the JUnit report has no testcase for the record"
echo "PASS: examples/ci commands on examples/train-cudnn.log with an unknown error after it"
