// Opening the embedded store's database: one SQLite file, created when
// missing, in WAL mode with synchronous=FULL, migrated to the current
// schema. Shared by the outcome and record halves of the SQLite backend.
#pragma once

#include <memory>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>

#include "kedb/status.h"

namespace kedb::store {

// How long a write waits for another process's write before giving up.
inline constexpr int kSqliteBusyTimeoutMs = 10000;

// The database at `path` (its folder made when missing), ready to use.
// `name` is how messages call it ("sqlite:PATH").
Result<std::unique_ptr<SQLite::Database>> OpenSqliteDatabase(const std::string& path, const std::string& name);

// What went wrong while `doing` something with the store `name`, as a
// person can act on it.
Status SqliteFailed(const std::string& name, const std::string& doing, const SQLite::Exception& e);

}  // namespace kedb::store
