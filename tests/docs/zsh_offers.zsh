# Prints what zsh's completion lists for a command line, by typing it into
# an interactive zsh (on a pseudo-terminal) with TAB bound to list-choices.
#   zsh -f zsh_offers.zsh FPATH_DIR PATH_DIR 'kedb scan --format '
# FPATH_DIR holds _kedb; PATH_DIR is put first on $PATH (where kedb is).
zmodload zsh/zpty || exit 77
setopt extended_glob
zpty shell 'zsh -f -i'
# Each marker is typed with an empty quote inside, so the terminal's echo
# of the command cannot match it: only the command's output does.
zpty -w shell "PS1='> '; fpath=(${(q)1} \$fpath); path=(${(q)2} \$path); autoload -Uz compinit; compinit -u -D"
zpty -w shell "bindkey '^I' list-choices; zstyle ':completion:*' list-prompt ''; LISTMAX=100000; echo READY-\"\"MARK"
# Wait for the prompt after the marker: typed earlier, the line would be
# read by the terminal, not by the line editor, and TAB would not complete.
zpty -r shell out '*READY-MARK*> '
zpty -w -n shell "$3"$'\t'
zpty -w shell $'\C-u echo DONE-""MARK'
zpty -r shell out '*DONE-MARK*'
zpty -d shell
# The listing, without the terminal's escape sequences.
print -r -- "${out//$'\e'\[[0-9;?]#[A-Za-z]/ }" | tr '\r' '\n'
