// The shared store: one PostgreSQL database, for teams running several
// servers (see store.h for the guarantees every backend keeps).
//
// Durability comes from the server: the connection asks for
// synchronous_commit=on (postgres_db.h), so a commit returns only once the
// server has the report in its write-ahead log. Several
// servers may write at once: a retried event id is settled by the primary
// key, and hit counters are upserted in one order (by record id), so two
// writers never wait on each other in a cycle.
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "store/backends.h"
#include "store/postgres_db.h"
#include "store/shared_sql.h"

namespace kedb::store {
namespace {

class PostgresStore final : public OutcomeStore {
 public:
  PostgresStore(std::unique_ptr<pqxx::connection> db, std::string name) : db_(std::move(db)), name_(std::move(name)) {}

  Result<Added> Add(const OutcomeReport& r) override {
    if (std::string problem = CheckReport(r); !problem.empty()) {
      return Status::InvalidArgument(fmt::format("outcome report: {}", problem));
    }
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::work tx(*db_);
      const pqxx::result inserted =
          tx.exec_params(sql::kInsertOutcome, r.event_id, r.record_id, std::string(ToString(r.kind)), r.position,
                         r.action, std::string(ToString(r.outcome)), r.note, static_cast<long long>(r.reported_at));
      if (inserted.affected_rows() == 0) {
        const OutcomeReport stored = Load(tx, r.event_id);
        if (!sql::IsRetryOf(r, stored)) {
          return Status::InvalidArgument(
              fmt::format("outcome report: event_id \"{}\" is stored already with other content", r.event_id));
        }
        return Added::kDuplicate;
      }
      for (const auto& [key, value] : r.env) tx.exec_params(sql::kInsertEnv, r.event_id, key, value);
      tx.commit();
      return Added::kNew;
    } catch (const std::exception& e) {
      return PostgresFailed(name_, "storing a report", e);
    }
  }

  Result<std::vector<ActionCounts>> Counts(std::string_view record_id) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::read_transaction tx(*db_);
      std::vector<ActionCounts> out;
      for (const char* statement : {sql::kCountTotals, sql::kCountByEnv}) {
        for (const auto& row : tx.exec_params(statement, std::string(record_id))) {
          sql::FoldCount({row[0].as<std::string>(), row[2].as<std::string>(), row[3].as<std::string>(),
                          row[4].as<std::string>(), row[5].as<std::string>(), row[1].as<int>(),
                          row[6].as<long long>(), row[7].as<long long>()},
                         &out);
        }
      }
      return out;
    } catch (const std::exception& e) {
      return PostgresFailed(name_, "reading counts", e);
    }
  }

  Status AddHits(const std::vector<std::string>& record_ids, int64_t at) override {
    if (record_ids.empty()) return Status::Ok();
    std::map<std::string, long long> counts;  // sorted: every writer locks rows in one order
    for (const auto& id : record_ids) ++counts[id];
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::work tx(*db_);
      for (const auto& [id, n] : counts) {
        tx.exec_params(sql::kAddHits, id, static_cast<long long>(at / 3600), n, static_cast<long long>(at));
      }
      tx.commit();
      return Status::Ok();
    } catch (const std::exception& e) {
      return PostgresFailed(name_, "counting matches", e);
    }
  }

  Result<std::vector<HitStats>> Hits(int64_t now) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::read_transaction tx(*db_);
      std::vector<HitStats> out;
      for (const auto& row : tx.exec(sql::kHitRows)) {
        sql::FoldHit({row[0].as<std::string>(), row[1].as<long long>(), row[2].as<long long>(),
                      row[3].as<long long>(), row[4].as<long long>()},
                     now / 3600, &out);
      }
      sql::SortHits(&out);
      return out;
    } catch (const std::exception& e) {
      return PostgresFailed(name_, "reading match counts", e);
    }
  }

  Result<int64_t> Size() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::read_transaction tx(*db_);
      return static_cast<int64_t>(tx.exec(sql::kSize)[0][0].as<long long>());
    } catch (const std::exception& e) {
      return PostgresFailed(name_, "counting reports", e);
    }
  }

  const std::string& Name() const override { return name_; }

 private:
  static OutcomeReport Load(pqxx::transaction_base& tx, const std::string& event_id) {
    const pqxx::result rows = tx.exec_params(sql::kLoadOutcome, event_id);
    if (rows.empty()) return {};  // gone since the insert saw it: not the same report
    const auto& q = rows[0];
    OutcomeReport r = sql::ReportFromRow(event_id, q[0].as<std::string>(), q[1].as<std::string>(), q[2].as<int>(),
                                         q[3].as<std::string>(), q[4].as<std::string>(), q[5].as<std::string>(),
                                         q[6].as<long long>());
    for (const auto& env : tx.exec_params(sql::kLoadEnv, event_id)) {
      r.env.emplace_back(env[0].as<std::string>(), env[1].as<std::string>());
    }
    return r;
  }

  // One connection, used by one call at a time.
  std::mutex mu_;
  std::unique_ptr<pqxx::connection> db_;
  std::string name_;
};

}  // namespace

Result<std::unique_ptr<OutcomeStore>> OpenPostgresStore(const std::string& url) {
  const std::string name = RedactUrl(url);
  auto db = OpenPostgresDatabase(url, name);
  if (!db.ok()) return db.status();
  return std::unique_ptr<OutcomeStore>(std::make_unique<PostgresStore>(std::move(db).value(), name));
}

}  // namespace kedb::store
