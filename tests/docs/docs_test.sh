#!/usr/bin/env bash
# The generated shell completions and man page, as a user meets them:
#   bash  the script completes commands, options, choices, files and record ids
#   zsh   the same, typed into an interactive zsh
#   fish  the script parses and `complete -C` offers commands, options, choices
#   man   the page renders without a warning and documents every command
# A shell or groff that is not installed skips its part (exit 77).
#   usage: docs_test.sh bash|zsh|fish|man KEDB_BINARY GENERATED_DIR SOURCE_DIR
set -euo pipefail
what=$1 kedb=$(realpath "$2") generated=$(realpath "$3") src=$(realpath "$4")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }

# The commands `kedb --help` lists: the documents must know each one.
commands=$("$kedb" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }')
[ "$(wc -l <<< "$commands")" -ge 15 ] || fail "kedb --help lists too few commands: $commands"

# What the bash script offers for a command line; the last argument is the
# word being completed. The script is sourced as bash-completion would.
bash_offers() {
  bash --norc --noprofile -c '
    script=$1; shift
    source "$script"
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _kedb
    printf "%s\n" "${COMPREPLY[@]}"' _ "$generated/kedb.bash" "$@" | sort
}
expect_bash() {  # expect_bash "WORDS EXPECTED" -- LINE...: each expected word is offered
  local want=$1; shift 2
  local got; got=$(bash_offers "$@")
  for w in $want; do
    grep -qxF -- "$w" <<< "$got" || fail "bash: \`${*}<TAB>\` does not offer $w; it offers: $(tr '\n' ' ' <<< "$got")"
  done
}
expect_bash_exactly() {  # the same, and nothing else
  local want=$1; shift 2
  local got; got=$(bash_offers "$@" | tr '\n' ' ')
  [ "$got" = "$(tr ' ' '\n' <<< "$want" | sort | tr '\n' ' ')" ] || fail "bash: \`${*}<TAB>\` offers \"$got\", expected \"$want\""
}

test_bash() {
  [ -s "$generated/kedb.bash" ] || fail "$generated/kedb.bash is missing or empty"
  bash -n "$generated/kedb.bash" || fail "kedb.bash does not parse"
  expect_bash scan -- kedb sc
  expect_bash "$commands" -- kedb ''
  expect_bash "--format --fail-on" -- kedb scan --f
  expect_bash "--strict --clean-logs --help" -- kedb lint --
  expect_bash_exactly "github gitlab sarif junit text json" -- kedb scan --format ''
  expect_bash_exactly "github gitlab" -- kedb scan --format = gi   # bash splits --format=gi at '='
  expect_bash_exactly "en zh" -- kedb show cuda/x --lang ''
  expect_bash_exactly "deadends native" -- kedb import ''
  expect_bash_exactly "bash fish ids zsh" -- kedb completion ''
  # Files for a FILE argument and a path option, after options and their values.
  mkdir -p "$work/logs/sub"; touch "$work/logs/train.log" "$work/logs/tests.log"
  (cd "$work/logs" && expect_bash "train.log tests.log sub" -- kedb scan --top 3 --json '')
  (cd "$work/logs" && expect_bash_exactly "train.log tests.log" -- kedb cluster train.log t)
  (cd "$work/logs" && expect_bash_exactly "sub" -- kedb export --out s)
  (cd "$work/logs" && expect_bash "train.log" -- kedb scan --kb tr)
  # Record ids, from the knowledge base named on the line.
  expect_bash cuda/cudnn-bn-epsilon-nan -- "$kedb" show --kb "$src/kb" cuda/cudnn-bn
  expect_bash nccl/watchdog-timeout -- "$kedb" chain --kb="$src/kb" nccl/watch
  echo "PASS: the bash completion completes commands, options, choices, files and record ids"
}

# What zsh lists for a command line (tests/docs/zsh_offers.zsh types it
# into an interactive zsh), one word a line.
zsh_offers() {
  timeout 30 zsh -f "$src/tests/docs/zsh_offers.zsh" "$work/zfunc" "$work/bin" "$1" | tr -s ' \t' '\n\n'
}
expect_zsh() {
  local got; got=$(zsh_offers "$2")
  for w in $1; do grep -qxF -- "$w" <<< "$got" || fail "zsh: \`$2<TAB>\` does not list $w; the screen shows: $got"; done
}

test_zsh() {
  command -v zsh > /dev/null || skip "zsh is not installed"
  [ -s "$generated/_kedb" ] || fail "$generated/_kedb is missing or empty"
  head -1 "$generated/_kedb" | grep -qx '#compdef kedb' || fail "_kedb does not start with #compdef kedb"
  zsh -n "$generated/_kedb" || fail "_kedb does not parse"
  mkdir -p "$work/zfunc" "$work/bin"
  cp "$generated/_kedb" "$work/zfunc/"
  ln -s "$kedb" "$work/bin/kedb"
  expect_zsh scan "kedb sc"
  expect_zsh "$commands" "kedb "
  expect_zsh "--format --fail-on" "kedb scan --f"
  expect_zsh "github gitlab sarif junit text json" "kedb scan --format "
  expect_zsh "deadends native" "kedb import "
  expect_zsh cuda/cudnn-bn-epsilon-nan "kedb show --kb $src/kb cuda/cudnn-bn"
  echo "PASS: the zsh completion completes commands, options, choices and record ids"
}

# What fish offers for a command line (complete -C), first column.
fish_offers() {
  fish --no-config -c "source '$generated/kedb.fish'; complete -C '$1'" | cut -f1 | sort
}
expect_fish() {
  local got; got=$(fish_offers "$2")
  for w in $1; do grep -qxF -- "$w" <<< "$got" || fail "fish: \`$2<TAB>\` does not offer $w; it offers: $(tr '\n' ' ' <<< "$got")"; done
}

test_fish() {
  command -v fish > /dev/null || skip "fish is not installed"
  [ -s "$generated/kedb.fish" ] || fail "$generated/kedb.fish is missing or empty"
  fish --no-config -n "$generated/kedb.fish" || fail "kedb.fish does not parse"
  expect_fish scan "kedb sc"
  expect_fish "$commands" "kedb "
  expect_fish "--format --fail-on" "kedb scan --f"
  expect_fish "github gitlab sarif junit text json" "kedb scan --format "
  expect_fish "en zh" "kedb show --lang "
  expect_fish cuda/cudnn-bn-epsilon-nan "$kedb show --kb $src/kb cuda/cudnn-bn"
  echo "PASS: the fish completion parses and completes commands, options and choices"
}

test_man() {
  command -v groff > /dev/null || skip "groff is not installed (groff-base)"
  local page="$generated/kedb.1"
  [ -s "$page" ] || fail "$page is missing or empty"
  LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2> "$work/warnings" || fail "groff failed on kedb.1"
  [ ! -s "$work/warnings" ] || fail "groff warns about kedb.1: $(cat "$work/warnings")"
  if command -v man > /dev/null; then
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" > "$work/page.txt" 2> "$work/warnings" || fail "man -l failed"
    [ ! -s "$work/warnings" ] || fail "man warns about kedb.1: $(cat "$work/warnings")"
  else
    LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou "$page" > "$work/page.txt"
  fi
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS 'EXIT STATUS' ENVIRONMENT FILES; do
    grep -q "^\\.SH \"\\?$section\"\\?\$" "$page" || fail "kedb.1 has no $section section"
  done
  for c in $commands; do
    grep -qx ".SS \"kedb $c\"" "$page" || fail "kedb.1 does not document kedb $c"
  done
  for v in KEDB_KB KEDB_STORE KEDB_TOKEN GITHUB_STEP_SUMMARY NO_COLOR; do grep -q "$v" "$work/page.txt" || fail "kedb.1 does not name $v"; done
  # Options and examples read as typed (ASCII hyphens), choices listed.
  grep -q -- '--format FORMAT' "$work/page.txt" || fail "the page does not show --format FORMAT"
  # (Help texts wrap at the page's width: compared with lines joined.)
  tr -s ' \n' '  ' < "$work/page.txt" | grep -q 'One of: text, json, github, gitlab, sarif, junit' \
    || fail "the page does not list the --format choices"
  grep -q '^ *kedb scan build.log --format github --fail-on unknown$' "$work/page.txt" || fail "the page lacks scan's example"
  echo "PASS: kedb.1 renders without warnings and documents every command"
}

"test_$what"
