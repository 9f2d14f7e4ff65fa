// Helpers shared by the tests: paths, files, running the CLI.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "kedb/match.h"
#include "kedb/record.h"

namespace kedb {
// Kinds print by name in a failed assertion.
inline void PrintTo(BlockKind kind, std::ostream* os) { *os << BlockKindName(kind); }
inline void PrintTo(MatchKind kind, std::ostream* os) { *os << MatchKindName(kind); }
}  // namespace kedb

namespace kedb::testing {

inline std::filesystem::path SourceDir() { return KEDB_SOURCE_DIR; }
inline std::filesystem::path TestData() { return SourceDir() / "tests" / "data"; }

// How many records the bundled kb/ holds, in all or in one domain's folder:
// tests count them rather than repeat a number that grows with the kb.
inline std::size_t BundledRecords(const std::string& domain = "") {
  std::size_t n = 0;
  const std::filesystem::path root = SourceDir() / "kb" / domain;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".json" &&
        e.path().string().find("/.") == std::string::npos) {
      ++n;
    }
  }
  return n;
}

// ../shared when it is there. Tests that need it skip without it.
inline std::optional<std::filesystem::path> SharedDir() {
  std::filesystem::path p = KEDB_SHARED_DIR;
  if (std::filesystem::is_directory(p / "corpora" / "deadends" / "canons")) return p;
  return std::nullopt;
}
#define KEDB_REQUIRE_SHARED(var)                                                              \
  auto var##_opt = ::kedb::testing::SharedDir();                                            \
  if (!var##_opt) GTEST_SKIP() << "../shared/corpora/deadends is absent: corpus test skipped"; \
  const std::filesystem::path var = *var##_opt

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteFile(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// A fresh empty folder under the system temp dir, removed at destruction.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/kedb-test-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A minimal in-memory record in domain "t".
inline Record MakeRecord(std::string id, std::string signature, std::string regex) {
  Record r;
  r.id = std::move(id);
  r.signature = std::move(signature);
  r.regex = std::move(regex);
  r.domain = "t";
  r.origin.file = "(memory)";
  return r;
}

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs a shell command line with optional stdin.
inline CommandResult RunShell(const std::string& command, const std::string& stdin_text = "") {
  TempDir tmp;
  auto in = tmp.path() / "in", out = tmp.path() / "out", err = tmp.path() / "err";
  WriteFile(in, stdin_text);
  std::string cmd = command + " <'" + in.string() + "' >'" + out.string() + "' 2>'" + err.string() + "'";
  int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

// Runs the kedb binary with `args` (a shell-quoted string) and optional stdin.
inline CommandResult RunKedb(const std::string& args, const std::string& stdin_text = "") {
  std::string cmd = "'";
  cmd += KEDB_BINARY;
  cmd += "' ";
  cmd += args;
  return RunShell(cmd, stdin_text);
}

}  // namespace kedb::testing
