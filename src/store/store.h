// OutcomeStore: where outcome reports are kept, durably, and counted.
//
// One schema and one list of migrations (migrations.h) serve every backend.
// The embedded backend is SQLite in WAL mode with synchronous=FULL; the
// shared one is a PostgreSQL database with synchronous_commit=on. On both,
// Add returns only after the report is durable, so a report that was
// acknowledged survives the process being killed at any moment, and
// several processes (or servers) may write at once without losing any. A
// store object may be shared by threads: its calls run one at a time.
//
// Records stay as their files say; a store holds only what was observed
// about them (posterior.h turns that into rates).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"
#include "store/outcome.h"

namespace kedb::store {

class OutcomeStore {
 public:
  virtual ~OutcomeStore() = default;

  enum class Added { kNew, kDuplicate };
  // Stores `report` and returns once it is durable: kNew, or kDuplicate
  // when a report with its event id is stored already with the same
  // content (a retry: counted once). InvalidArgument when the report
  // breaks CheckReport, or its event id was stored with other content;
  // IoError when the store cannot write (a full disk), in which case
  // nothing of the report was kept and nothing earlier is lost.
  virtual Result<Added> Add(const OutcomeReport& report) = 0;

  // The counts of the reports about `record_id`'s actions: one per action
  // as reported (kind, position, text) with its totals, then one per
  // action and environment pair (env_key, env_value set).
  virtual Result<std::vector<ActionCounts>> Counts(std::string_view record_id) = 0;

  // Counts one match of each record in `record_ids` (repeats count again)
  // at time `at` (seconds since the epoch), in one durable write.
  virtual Status AddHits(const std::vector<std::string>& record_ids, int64_t at) = 0;

  // Every record matched at least once, most matched in the last 7 days
  // (before `now`) first, then by id.
  virtual Result<std::vector<HitStats>> Hits(int64_t now) = 0;

  // How many reports the store holds.
  virtual Result<int64_t> Size() = 0;

  // "sqlite:/path/outcomes.sqlite" or the URL without its password, for
  // messages.
  virtual const std::string& Name() const = 0;
};

// Opens (creating when needed, and migrating to the current schema) the
// store `spec` names: a postgresql:// (or postgres://) URL, as libpq reads
// it, for PostgreSQL; otherwise a file path for SQLite. A store written by
// a newer kedb (a schema this build does not know) is refused rather than
// misread. Opening a PostgreSQL store connects to the server: an
// unreachable server is an IoError naming it (without its password).
Result<std::unique_ptr<OutcomeStore>> OpenStore(const std::string& spec);

// Whether `spec` names a PostgreSQL store.
bool IsPostgresSpec(const std::string& spec);

// `spec` as messages show it: a URL's password (if any) replaced by "***".
std::string RedactUrl(const std::string& spec);

// The store used when none is named: $KEDB_STORE when set, otherwise
// outcomes.sqlite in $XDG_DATA_HOME/kedb (~/.local/share/kedb when
// XDG_DATA_HOME is unset).
std::string DefaultStoreSpec();

}  // namespace kedb::store
