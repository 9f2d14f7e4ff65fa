// Records in the embedded store (record_store.h), and a watcher that reads
// the revision a few times a second: SQLite has no way to wake another
// process, and one small read every 100 ms costs nothing noticeable.
#include <mutex>
#include <optional>
#include <thread>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "store/backends.h"
#include "store/record_store.h"
#include "store/shared_sql.h"
#include "store/sqlite_db.h"

namespace kedb::store {
namespace {

constexpr std::chrono::milliseconds kPollInterval{100};

class SqliteRecordStore final : public RecordStore {
 public:
  SqliteRecordStore(std::unique_ptr<SQLite::Database> db, std::string name)
      : RecordStore(std::move(name)), db_(std::move(db)) {}

  Result<Written> Put(const std::vector<StoredRecord>& records, int64_t at) override {
    if (std::string problem = CheckRecordsToStore(records); !problem.empty()) {
      return Status::InvalidArgument(problem);
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<SQLite::Transaction> tx;  // rolled back unless committed
    try {
      tx.emplace(*db_, SQLite::TransactionBehavior::IMMEDIATE);
      const int64_t revision = db_->execAndGet(sql::kNextRevision).getInt64();
      Written w;
      SQLite::Statement put(*db_, sql::kPutRecord);
      for (const StoredRecord& r : records) {
        put.bind(1, r.id);
        put.bind(2, r.json);
        put.bind(3, revision);
        put.bind(4, static_cast<int64_t>(at));
        (put.exec() > 0 ? w.changed : w.unchanged) += 1;
        put.reset();
      }
      if (w.changed == 0) {  // nothing to tell anyone: the revision stays
        tx.reset();
        w.revision = revision - 1;
        return w;
      }
      tx->commit();
      w.revision = revision;
      return w;
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(Name(), "storing records", e);
    }
  }

  Result<std::optional<StoredRecord>> Get(std::string_view id) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      SQLite::Statement q(*db_, sql::kGetRecord);
      q.bind(1, std::string(id));
      if (!q.executeStep()) return std::optional<StoredRecord>();
      return std::optional<StoredRecord>(StoredRecord{std::string(id), q.getColumn(0).getString(), q.getColumn(1).getInt64()});
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(Name(), "reading a record", e);
    }
  }

  Result<Snapshot> All() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      SQLite::Transaction tx(*db_);  // one snapshot for both reads
      Snapshot snap;
      snap.revision = db_->execAndGet(sql::kRevision).getInt64();
      SQLite::Statement q(*db_, sql::kAllRecords);
      while (q.executeStep()) {
        snap.records.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getInt64()});
      }
      return snap;
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(Name(), "reading records", e);
    }
  }

  Result<int64_t> Revision() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      return static_cast<int64_t>(db_->execAndGet(sql::kRevision).getInt64());
    } catch (const SQLite::Exception& e) {
      return SqliteFailed(Name(), "reading the revision", e);
    }
  }

 private:
  std::mutex mu_;
  std::unique_ptr<SQLite::Database> db_;
};

class SqliteRecordWatcher final : public RecordWatcher {
 public:
  explicit SqliteRecordWatcher(std::unique_ptr<RecordStore> store) : store_(std::move(store)) {}

  Result<int64_t> WaitPast(int64_t seen, std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      auto revision = store_->Revision();
      if (!revision.ok() || *revision > seen) return revision;
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return revision;
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(kPollInterval, deadline - now));
    }
  }

 private:
  std::unique_ptr<RecordStore> store_;
};

}  // namespace

Result<std::unique_ptr<RecordStore>> OpenSqliteRecordStore(const std::string& path) {
  const std::string name = "sqlite:" + path;
  auto db = OpenSqliteDatabase(path, name);
  if (!db.ok()) return db.status();
  return std::unique_ptr<RecordStore>(std::make_unique<SqliteRecordStore>(std::move(db).value(), name));
}

Result<std::unique_ptr<RecordWatcher>> OpenSqliteRecordWatcher(const std::string& path) {
  auto store = OpenSqliteRecordStore(path);
  if (!store.ok()) return store.status();
  return std::unique_ptr<RecordWatcher>(std::make_unique<SqliteRecordWatcher>(std::move(store).value()));
}

}  // namespace kedb::store
