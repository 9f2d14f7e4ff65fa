#include "cli/cli_docs.h"

#include <algorithm>
#include <cctype>

namespace kedb::cli {
namespace {

// An option's choices, when it was declared with check(CLI::IsMember(...)).
// CLI11 keeps the validator, and IsMember describes itself as "{a,b,c}"
// (no other validator kedb uses does), so the choices are read back from
// that description rather than kept a second time beside each option. A
// choice holding a comma would be split wrongly; none does.
std::vector<std::string> ChoicesOf(CLI::Option* option) {
  for (int i = 0;; ++i) {
    const CLI::Validator* validator = nullptr;
    try {
      validator = option->get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      return {};  // CLI11 2.1 says "no more validators" this way
    }
    const std::string set = validator->get_description();
    if (set.size() < 2 || set.front() != '{' || set.back() != '}') continue;
    std::vector<std::string> choices;
    std::string::size_type start = 1;
    while (start < set.size()) {
      auto end = set.find(',', start);
      if (end == std::string::npos) end = set.size() - 1;
      choices.push_back(set.substr(start, end - start));
      start = end + 1;
    }
    return choices;
  }
}

// The kind of value a name announces. Options say it with their type name
// (`->type_name("PATH")`, which --help shows too); a positional argument
// also with its own name ("FILE", "ID").
ValueKind KindOfName(const std::string& name) {
  if (name == "FILE" || name == "PATH") return ValueKind::kPath;
  if (name == "DIR") return ValueKind::kDir;
  if (name == "ID") return ValueKind::kRecordId;
  return ValueKind::kText;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// The value's type as CLI11 shows it ("TEXT", "UINT", "PATH"), without the
// validators' descriptions it appends after a colon.
std::string BareTypeName(const CLI::Option& option) {
  std::string type = option.get_type_name();
  return type.substr(0, type.find(':'));
}

OptionDoc DescribeOption(CLI::Option* option) {
  OptionDoc doc;
  for (const auto& s : option->get_snames()) doc.names.push_back("-" + s);
  for (const auto& l : option->get_lnames()) doc.names.push_back("--" + l);
  doc.description = option->get_description();
  doc.required = option->get_required();
  doc.repeats = option->get_items_expected_max() > 1;
  if (option->get_items_expected_max() == 0) return doc;  // a flag
  doc.choices = ChoicesOf(option);
  const std::string type = BareTypeName(*option);
  if (!doc.choices.empty()) {
    doc.kind = ValueKind::kChoice;
    // "--format FORMAT" reads better than CLI11's "--format TEXT".
    doc.value_name = option->get_positional() ? option->get_name() : Upper(option->get_lnames().front());
  } else if (option->get_positional()) {
    doc.value_name = option->get_name();
    doc.kind = KindOfName(doc.value_name);
    if (doc.kind == ValueKind::kText) doc.kind = KindOfName(type);
  } else {
    doc.value_name = type;
    doc.kind = KindOfName(type);
  }
  return doc;
}

CommandDoc DescribeCommand(CLI::App& cmd) {
  CommandDoc doc;
  doc.name = cmd.get_name();
  doc.description = cmd.get_description();
  doc.footer = cmd.get_footer();
  for (CLI::Option* option : cmd.get_options([](CLI::Option*) { return true; })) {
    if (option->get_group().empty()) continue;  // hidden from --help, so from these too
    OptionDoc described = DescribeOption(option);
    (option->get_positional() ? doc.positionals : doc.options).push_back(std::move(described));
  }
  return doc;
}

// What the command line cannot say about itself: the words around it.
// Keep EXIT STATUS in step with common.h, ENVIRONMENT with the getenv()
// calls (grep -rn getenv src/), FILES with DefaultKbPath, DefaultCacheDir
// and DefaultStoreSpec.
void AddProgramFacts(ProgramDoc* doc) {
  doc->description = {
      "kedb matches error messages and logs against a knowledge base of known errors, each a record with its "
      "signature, patterns, root cause, the fixes that work (with their success rates) and the dead ends that "
      "do not. It answers on the command line, as JSON, in formats a CI system shows, over HTTP "
      "(kedb serve) and to AI agents over MCP (kedb mcp).",
      "Without --kb, the knowledge base installed with kedb is used. Outcomes reported with kedb report are "
      "kept in a store and fold into the success rates shown."};
  doc->exit_status = {
      {"0", "Found: a known error matched, records were found, or the command succeeded."},
      {"1", "Nothing found: no known error, no record by that id, or (scan --fail-on) the condition asked for "
            "was met."},
      {"2", "Error: bad usage, an unreadable input or knowledge base, or a failed check."}};
  doc->environment = {
      {"KEDB_KB", "Knowledge base to use when --kb is not given."},
      {"KEDB_STORE", "Outcome store to use when --store is not given: a SQLite file or a postgresql:// URL."},
      {"KEDB_TOKEN", "Token that writes over HTTP must carry (kedb serve, when --token-file is not given); "
                     "at least 16 characters."},
      {"GITHUB_STEP_SUMMARY", "File that kedb scan --format github appends its job summary to (set by GitHub "
                              "Actions)."},
      {"NO_COLOR", "When set and not empty, match and scan print no colour on a terminal (--color always "
                   "overrides it); TERM=dumb does the same."},
      {"XDG_CACHE_HOME", "Where caches go when they cannot be written beside the knowledge base "
                         "(default ~/.cache)."},
      {"XDG_DATA_HOME", "Where the default outcome store is kept (default ~/.local/share)."}};
  doc->files = {
      {"PREFIX/share/kedb/kb/", "The knowledge base installed with kedb, found beside the binary's folder."},
      {"KB/.kedb-cache/", "Caches of a knowledge base folder (a snapshot of its records, its compiled "
                          "patterns), kept beside it when it is writable, else in $XDG_CACHE_HOME/kedb/."},
      {"$XDG_DATA_HOME/kedb/outcomes.sqlite", "The default outcome store."}};
}

}  // namespace

ProgramDoc DescribeProgram(CLI::App& app, const std::string& version) {
  ProgramDoc doc;
  doc.name = app.get_name();
  doc.summary = app.get_description();
  doc.version = version;
  for (CLI::Option* option : app.get_options([](CLI::Option*) { return true; })) {
    if (!option->get_group().empty()) doc.options.push_back(DescribeOption(option));
  }
  for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
    if (!cmd->get_group().empty()) doc.commands.push_back(DescribeCommand(*cmd));
  }
  AddProgramFacts(&doc);
  return doc;
}

std::string FirstSentence(const std::string& text) {
  // A sentence ends at a period before a capital letter: "postgresql://...
  // or" and "e.g. cuda" go on.
  std::size_t end = 0;
  while ((end = text.find('.', end)) != std::string::npos) {
    if (end + 2 < text.size() && std::isspace(static_cast<unsigned char>(text[end + 1])) &&
        std::isupper(static_cast<unsigned char>(text[end + 2]))) {
      break;
    }
    ++end;
  }
  std::string first = text.substr(0, end);
  std::replace(first.begin(), first.end(), '\n', ' ');
  return first;
}

std::string MainName(const OptionDoc& option) {
  if (option.names.empty()) return option.value_name;
  auto it = std::find_if(option.names.begin(), option.names.end(), [](const std::string& n) { return n.size() > 2; });
  return it != option.names.end() ? *it : option.names.front();
}

}  // namespace kedb::cli
