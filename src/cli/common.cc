#include "cli/common.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "app/open.h"
#include "app/store_kb.h"

namespace kedb::cli {
namespace fs = std::filesystem;

std::string DefaultKbPath() {
  if (const char* env = std::getenv("KEDB_KB"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& candidate : {exe.parent_path().parent_path() / "kb",
                                      exe.parent_path().parent_path() / "share" / "kedb" / "kb"}) {
      if (fs::is_directory(candidate, ec)) return candidate.string();
    }
  }
  return (fs::path(KEDB_SOURCE_DIR) / "kb").string();
}

void AddKbOption(CLI::App* cmd, std::string* kb_path) {
  cmd->add_option("--kb", *kb_path,
                  "Knowledge base: a folder of records (native or deadends.dev canon), a .jsonl file, one record "
                  "file, or a store (postgresql://... or sqlite:PATH) (default: the bundled kb/, or $KEDB_KB)")
      ->type_name("PATH");
}

void AddLangOption(CLI::App* cmd, std::string* lang) {
  cmd->add_option("--lang", *lang, "Language of the text output")->check(CLI::IsMember({"en", "zh"}));
}

Lang ParseLang(const std::string& lang) { return lang == "zh" ? Lang::kZh : Lang::kEn; }

void AddColorOption(CLI::App* cmd, std::string* color) {
  cmd->add_option("--color", *color,
                  "Colour the text: the root error, record ids, rates (auto: on a terminal, unless NO_COLOR is set)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

TextStyle StyleFor(const std::string& color) {
  if (color == "always") return {.color = true};
  if (color == "never") return {};
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  const bool dumb = term != nullptr && std::string_view(term) == "dumb";
  return {.color = isatty(STDOUT_FILENO) == 1 && !dumb && (no_color == nullptr || *no_color == '\0')};
}

std::shared_ptr<const Engine> OpenForQuery(const std::string& kb_path, bool records_only) {
  std::string path = kb_path.empty() ? DefaultKbPath() : kb_path;
  std::string notes;
  auto engine = app::OpenEngine(path, &notes, records_only);
  if (!engine.ok()) {
    PrintError(fmt::format("kedb: {}\n", engine.status().message()));
    return nullptr;
  }
  if (!notes.empty()) PrintError("kedb: " + notes);
  // A command runs once and exits: freeing the engine's records and indexes
  // at exit would cost a tenth of a cold start for nothing, so one
  // reference is kept until the process ends.
  static auto* kept = new std::vector<std::shared_ptr<const Engine>>();
  kept->push_back(engine.value());
  return std::move(engine).value();
}

int Emit(const app::Answer& answer, bool json, const std::string& what) {
  PrintError(answer.notes);
  switch (answer.kind) {
    case app::Answer::Kind::kOk:
      Print(json ? answer.json : answer.text);
      return answer.found ? kExitOk : kExitNothing;
    case app::Answer::Kind::kNotFound:
      PrintError(fmt::format("{}: {}\n", what, answer.message));
      return kExitNothing;
    case app::Answer::Kind::kInvalid:
    case app::Answer::Kind::kUnavailable:
    case app::Answer::Kind::kConflict:
      break;
  }
  PrintError(fmt::format("{}: {}\n", what, answer.message));
  return kExitError;
}

std::string CacheDirFor(const std::string& kb_path) {
  return app::IsStoreKb(kb_path) ? UserCacheDir() : DefaultCacheDir(kb_path);
}

std::unique_ptr<serve::StoreFollower> FollowStore(serve::EngineSlot& slot, const std::string& what, bool* failed) {
  *failed = false;
  if (!slot.from_store()) return nullptr;
  auto follower = serve::StoreFollower::Start(slot, [what](const std::string& line) {
    PrintError(fmt::format("{}: {}\n", what, line));
  });
  if (!follower.ok()) {
    PrintError(fmt::format("{}: {}\n", what, follower.status().message()));
    *failed = true;
    return nullptr;
  }
  return std::move(follower).value();
}

void AddStoreOption(CLI::App* cmd, std::string* store) {
  cmd->add_option("--store", *store,
                  "Where outcome reports are kept: a SQLite file or a postgresql:// URL (default: "
                  "$KEDB_STORE, else $XDG_DATA_HOME/kedb/outcomes.sqlite)")
      ->type_name("PATH");
}

std::unique_ptr<store::OutcomeStore> OpenStoreFor(const std::string& spec, bool only_if_present, const std::string& what,
                                                  bool* failed) {
  *failed = false;
  const std::string path = spec.empty() ? store::DefaultStoreSpec() : spec;
  std::error_code ec;
  if (spec.empty() && only_if_present && !store::IsPostgresSpec(path) && !std::filesystem::exists(path, ec)) {
    return nullptr;
  }
  auto opened = store::OpenStore(path);
  if (!opened.ok()) {
    PrintError(fmt::format("{}: {}\n", what, opened.status().message()));
    *failed = true;
    return nullptr;
  }
  return std::move(opened).value();
}

Result<std::string> WriteToken(const std::string& token_file) {
  std::string token;
  if (!token_file.empty()) {
    std::ifstream in(token_file);
    if (!in) return Status::IoError(fmt::format("--token-file {}: {}", token_file, std::strerror(errno)));
    std::getline(in, token);
  } else if (const char* env = std::getenv("KEDB_TOKEN"); env != nullptr) {
    token = env;
  }
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ' || token.back() == '\t')) token.pop_back();
  if (!token.empty() && token.size() < 16) {
    return Status::InvalidArgument(fmt::format("the write token has {} characters; use at least 16", token.size()));
  }
  return token;
}

void AddEnvOption(CLI::App* cmd, std::string* env) {
  cmd->add_option("--env", *env,
                  "Your environment as KEY=VALUE,...: versions (torch=2.2, cudnn=8.9, cuda=12.1) and os=linux|macos|windows; "
                  "records that fit rank higher");
}

void Print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void PrintError(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stderr); }

}  // namespace kedb::cli
