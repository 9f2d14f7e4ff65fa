// What every subcommand shares: exit codes, where the bundled knowledge base
// is, opening it with a clear message, printing a query layer's answer.
#pragma once

#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "app/queries.h"
#include "app/scan_files.h"
#include "serve/engine_slot.h"
#include "serve/store_follower.h"
#include "store/store.h"

namespace kedb::cli {

using app::OpenLog;

// Exit codes follow grep: 0 found / ok, 1 nothing found, 2 error.
constexpr int kExitOk = 0;
constexpr int kExitNothing = 1;
constexpr int kExitError = 2;

// The program's version (CMake's project version).
constexpr const char* kVersion = KEDB_VERSION;

// $KEDB_KB, else the kb/ folder beside the binary's folder (build/kedb ->
// kb/), else the source tree's kb/.
std::string DefaultKbPath();

// Adds the --kb option to a subcommand.
void AddKbOption(CLI::App* cmd, std::string* kb_path);
// Adds --lang en|zh.
void AddLangOption(CLI::App* cmd, std::string* lang);
Lang ParseLang(const std::string& lang);
// Adds --color auto|always|never.
void AddColorOption(CLI::App* cmd, std::string* color);
// The style text on stdout gets: colour with "always"; with "auto", when
// stdout is a terminal (not TERM=dumb) and NO_COLOR is unset or empty
// (https://no-color.org: a flag given on the command line overrides it).
TextStyle StyleFor(const std::string& color);

// Opens the engine for a query ("" for the default knowledge base).
// Documents that fail to load are left out, with one line on stderr
// pointing to `kedb lint`. nullptr (after printing why) when the path
// cannot be used at all or holds no record.
// `records_only` for a command that never matches text (show, search,
// chain, stats): the indexes are then built only if something needs them.
std::shared_ptr<const Engine> OpenForQuery(const std::string& kb_path, bool records_only = false);

// Where a knowledge base's caches go: beside it for a path
// (DefaultCacheDir), the user's cache folder for one kept in a store.
std::string CacheDirFor(const std::string& kb_path);

// For a server whose knowledge base is kept in a store: follows the store,
// reloading on every change, with a line on stderr per reload (prefixed
// `what`). nullptr when the knowledge base is files; nullptr after
// printing why, with *failed set, when the store cannot be watched.
std::unique_ptr<serve::StoreFollower> FollowStore(serve::EngineSlot& slot, const std::string& what, bool* failed);

// Adds --store PATH (where outcome reports are kept).
void AddStoreOption(CLI::App* cmd, std::string* store);
// Opens the store `spec` names, or the default one when `spec` is "".
// With `only_if_present`, a default store that does not exist yet is not
// created: the result is nullptr without a message (nothing was
// reported). nullptr after printing why, with *failed set, when it cannot
// be opened.
std::unique_ptr<store::OutcomeStore> OpenStoreFor(const std::string& spec, bool only_if_present, const std::string& what,
                                                  bool* failed);

// The token writes over HTTP must carry: the first line of `token_file`
// when given, else $KEDB_TOKEN, else "" (writes off). A token shorter than
// 16 characters is refused: it could be guessed.
Result<std::string> WriteToken(const std::string& token_file);

// Adds --env (parsed by the query layer).
void AddEnvOption(CLI::App* cmd, std::string* env);

// Prints a query layer's answer: its JSON or its text on stdout, its notes
// on stderr, or "`what`: why" on stderr when it has no answer. `what` names
// the command, and the input when there is one ("kedb scan: ci.log").
// Returns the exit status: 0 found, 1 nothing found or no such record, 2
// invalid.
int Emit(const app::Answer& answer, bool json, const std::string& what);

// Writes to stdout in full, or reports failure (a closed pipe is not an error).
void Print(const std::string& text);
void PrintError(const std::string& text);

}  // namespace kedb::cli
