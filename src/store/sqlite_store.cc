// The embedded store: one SQLite file (see store.h for its guarantees).
#include <map>
#include <mutex>
#include <optional>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "store/backends.h"
#include "store/sqlite_db.h"
#include "store/shared_sql.h"

namespace kedb::store {
namespace {

class SqliteStore final : public OutcomeStore {
 public:
  SqliteStore(std::unique_ptr<SQLite::Database> db, std::string name) : db_(std::move(db)), name_(std::move(name)) {}

  Result<Added> Add(const OutcomeReport& r) override {
    if (std::string problem = CheckReport(r); !problem.empty()) {
      return Status::InvalidArgument(fmt::format("outcome report: {}", problem));
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<SQLite::Transaction> tx;  // rolled back unless committed
    try {
      // IMMEDIATE takes the write lock first, so a concurrent writer waits
      // here (busy timeout) instead of failing at commit.
      tx.emplace(*db_, SQLite::TransactionBehavior::IMMEDIATE);
      if (!Insert(r)) {
        Result<OutcomeReport> stored = Load(r.event_id);
        if (!stored.ok()) return stored.status();
        if (!sql::IsRetryOf(r, *stored)) {
          return Status::InvalidArgument(
              fmt::format("outcome report: event_id \"{}\" is stored already with other content", r.event_id));
        }
        return Added::kDuplicate;
      }
      tx->commit();
      return Added::kNew;
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(name_, "storing a report", e);
    }
  }

  Result<std::vector<ActionCounts>> Counts(std::string_view record_id) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      std::vector<ActionCounts> out;
      CountInto(sql::kCountTotals, record_id, &out);
      CountInto(sql::kCountByEnv, record_id, &out);
      return out;
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(name_, "reading counts", e);
    }
  }

  Status AddHits(const std::vector<std::string>& record_ids, int64_t at) override {
    if (record_ids.empty()) return Status::Ok();
    std::map<std::string, int64_t> counts;
    for (const auto& id : record_ids) ++counts[id];
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<SQLite::Transaction> tx;
    try {
      tx.emplace(*db_, SQLite::TransactionBehavior::IMMEDIATE);
      SQLite::Statement upsert(*db_, sql::kAddHits);
      for (const auto& [id, n] : counts) {
        upsert.bind(1, id);
        upsert.bind(2, static_cast<int64_t>(at / 3600));
        upsert.bind(3, n);
        upsert.bind(4, at);
        upsert.exec();
        upsert.reset();
      }
      tx->commit();
      return Status::Ok();
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(name_, "counting matches", e);
    }
  }

  Result<std::vector<HitStats>> Hits(int64_t now) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      SQLite::Statement q(*db_, sql::kHitRows);
      std::vector<HitStats> out;
      while (q.executeStep()) {
        sql::FoldHit({q.getColumn(0).getString(), q.getColumn(1).getInt64(), q.getColumn(2).getInt64(),
                      q.getColumn(3).getInt64(), q.getColumn(4).getInt64()},
                     now / 3600, &out);
      }
      sql::SortHits(&out);
      return out;
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(name_, "reading match counts", e);
    }
  }

  Result<int64_t> Size() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      return static_cast<int64_t>(db_->execAndGet(sql::kSize).getInt64());
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(name_, "counting reports", e);
    }
  }

  const std::string& Name() const override { return name_; }

 private:
  // Inserts the report and its environment; false when its event id is
  // stored already (nothing is written then).
  bool Insert(const OutcomeReport& r) {
    SQLite::Statement insert(*db_, sql::kInsertOutcome);
    insert.bind(1, r.event_id);
    insert.bind(2, r.record_id);
    insert.bind(3, std::string(ToString(r.kind)));
    insert.bind(4, r.position);
    insert.bind(5, r.action);
    insert.bind(6, std::string(ToString(r.outcome)));
    insert.bind(7, r.note);
    insert.bind(8, static_cast<int64_t>(r.reported_at));
    if (insert.exec() == 0) return false;
    SQLite::Statement env(*db_, sql::kInsertEnv);
    for (const auto& [key, value] : r.env) {
      env.bind(1, r.event_id);
      env.bind(2, key);
      env.bind(3, value);
      env.exec();
      env.reset();
    }
    return true;
  }

  Result<OutcomeReport> Load(const std::string& event_id) {
    SQLite::Statement q(*db_, sql::kLoadOutcome);
    q.bind(1, event_id);
    if (!q.executeStep()) return Status::NotFound(fmt::format("{}: no report {}", name_, event_id));
    OutcomeReport r = sql::ReportFromRow(event_id, q.getColumn(0).getString(), q.getColumn(1).getString(),
                                         q.getColumn(2).getInt(), q.getColumn(3).getString(),
                                         q.getColumn(4).getString(), q.getColumn(5).getString(),
                                         q.getColumn(6).getInt64());
    SQLite::Statement env(*db_, sql::kLoadEnv);
    env.bind(1, event_id);
    while (env.executeStep()) r.env.emplace_back(env.getColumn(0).getString(), env.getColumn(1).getString());
    return r;
  }

  void CountInto(const char* statement, std::string_view record_id, std::vector<ActionCounts>* out) {
    SQLite::Statement q(*db_, statement);
    q.bind(1, std::string(record_id));
    while (q.executeStep()) {
      sql::FoldCount({q.getColumn(0).getString(), q.getColumn(2).getString(), q.getColumn(3).getString(),
                      q.getColumn(4).getString(), q.getColumn(5).getString(), q.getColumn(1).getInt(),
                      q.getColumn(6).getInt64(), q.getColumn(7).getInt64()},
                     out);
    }
  }

  // One connection, used by one call at a time: a transaction must not
  // interleave with another thread's statements.
  std::mutex mu_;
  std::unique_ptr<SQLite::Database> db_;
  std::string name_;
};

}  // namespace

Result<std::unique_ptr<OutcomeStore>> OpenSqliteStore(const std::string& path) {
  const std::string name = "sqlite:" + path;
  auto db = OpenSqliteDatabase(path, name);
  if (!db.ok()) return db.status();
  return std::unique_ptr<OutcomeStore>(std::make_unique<SqliteStore>(std::move(db).value(), name));
}

}  // namespace kedb::store
