// The backends behind OpenStore (store.h). Each opens, creates when
// needed and migrates its store; OpenStore picks one by the spec's form.
#pragma once

#include <memory>
#include <string>

#include "kedb/status.h"
#include "store/store.h"

namespace kedb::store {

// `path`: a SQLite file; its folder is made when missing.
Result<std::unique_ptr<OutcomeStore>> OpenSqliteStore(const std::string& path);

// `url`: a libpq connection URI, postgresql://user:password@host:port/db
// (with ?options=... as libpq reads them).
Result<std::unique_ptr<OutcomeStore>> OpenPostgresStore(const std::string& url);

// `url` with its password (if any) replaced by "***", for messages.
std::string RedactUrl(const std::string& url);

}  // namespace kedb::store
