#include "store/postgres_db.h"

#include <fmt/format.h>

#include "store/migrations.h"

namespace kedb::store {
namespace {

// Taken while migrating, so servers starting together migrate one at a
// time; any fixed number unlikely to clash with an application's own.
constexpr int64_t kMigrationLock = 0x6b656462;  // "kedb"

std::string FirstLine(std::string_view text) {
  const auto end = text.find('\n');
  return std::string(text.substr(0, end));
}

}  // namespace

Status PostgresFailed(const std::string& name, const std::string& doing, const std::exception& e) {
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) {
    return Status::IoError(fmt::format(
        "{}: {}: the connection broke during the commit, so whether it was kept is unknown; sending it again "
        "is safe (a report with the same event id, or the same record, counts once)",
        name, doing));
  }
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) {
    return Status::IoError(fmt::format("{}: {}: cannot reach the server: {}", name, doing, FirstLine(e.what())));
  }
  if (const auto* s = dynamic_cast<const pqxx::sql_error*>(&e); s != nullptr) {
    if (s->sqlstate() == "53100") {
      return Status::IoError(
          fmt::format("{}: {}: the server's disk is full; nothing of this write was kept", name, doing));
    }
    return Status::IoError(fmt::format("{}: {}: {} (SQLSTATE {})", name, doing, FirstLine(e.what()), s->sqlstate()));
  }
  return Status::IoError(fmt::format("{}: {}: {}", name, doing, FirstLine(e.what())));
}

namespace {

// Brings the database to the current schema in one transaction, holding
// an advisory lock so that servers starting together take turns.
Status Migrate(pqxx::connection& db, const std::string& name) {
  const auto steps = SchemaSteps();
  pqxx::work tx(db);
  tx.exec_params("SELECT pg_advisory_xact_lock($1)", static_cast<long long>(kMigrationLock));
  tx.exec("CREATE TABLE IF NOT EXISTS kedb_schema (version INTEGER NOT NULL)");
  const pqxx::result got = tx.exec("SELECT version FROM kedb_schema");
  const long long version = got.empty() ? 0 : got[0][0].as<long long>();
  if (version > static_cast<long long>(steps.size())) {
    return Status::InvalidArgument(fmt::format(
        "{}: written by a newer kedb (schema version {}, this build knows {}); use that version", name, version,
        steps.size()));
  }
  if (got.empty()) tx.exec("INSERT INTO kedb_schema (version) VALUES (0)");
  for (auto v = static_cast<std::size_t>(version); v < steps.size(); ++v) {
    tx.exec(std::string(steps[v]));
    tx.exec_params("UPDATE kedb_schema SET version = $1", static_cast<long long>(v + 1));
  }
  tx.commit();
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<pqxx::connection>> OpenPostgresDatabase(const std::string& url, const std::string& name) {
  try {
    auto db = std::make_unique<pqxx::connection>(url);
    // An acknowledged write must be durable whatever the server's default.
    db->set_variable("synchronous_commit", "on");
    if (Status st = Migrate(*db, name); !st.ok()) return st;
    return db;
  } catch (const std::exception& e) {
    return PostgresFailed(name, "opening", e);
  }
}

}  // namespace kedb::store
