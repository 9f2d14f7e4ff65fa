// The command line described as plain data, read from the live CLI::App
// tree, and the documents made from that description: shell completion
// scripts (bash, zsh, fish) and the man page. Reading the tree and writing
// a document are kept apart, so each renderer is a function of the
// description alone and a new option shows up everywhere without touching
// this code.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kedb::cli {

// What a value on the command line is, which decides how it completes.
enum class ValueKind {
  kNone,      // a flag: no value
  kText,      // free text (or a number): nothing to offer
  kChoice,    // one of OptionDoc::choices
  kPath,      // a file or folder
  kDir,       // a folder
  kRecordId,  // a record id of the knowledge base
};

// A named option, or a positional argument (then `names` is empty).
struct OptionDoc {
  std::vector<std::string> names;  // "-h", "--help": short names first
  std::string value_name;          // "PATH", "FORMAT", "FILE"; "" for a flag
  std::string description;
  std::vector<std::string> choices;
  ValueKind kind = ValueKind::kNone;
  bool required = false;
  bool repeats = false;  // takes more than one value (or may be given again)
};

struct CommandDoc {
  std::string name, description, footer;
  std::vector<OptionDoc> options;      // named options and flags, as declared
  std::vector<OptionDoc> positionals;  // in command-line order
};

struct NamedDoc {
  std::string name, description;
};

struct ProgramDoc {
  std::string name, summary, version;
  std::vector<std::string> description;  // the man page's paragraphs
  std::vector<OptionDoc> options;        // the program's own (--help, --version)
  std::vector<CommandDoc> commands;
  std::vector<NamedDoc> exit_status, environment, files;
};

// Reads the program's description from its CLI definition. Non-const
// because CLI11 2.1 hands out an option's validators (where the choices
// of IsMember live) only through a non-const accessor.
ProgramDoc DescribeProgram(CLI::App& app, const std::string& version);

// The renderers: each a complete file's text.
std::string BashCompletion(const ProgramDoc& doc);
std::string ZshCompletion(const ProgramDoc& doc);
std::string FishCompletion(const ProgramDoc& doc);
std::string ManPage(const ProgramDoc& doc);

// The first sentence of a description, for the one line a completion menu
// has room for.
std::string FirstSentence(const std::string& text);

// "--format" of an option (its first long name, else its first short one).
std::string MainName(const OptionDoc& option);

}  // namespace kedb::cli
