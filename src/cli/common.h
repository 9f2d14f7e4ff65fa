// What every subcommand shares: exit codes, where the bundled knowledge base
// is, loading it with a clear message.
#pragma once

#include <fstream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "kedb/engine.h"
#include "kedb/knowledge_base.h"
#include "render/render.h"

namespace kedb::cli {

// Exit codes follow grep: 0 found / ok, 1 nothing found, 2 error.
constexpr int kExitOk = 0;
constexpr int kExitNothing = 1;
constexpr int kExitError = 2;

// $KEDB_KB, else the kb/ folder beside the binary's folder (build/kedb ->
// kb/), else the source tree's kb/.
std::string DefaultKbPath();

// Adds the --kb option to a subcommand.
void AddKbOption(CLI::App* cmd, std::string* kb_path);
// Adds --lang en|zh.
void AddLangOption(CLI::App* cmd, std::string* lang);
Lang ParseLang(const std::string& lang);

// Loads a knowledge base for a query. Documents that fail to load are left
// out, with one line on stderr pointing to `kedb lint`. nullopt (after
// printing why) when the path cannot be used at all.
std::optional<KnowledgeBase> LoadForQuery(const std::string& kb_path);

// Opens the engine for matching, with the same messages as LoadForQuery.
std::shared_ptr<const Engine> OpenForMatching(const std::string& kb_path);

// Adds --env and parses it into `env` (printing why on failure).
void AddEnvOption(CLI::App* cmd, std::string* env);
bool ParseEnvOption(const std::string& text, std::vector<EnvPair>* env);

// Opens a log file for reading into *file. On failure, why (the system's
// reason, or that the path is a folder), for "kedb CMD: PATH: <why>".
std::optional<std::string> OpenLog(const std::string& path, std::ifstream* file);

// Writes to stdout in full, or reports failure (a closed pipe is not an error).
void Print(const std::string& text);
void PrintError(const std::string& text);

}  // namespace kedb::cli
