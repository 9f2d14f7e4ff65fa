// The stores tests run against, one test per backend: a SQLite file in a
// temporary folder, and a fresh schema on the test PostgreSQL server that
// tests/pg/server.sh starts for the run (in the build's test-postgres
// folder, which ctest's `postgres` fixture starts and stops). Without a server the PostgreSQL half skips,
// saying why; with KEDB_REQUIRE_POSTGRES=1 (as CI sets it) it fails
// instead, so nothing is skipped silently.
#pragma once

#include <cstdlib>
#include <random>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "test_util.h"

namespace kedb::testing {

// One store for one test: `spec` is what OpenStore and --store take.
class TestStore {
 public:
  explicit TestStore(const std::string& backend) {
    if (backend == "sqlite") {
      spec_ = (tmp_.path() / "o.sqlite").string();
      return;
    }
    const std::filesystem::path dir = KEDB_TEST_POSTGRES_DIR;
    server_ = Trim(ReadFile(dir / "url"));
    if (server_.empty()) {
      const std::string why = Trim(ReadFile(dir / "missing"));
      missing_ = "no PostgreSQL server for the tests: " +
                 (why.empty() ? "none was started (run the tests with ctest, whose postgres fixture starts one)" : why);
      return;
    }
    // A schema of its own, so tests running at once never see each other.
    schema_ = fmt::format("t{:016x}", std::random_device{}() * 0x100000000ULL + std::random_device{}());
    try {
      pqxx::connection c(server_);
      pqxx::nontransaction(c).exec("CREATE SCHEMA " + schema_);
    } catch (const std::exception& e) {
      missing_ = std::string("cannot use the test PostgreSQL server: ") + e.what();
      return;
    }
    spec_ = server_ + (server_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_;
  }
  ~TestStore() {
    if (schema_.empty() || !missing_.empty()) return;
    try {
      pqxx::connection c(server_);
      pqxx::nontransaction(c).exec("DROP SCHEMA " + schema_ + " CASCADE");
    } catch (const std::exception&) {
    }
  }
  TestStore(const TestStore&) = delete;
  TestStore& operator=(const TestStore&) = delete;

  // Why this backend cannot run here ("" when it can).
  const std::string& missing() const { return missing_; }
  const std::string& spec() const { return spec_; }
  // The store as --kb and --into name it (a SQLite file as sqlite:PATH).
  std::string kb_spec() const { return postgres() ? spec_ : "sqlite:" + spec_; }
  bool postgres() const { return !schema_.empty(); }
  // The temporary folder of the test, for other files.
  const TempDir& tmp() const { return tmp_; }

  // Runs `sql` on the store directly, as another program (or an older
  // kedb) would.
  void Exec(const std::string& sql) const {
    if (postgres()) {
      pqxx::connection c(spec_);
      pqxx::nontransaction(c).exec(sql);
    } else {
      SQLite::Database db(spec_, SQLite::OPEN_READWRITE);
      db.exec(sql);
    }
  }

 private:
  static std::string Trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }

  TempDir tmp_;
  std::string spec_, server_, schema_, missing_;
};

// Skips (or, with KEDB_REQUIRE_POSTGRES=1, fails) a test whose backend
// cannot run here.
#define KEDB_REQUIRE_BACKEND(store)                                                    \
  do {                                                                                 \
    if (!(store).missing().empty()) {                                                  \
      const char* require = std::getenv("KEDB_REQUIRE_POSTGRES");                      \
      if (require != nullptr && std::string(require) == "1") FAIL() << (store).missing(); \
      GTEST_SKIP() << (store).missing();                                               \
    }                                                                                  \
  } while (0)

// A record no knowledge base has, for writing into stores.
inline constexpr const char* kFrobRecord =
    R"({"id": "t/frobnicator-jammed", "signature": "FrobnicatorError: the frobnicator jammed",
  "regex": "FrobnicatorError: the frobnicator jammed", "domain": "t", "category": "runtime_error",
  "root_cause": "The frobnicator's feed is blocked.",
  "workarounds": [{"action": "Clear the feed", "success_rate": 0.9}]})";

inline std::string BackendName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

}  // namespace kedb::testing
