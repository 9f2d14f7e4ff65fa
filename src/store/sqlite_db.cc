#include "store/sqlite_db.h"

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <sqlite3.h>

#include "store/migrations.h"

namespace kedb::store {
namespace {

// Brings `db` to the current schema: the steps it lacks, in one transaction.
Status Migrate(SQLite::Database& db, const std::string& name) {
  const auto steps = SchemaSteps();
  SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
  db.exec("CREATE TABLE IF NOT EXISTS kedb_schema (version INTEGER NOT NULL)");
  SQLite::Statement get(db, "SELECT version FROM kedb_schema");
  int64_t version = 0;
  const bool has_row = get.executeStep();
  if (has_row) version = get.getColumn(0).getInt64();
  get.reset();
  if (version > static_cast<int64_t>(steps.size())) {
    return Status::InvalidArgument(fmt::format(
        "{}: written by a newer kedb (schema version {}, this build knows {}); use that version", name, version,
        steps.size()));
  }
  if (!has_row) db.exec("INSERT INTO kedb_schema (version) VALUES (0)");
  for (auto v = static_cast<std::size_t>(version); v < steps.size(); ++v) {
    db.exec(std::string(steps[v]));  // all of the step's statements
    SQLite::Statement set(db, "UPDATE kedb_schema SET version = ?");
    set.bind(1, static_cast<int64_t>(v + 1));
    set.exec();
  }
  tx.commit();
  return Status::Ok();
}

}  // namespace

// A full disk is SQLITE_FULL; a write the system refused for another
// reason (a file-size limit, a failing device) is SQLITE_IOERR_WRITE, whose
// errno SQLite does not keep reliably, so the message names both likely
// causes.
Status SqliteFailed(const std::string& name, const std::string& doing, const SQLite::Exception& e) {
  const int code = e.getErrorCode();
  if (code == SQLITE_FULL) {
    return Status::IoError(fmt::format("{}: {}: the disk or the store is full; nothing of this write was kept", name, doing));
  }
  if (e.getExtendedErrorCode() == SQLITE_IOERR_WRITE) {
    return Status::IoError(fmt::format(
        "{}: {}: the system refused the write (a full disk or a file-size limit); nothing of this write was kept",
        name, doing));
  }
  if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
    return Status::Corrupt(fmt::format("{}: {}: not a kedb store or damaged: {}", name, doing, e.what()));
  }
  return Status::IoError(fmt::format("{}: {}: {}", name, doing, e.what()));
}

Result<std::unique_ptr<SQLite::Database>> OpenSqliteDatabase(const std::string& path, const std::string& name) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) return Status::IoError(fmt::format("{}: cannot create its folder: {}", name, ec.message()));
  // Setting WAL mode on a new file takes an exclusive lock without waiting
  // for the busy timeout, so when several processes open one new store at
  // once, some find it locked: they try again, for as long as a write
  // would wait.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSqliteBusyTimeoutMs);
  std::minstd_rand jitter(std::random_device{}());
  for (;;) {
    try {
      auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, kSqliteBusyTimeoutMs);
      // WAL: readers never block the writer; synchronous=FULL: a commit is
      // on disk before it returns, even across a power cut.
      db->exec("PRAGMA journal_mode=WAL");
      db->exec("PRAGMA synchronous=FULL");
      db->exec("PRAGMA foreign_keys=ON");
      if (Status st = Migrate(*db, name); !st.ok()) return st;
      return db;
    } catch (const SQLite::Exception& e) {
      const bool busy = e.getErrorCode() == SQLITE_BUSY || e.getErrorCode() == SQLITE_LOCKED;
      if (!busy || std::chrono::steady_clock::now() >= deadline) return SqliteFailed(name, "opening", e);
      std::this_thread::sleep_for(std::chrono::milliseconds(5 + jitter() % 20));
    }
  }
}

}  // namespace kedb::store
