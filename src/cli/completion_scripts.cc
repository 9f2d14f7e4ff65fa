// Shell completion scripts rendered from the program's description: each
// script is a table of the commands, options and values, generated, and a
// fixed part that completes from the table. The scripts' own function
// names (_kedb, __kedb_ids) are fixed; the command they complete is the
// program's name.
#include <cctype>

#include <fmt/format.h>

#include "cli/cli_docs.h"

namespace kedb::cli {
namespace {

std::string Join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

// 'text' for bash and zsh: a quote inside becomes '\''.
std::string ShQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// 'text' for fish, where a backslash escapes a quote or a backslash.
std::string FishQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::vector<std::string> CommandNames(const ProgramDoc& doc) {
  std::vector<std::string> names;
  for (const auto& cmd : doc.commands) names.push_back(cmd.name);
  return names;
}

std::vector<std::string> OptionNames(const std::vector<OptionDoc>& options) {
  std::vector<std::string> names;
  for (const auto& o : options) names.insert(names.end(), o.names.begin(), o.names.end());
  return names;
}

// How the bash script completes a value: the tag its fixed part reads.
std::string BashValueTag(const OptionDoc& o) {
  switch (o.kind) {
    case ValueKind::kChoice:
      return "words:" + Join(o.choices, " ");
    case ValueKind::kPath:
      return "files";
    case ValueKind::kDir:
      return "dirs";
    case ValueKind::kRecordId:
      return "ids";
    case ValueKind::kNone:
    case ValueKind::kText:
      break;
  }
  return "text";
}

// The fixed part of the bash script. It needs bash 4.3 (associative
// arrays, negative indexes) and nothing from the bash-completion package,
// so it works where that is not installed.
constexpr const char* kBashDriver = R"BASH(
# The record ids of the knowledge base named on the line (--kb), asked of
# the same kedb that is being completed.
_kedb_ids() {
  local -a kb=()
  local i
  for ((i = 1; i < ${#w[@]} - 1; i++)); do
    case ${w[i]} in
      --kb) kb=(--kb "${w[i + 1]/#\~/$HOME}") ;;
      --kb=*) kb=("--kb=${w[i]#--kb=}") ;;
    esac
  done
  "${w[0]/#\~/$HOME}" completion ids "${kb[@]}" 2>/dev/null
}

_kedb_reply() { # $1: the words to offer, $2: the word so far
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

_kedb_value() { # $1: how the value completes (a tag of _kedb_values), $2: the word so far
  case $1 in
    words:*) _kedb_reply "${1#words:}" "$2" ;;
    files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$2") ;;
    dirs) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$2") ;;
    ids) _kedb_reply "$(_kedb_ids)" "$2" ;;
  esac
}

_kedb() {
  # bash splits "--format=json" at the '=' (it is in COMP_WORDBREAKS): the
  # words are joined again, so w holds the line as kedb will read it.
  local -a w=()
  local i t joined=0
  for ((i = 0; i <= COMP_CWORD; i++)); do
    t=${COMP_WORDS[i]}
    if [[ $t == = && ${#w[@]} -gt 0 && ${w[-1]} == -* ]]; then
      w[-1]+='='; joined=1
    elif ((joined)); then
      w[-1]+=$t; joined=0
    else
      w+=("$t")
    fi
  done
  local last=$((${#w[@]} - 1)) cmd='' at=0
  local cur=${w[last]}
  COMPREPLY=()
  for ((i = 1; i < last; i++)); do
    if [[ ${w[i]} != -* ]]; then cmd=${w[i]}; at=$i; break; fi
  done
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then _kedb_reply "$_kedb_global_options" "$cur"; else _kedb_reply "$_kedb_commands" "$cur"; fi
    return 0
  fi
  [[ -n ${_kedb_options[$cmd]+set} ]] || return 0
  local prev=${w[last - 1]}
  if ((last - 1 > at)) && [[ $prev == -* && -n ${_kedb_values["$cmd $prev"]+set} ]]; then
    _kedb_value "${_kedb_values["$cmd $prev"]}" "$cur"
  elif [[ $cur == -*=* && -n ${_kedb_values["$cmd ${cur%%=*}"]+set} ]]; then
    _kedb_value "${_kedb_values["$cmd ${cur%%=*}"]}" "${cur#*=}"
  elif [[ $cur == -* ]]; then
    _kedb_reply "${_kedb_options[$cmd]}" "$cur"
  else
    # A positional argument: which one is told by those before it, minus
    # the options and their values.
    local n=0
    for ((i = at + 1; i < last; i++)); do
      t=${w[i]}
      if [[ $t != -* ]]; then
        n=$((n + 1))
      elif [[ $t != *=* && -n ${_kedb_values["$cmd $t"]+set} ]]; then
        i=$((i + 1))
      fi
    done
    local how=${_kedb_args["$cmd $n"]-${_kedb_args["$cmd +"]-text}}
    if [[ $how == text ]]; then _kedb_reply "${_kedb_options[$cmd]}" "$cur"; else _kedb_value "$how" "$cur"; fi
  fi
  return 0
}
)BASH";

// The tables the fixed part reads: the options of each command, how each
// option's value completes, how each positional argument does.
std::string BashTables(const ProgramDoc& doc) {
  std::string options, values, args;
  for (const auto& cmd : doc.commands) {
    options += fmt::format("  [{}]={}\n", cmd.name, ShQuote(Join(OptionNames(cmd.options), " ")));
    for (const auto& o : cmd.options) {
      if (o.kind == ValueKind::kNone) continue;
      for (const auto& name : o.names) {
        values += fmt::format("  [{}]={}\n", ShQuote(cmd.name + " " + name), ShQuote(BashValueTag(o)));
      }
    }
    for (std::size_t i = 0; i < cmd.positionals.size(); ++i) {
      const OptionDoc& p = cmd.positionals[i];
      args += fmt::format("  [{}]={}\n", ShQuote(fmt::format("{} {}", cmd.name, i)), ShQuote(BashValueTag(p)));
      if (p.repeats) args += fmt::format("  [{}]={}\n", ShQuote(cmd.name + " +"), ShQuote(BashValueTag(p)));
    }
  }
  return fmt::format(
      "_kedb_commands={}\n_kedb_global_options={}\n"
      "# Declared global: bash-completion sources this file inside a function.\n"
      "declare -gA _kedb_options=(\n{})\n"
      "# \"COMMAND OPTION\" -> how its value completes: words:CHOICES, files, dirs, ids, text.\n"
      "declare -gA _kedb_values=(\n{})\n"
      "# \"COMMAND N\" -> how its positional argument N (from 0) completes; \"COMMAND +\" for the rest.\n"
      "declare -gA _kedb_args=(\n{})\n",
      ShQuote(Join(CommandNames(doc), " ")), ShQuote(Join(OptionNames(doc.options), " ")), options, values, args);
}

// The _arguments action that completes a value.
std::string ZshAction(const OptionDoc& o) {
  switch (o.kind) {
    case ValueKind::kChoice:
      return "(" + Join(o.choices, " ") + ")";
    case ValueKind::kPath:
      return "_files";
    case ValueKind::kDir:
      return "_files -/";
    case ValueKind::kRecordId:
      return "_kedb_ids";
    case ValueKind::kNone:
    case ValueKind::kText:
      break;
  }
  return " ";  // a space: nothing to offer, but the message shows
}

// Text inside an _arguments "[description]".
std::string ZshDescription(const std::string& text) {
  std::string out;
  for (char c : FirstSentence(text)) {
    if (c == '[' || c == ']' || c == '\\' || c == ':') out += '\\';
    out += c;
  }
  return out;
}

std::string ZshMessage(const OptionDoc& o) {
  std::string message;
  for (char c : o.value_name) message += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return message;
}

// One _arguments spec per name of an option; the names exclude each other.
std::vector<std::string> ZshOptionSpecs(const OptionDoc& o) {
  std::vector<std::string> specs;
  const std::string exclude = o.repeats ? "*" : o.names.size() > 1 ? "(" + Join(o.names, " ") + ")" : "";
  for (const auto& name : o.names) {
    std::string spec = exclude + name;
    if (o.kind != ValueKind::kNone) spec += name.size() > 2 ? "=" : "+";
    spec += "[" + ZshDescription(o.description) + "]";
    if (o.kind != ValueKind::kNone) spec += ":" + ZshMessage(o) + ":" + ZshAction(o);
    specs.push_back(ShQuote(spec));
  }
  return specs;
}

std::string ZshPositionalSpec(const OptionDoc& p) {
  const std::string lead = p.repeats ? "*:" : p.required ? ":" : "::";
  return ShQuote(lead + ZshMessage(p) + ":" + ZshAction(p));
}

std::string ZshCommandCase(const CommandDoc& cmd) {
  std::vector<std::string> specs;
  for (const auto& o : cmd.options) {
    auto more = ZshOptionSpecs(o);
    specs.insert(specs.end(), more.begin(), more.end());
  }
  for (const auto& p : cmd.positionals) specs.push_back(ZshPositionalSpec(p));
  return fmt::format("        ({})\n          _arguments -s \\\n            {} && ret=0 ;;\n", cmd.name,
                     Join(specs, " \\\n            "));
}

constexpr const char* kZshIds = R"ZSH(
# The record ids of the knowledge base named on the line (--kb), asked of
# the same kedb that is being completed.
_kedb_ids() {
  local -a kb ids
  local i
  for ((i = 1; i < CURRENT; i++)); do
    case $words[i] in
      --kb) kb=(--kb ${words[i+1]/#\~/$HOME}) ;;
      --kb=*) kb=($words[i]) ;;
    esac
  done
  ids=(${(f)"$(_call_program record-ids ${kedb_program/#\~/$HOME} completion ids $kb 2>/dev/null)"})
  _wanted record-ids expl 'record id' compadd -a ids
}
)ZSH";

// fish: the condition that a command was typed.
std::string FishSeen(const std::string& cmd) { return FishQuote("__fish_seen_subcommand_from " + cmd); }

std::string FishOption(const std::string& program, const std::string& condition, const OptionDoc& o) {
  std::string line = "complete -c " + program + " -n " + condition;
  for (const auto& name : o.names) line += (name.size() > 2 ? " -l " + name.substr(2) : " -s " + name.substr(1));
  switch (o.kind) {
    case ValueKind::kNone:
      break;
    case ValueKind::kChoice:
      line += " -x -a " + FishQuote(Join(o.choices, " "));
      break;
    case ValueKind::kPath:
    case ValueKind::kDir:
      line += " -r -F";
      break;
    case ValueKind::kRecordId:
      line += " -x -a '(__kedb_ids)'";
      break;
    case ValueKind::kText:
      line += " -x";
      break;
  }
  return line + " -d " + FishQuote(FirstSentence(o.description)) + "\n";
}

// Positional arguments: fish cannot tell which one is being typed, so a
// command offers what any of them takes.
std::string FishPositionals(const std::string& program, const CommandDoc& cmd) {
  std::string out;
  for (const auto& p : cmd.positionals) {
    const std::string head = "complete -c " + program + " -n " + FishSeen(cmd.name);
    if (p.kind == ValueKind::kChoice) out += head + " -a " + FishQuote(Join(p.choices, " ")) + "\n";
    if (p.kind == ValueKind::kPath || p.kind == ValueKind::kDir) out += head + " -F\n";
    if (p.kind == ValueKind::kRecordId) out += head + " -a '(__kedb_ids)'\n";
  }
  return out;
}

constexpr const char* kFishIds = R"FISH(
# The record ids of the knowledge base named on the line (--kb), asked of
# the same kedb that is being completed.
function __kedb_ids
    set -l words (commandline -opc)
    set -l kb
    for i in (seq 2 (count $words))
        switch $words[$i]
            case --kb
                test $i -lt (count $words); and set kb --kb $words[(math $i + 1)]
            case '--kb=*'
                set kb $words[$i]
        end
    end
    $words[1] completion ids $kb 2>/dev/null
end
)FISH";

}  // namespace

std::string BashCompletion(const ProgramDoc& doc) {
  return fmt::format("# bash completion for {0}, generated by `{0} completion bash` from its command definitions.\n"
                     "{1}{2}\ncomplete -F _kedb {0}\n",
                     doc.name, BashTables(doc), kBashDriver);
}

std::string ZshCompletion(const ProgramDoc& doc) {
  std::string commands, globals, cases;
  for (const auto& cmd : doc.commands) {
    commands += "        " + ShQuote(cmd.name + ":" + FirstSentence(cmd.description)) + "\n";
  }
  for (const auto& o : doc.options) {
    for (const auto& spec : ZshOptionSpecs(o)) globals += "    " + spec + " \\\n";
  }
  for (const auto& cmd : doc.commands) cases += ZshCommandCase(cmd);
  // {0} program, {1} _kedb_ids, {2} the program's options, {3} the
  // commands, {4} a case per command.
  constexpr const char* kScript = R"ZSH(#compdef {0}
# zsh completion for {0}, generated by `{0} completion zsh` from its command definitions.
{1}
_kedb() {{
  local curcontext=$curcontext state line ret=1 kedb_program=$words[1]
  typeset -A opt_args
  _arguments -C \
{2}    '1:command:->command' \
    '*::argument:->argument' && ret=0
  case $state in
    command)
      local -a commands=(
{3}      )
      _describe -t commands '{0} command' commands && ret=0 ;;
    argument)
      curcontext=${{curcontext%:*:*}}:{0}-$words[1]:
      case $words[1] in
{4}      esac ;;
  esac
  return ret
}}

_kedb "$@"
)ZSH";
  return fmt::format(kScript, doc.name, kZshIds, globals, commands, cases);
}

std::string FishCompletion(const ProgramDoc& doc) {
  std::string out = fmt::format(
      "# fish completion for {0}, generated by `{0} completion fish` from its command definitions.\n{1}\n"
      "# Only what is listed here: no file names where a command takes none.\ncomplete -c {0} -f\n",
      doc.name, kFishIds);
  for (const auto& o : doc.options) out += FishOption(doc.name, "__fish_use_subcommand", o);
  for (const auto& cmd : doc.commands) {
    out += fmt::format("complete -c {} -n __fish_use_subcommand -a {} -d {}\n", doc.name, cmd.name,
                       FishQuote(FirstSentence(cmd.description)));
  }
  for (const auto& cmd : doc.commands) {
    out += "\n# " + cmd.name + "\n";
    for (const auto& o : cmd.options) out += FishOption(doc.name, FishSeen(cmd.name), o);
    out += FishPositionals(doc.name, cmd);
  }
  return out;
}

}  // namespace kedb::cli
