// Records in the shared store (record_store.h). A write that changes
// records sends NOTIFY on the channel kedb_records with the new revision,
// delivered when it commits; a watcher LISTENs on its own connection, so a
// server hears of a change within milliseconds instead of polling.
#include <mutex>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "store/backends.h"
#include "store/postgres_db.h"
#include "store/record_store.h"
#include "store/shared_sql.h"

namespace kedb::store {
namespace {

constexpr const char* kChannel = "kedb_records";

class PostgresRecordStore final : public RecordStore {
 public:
  PostgresRecordStore(std::unique_ptr<pqxx::connection> db, std::string name)
      : RecordStore(std::move(name)), db_(std::move(db)) {}

  Result<Written> Put(const std::vector<StoredRecord>& records, int64_t at) override {
    if (std::string problem = CheckRecordsToStore(records); !problem.empty()) {
      return Status::InvalidArgument(problem);
    }
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::work tx(*db_);
      // Locks the revision row: concurrent writers take turns from here.
      const auto revision = tx.exec(sql::kNextRevision)[0][0].as<long long>();
      Written w;
      for (const StoredRecord& r : records) {
        const auto put = tx.exec_params(sql::kPutRecord, r.id, r.json, revision, static_cast<long long>(at));
        (put.affected_rows() > 0 ? w.changed : w.unchanged) += 1;
      }
      if (w.changed == 0) {  // nothing to tell anyone: the revision stays
        tx.abort();
        w.revision = revision - 1;
        return w;
      }
      tx.exec_params("SELECT pg_notify($1, $2)", std::string(kChannel), std::to_string(revision));
      tx.commit();
      w.revision = revision;
      return w;
    } catch (const std::exception& e) {
      return PostgresFailed(Name(), "storing records", e);
    }
  }

  Result<std::optional<StoredRecord>> Get(std::string_view id) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::read_transaction tx(*db_);
      const auto rows = tx.exec_params(sql::kGetRecord, std::string(id));
      if (rows.empty()) return std::optional<StoredRecord>();
      return std::optional<StoredRecord>(
          StoredRecord{std::string(id), rows[0][0].as<std::string>(), rows[0][1].as<long long>()});
    } catch (const std::exception& e) {
      return PostgresFailed(Name(), "reading a record", e);
    }
  }

  Result<Snapshot> All() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      // Repeatable read: the revision and the records are one snapshot.
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> tx(*db_);
      Snapshot snap;
      snap.revision = tx.exec(sql::kRevision)[0][0].as<long long>();
      for (const auto& row : tx.exec(sql::kAllRecords)) {
        snap.records.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<long long>()});
      }
      return snap;
    } catch (const std::exception& e) {
      return PostgresFailed(Name(), "reading records", e);
    }
  }

  Result<int64_t> Revision() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      pqxx::read_transaction tx(*db_);
      return static_cast<int64_t>(tx.exec(sql::kRevision)[0][0].as<long long>());
    } catch (const std::exception& e) {
      return PostgresFailed(Name(), "reading the revision", e);
    }
  }

 private:
  std::mutex mu_;
  std::unique_ptr<pqxx::connection> db_;
};

// LISTENs while it exists.
class Listener final : public pqxx::notification_receiver {
 public:
  explicit Listener(pqxx::connection_base& c) : pqxx::notification_receiver(c, kChannel) {}
  void operator()(const std::string&, int) override {}  // waking up is all it is for
};

class PostgresRecordWatcher final : public RecordWatcher {
 public:
  PostgresRecordWatcher(std::string url, std::string name) : url_(std::move(url)), name_(std::move(name)) {}

  Result<int64_t> WaitPast(int64_t seen, std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    try {
      if (db_ == nullptr) {  // first use, or the connection broke
        auto db = OpenPostgresDatabase(url_, name_);
        if (!db.ok()) return db.status();
        db_ = std::move(db).value();
        listener_ = std::make_unique<Listener>(*db_);
      }
      for (;;) {
        // Read after LISTEN took effect, so a change committed in between
        // is seen here rather than missed.
        const int64_t revision = ReadRevision();
        const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - std::chrono::steady_clock::now());
        if (revision > seen || left.count() <= 0) return revision;
        db_->await_notification(static_cast<long>(left.count() / 1000000), static_cast<long>(left.count() % 1000000));
      }
    } catch (const std::exception& e) {
      listener_.reset();
      db_.reset();
      return PostgresFailed(name_, "waiting for record changes", e);
    }
  }

 private:
  int64_t ReadRevision() {
    pqxx::read_transaction tx(*db_);
    return tx.exec(sql::kRevision)[0][0].as<long long>();
  }

  const std::string url_, name_;
  std::unique_ptr<pqxx::connection> db_;
  std::unique_ptr<Listener> listener_;  // declared after db_: destroyed before it
};

}  // namespace

Result<std::unique_ptr<RecordStore>> OpenPostgresRecordStore(const std::string& url) {
  const std::string name = RedactUrl(url);
  auto db = OpenPostgresDatabase(url, name);
  if (!db.ok()) return db.status();
  return std::unique_ptr<RecordStore>(std::make_unique<PostgresRecordStore>(std::move(db).value(), name));
}

Result<std::unique_ptr<RecordWatcher>> OpenPostgresRecordWatcher(const std::string& url) {
  auto watcher = std::make_unique<PostgresRecordWatcher>(url, RedactUrl(url));
  // Connect now, so a server that cannot watch says so at start.
  auto first = watcher->WaitPast(std::numeric_limits<int64_t>::max(), std::chrono::milliseconds(0));
  if (!first.ok()) return first.status();
  return std::unique_ptr<RecordWatcher>(std::move(watcher));
}

}  // namespace kedb::store
