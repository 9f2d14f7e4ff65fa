// The embedded store: one SQLite file (see store.h for its guarantees).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include "store/migrations.h"
#include "store/store.h"

namespace kedb::store {
namespace {

// How long a write waits for another process's write before giving up.
constexpr int kBusyTimeoutMs = 10000;

// What went wrong, as a person can act on it. A full disk is SQLITE_FULL;
// a write the system refused for another reason (a file-size limit, a
// failing device) is SQLITE_IOERR_WRITE, whose errno SQLite does not keep
// reliably, so the message names both likely causes.
Status Failed(const std::string& name, const std::string& doing, const SQLite::Exception& e) {
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
        OutcomeReport mine = r;
        mine.reported_at = stored->reported_at;  // a retry may be stamped later
        if (!(mine == *stored)) {
          return Status::InvalidArgument(
              fmt::format("outcome report: event_id \"{}\" is stored already with other content", r.event_id));
        }
        return Added::kDuplicate;
      }
      tx->commit();
      return Added::kNew;
    } catch (const SQLite::Exception& e) {
      return Failed(name_, "storing a report", e);
    }
  }

  Result<std::vector<ActionCounts>> Counts(std::string_view record_id) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      std::vector<ActionCounts> out;
      // Totals per action as reported, then per action and environment pair.
      CountInto(
          "SELECT kind, position, action, '', '', outcome, COUNT(*), MAX(reported_at) FROM outcomes "
          "WHERE record_id = ? GROUP BY kind, position, action, outcome ORDER BY kind, position, action",
          record_id, &out);
      CountInto(
          "SELECT o.kind, o.position, o.action, e.key, e.value, o.outcome, COUNT(*), MAX(o.reported_at) "
          "FROM outcomes o JOIN outcome_env e ON e.event_id = o.event_id WHERE o.record_id = ? "
          "GROUP BY o.kind, o.position, o.action, e.key, e.value, o.outcome "
          "ORDER BY o.kind, o.position, o.action, e.key, e.value",
          record_id, &out);
      return out;
    } catch (const SQLite::Exception& e) {
      return Failed(name_, "reading counts", e);
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
      SQLite::Statement upsert(*db_,
                               "INSERT INTO hits (record_id, hour, count, first_at, last_at) VALUES (?, ?, ?, ?, ?) "
                               "ON CONFLICT (record_id, hour) DO UPDATE SET count = hits.count + excluded.count, "
                               "first_at = min(hits.first_at, excluded.first_at), "
                               "last_at = max(hits.last_at, excluded.last_at)");
      for (const auto& [id, n] : counts) {
        upsert.bind(1, id);
        upsert.bind(2, static_cast<int64_t>(at / 3600));
        upsert.bind(3, n);
        upsert.bind(4, at);
        upsert.bind(5, at);
        upsert.exec();
        upsert.reset();
      }
      tx->commit();
      return Status::Ok();
    } catch (const SQLite::Exception& e) {
      return Failed(name_, "counting matches", e);
    }
  }

  Result<std::vector<HitStats>> Hits(int64_t now) override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      const int64_t hour = now / 3600;
      SQLite::Statement q(*db_,
                          "SELECT record_id, hour, count, first_at, last_at FROM hits ORDER BY record_id, hour");
      std::vector<HitStats> out;
      while (q.executeStep()) {
        const std::string id = q.getColumn(0).getString();
        if (out.empty() || out.back().record_id != id) {
          out.emplace_back();
          out.back().record_id = id;
          out.back().daily.assign(30, 0);
          out.back().first_seen = q.getColumn(3).getInt64();
        }
        HitStats& h = out.back();
        const int64_t age = hour - q.getColumn(1).getInt64();  // whole hours before now's hour
        const int64_t n = q.getColumn(2).getInt64();
        h.total += n;
        if (age < 24) h.day += n;
        if (age < 24 * 7) h.week += n;
        if (age < 24 * 30) {
          h.month += n;
          if (age >= 0) h.daily[29 - age / 24] += n;
        }
        h.first_seen = std::min(h.first_seen, q.getColumn(3).getInt64());
        h.last_seen = std::max(h.last_seen, q.getColumn(4).getInt64());
      }
      std::sort(out.begin(), out.end(), [](const HitStats& a, const HitStats& b) {
        return a.week != b.week ? a.week > b.week : a.record_id < b.record_id;
      });
      return out;
    } catch (const SQLite::Exception& e) {
      return Failed(name_, "reading match counts", e);
    }
  }

  Result<int64_t> Size() override {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      return static_cast<int64_t>(db_->execAndGet("SELECT COUNT(*) FROM outcomes").getInt64());
    } catch (const SQLite::Exception& e) {
      return Failed(name_, "counting reports", e);
    }
  }

  const std::string& Name() const override { return name_; }

 private:
  // Inserts the report and its environment; false when its event id is
  // stored already (nothing is written then).
  bool Insert(const OutcomeReport& r) {
    SQLite::Statement insert(*db_,
                             "INSERT INTO outcomes (event_id, record_id, kind, position, action, outcome, note, "
                             "reported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING");
    insert.bind(1, r.event_id);
    insert.bind(2, r.record_id);
    insert.bind(3, std::string(ToString(r.kind)));
    insert.bind(4, r.position);
    insert.bind(5, r.action);
    insert.bind(6, std::string(ToString(r.outcome)));
    insert.bind(7, r.note);
    insert.bind(8, static_cast<int64_t>(r.reported_at));
    if (insert.exec() == 0) return false;
    SQLite::Statement env(*db_, "INSERT INTO outcome_env (event_id, key, value) VALUES (?, ?, ?)");
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
    SQLite::Statement q(*db_,
                        "SELECT record_id, kind, position, action, outcome, note, reported_at FROM outcomes "
                        "WHERE event_id = ?");
    q.bind(1, event_id);
    if (!q.executeStep()) return Status::NotFound(fmt::format("{}: no report {}", name_, event_id));
    OutcomeReport r;
    r.event_id = event_id;
    r.record_id = q.getColumn(0).getString();
    r.kind = ParseActionKind(q.getColumn(1).getString()).value_or(ActionKind::kWorkaround);
    r.position = q.getColumn(2).getInt();
    r.action = q.getColumn(3).getString();
    r.outcome = ParseOutcome(q.getColumn(4).getString()).value_or(Outcome::kWorked);
    r.note = q.getColumn(5).getString();
    r.reported_at = q.getColumn(6).getInt64();
    SQLite::Statement env(*db_, "SELECT key, value FROM outcome_env WHERE event_id = ? ORDER BY key");
    env.bind(1, event_id);
    while (env.executeStep()) r.env.emplace_back(env.getColumn(0).getString(), env.getColumn(1).getString());
    return r;
  }

  // Rows of (kind, position, action, key, value, outcome, count, last)
  // folded into one ActionCounts per (kind, position, action, key, value).
  void CountInto(const char* sql, std::string_view record_id, std::vector<ActionCounts>* out) {
    SQLite::Statement q(*db_, sql);
    q.bind(1, std::string(record_id));
    while (q.executeStep()) {
      ActionCounts row;
      row.kind = ParseActionKind(q.getColumn(0).getString()).value_or(ActionKind::kWorkaround);
      row.position = q.getColumn(1).getInt();
      row.action = q.getColumn(2).getString();
      row.env_key = q.getColumn(3).getString();
      row.env_value = q.getColumn(4).getString();
      const bool same = !out->empty() && out->back().kind == row.kind && out->back().position == row.position &&
                        out->back().action == row.action && out->back().env_key == row.env_key &&
                        out->back().env_value == row.env_value;
      if (!same) out->push_back(std::move(row));
      ActionCounts& c = out->back();
      const int64_t n = q.getColumn(6).getInt64(), last = q.getColumn(7).getInt64();
      switch (ParseOutcome(q.getColumn(5).getString()).value_or(Outcome::kWorked)) {
        case Outcome::kWorked:
          c.worked += n;
          c.last_worked = std::max(c.last_worked, last);
          break;
        case Outcome::kFailed: c.failed += n; break;
        case Outcome::kPartial: c.partial += n; break;
      }
      c.last_reported = std::max(c.last_reported, last);
    }
  }

  // One connection, used by one call at a time: a transaction must not
  // interleave with another thread's statements.
  std::mutex mu_;
  std::unique_ptr<SQLite::Database> db_;
  std::string name_;
};

// Brings `db` to the current schema, one step per transaction.
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

Result<std::unique_ptr<OutcomeStore>> OpenStore(const std::string& spec) {
  if (spec.empty()) return Status::InvalidArgument("store: no path given");
  if (spec.starts_with("postgresql://") || spec.starts_with("postgres://")) {
    return Status::InvalidArgument("store: this build keeps outcomes in SQLite only; give a file path");
  }
  const std::string name = "sqlite:" + spec;
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(spec).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) return Status::IoError(fmt::format("{}: cannot create its folder: {}", name, ec.message()));
  try {
    auto db = std::make_unique<SQLite::Database>(spec, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, kBusyTimeoutMs);
    // WAL: readers never block the writer; synchronous=FULL: a commit is on
    // disk before it returns, even across a power cut.
    db->exec("PRAGMA journal_mode=WAL");
    db->exec("PRAGMA synchronous=FULL");
    db->exec("PRAGMA foreign_keys=ON");
    if (Status st = Migrate(*db, name); !st.ok()) return st;
    return std::unique_ptr<OutcomeStore>(std::make_unique<SqliteStore>(std::move(db), name));
  } catch (const SQLite::Exception& e) {
    return Failed(name, "opening", e);
  }
}

std::string DefaultStoreSpec() {
  if (const char* s = std::getenv("KEDB_STORE"); s != nullptr && *s != '\0') return s;
  std::filesystem::path base;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x != nullptr && *x != '\0') {
    base = x;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    base = std::filesystem::path(home) / ".local" / "share";
  } else {
    base = ".";
  }
  return (base / "kedb" / "outcomes.sqlite").string();
}

}  // namespace kedb::store
