// The backends behind OpenStore (store.h). Each opens, creates when
// needed and migrates its store; OpenStore picks one by the spec's form.
#pragma once

#include <memory>
#include <string>

#include "kedb/status.h"
#include "store/record_store.h"
#include "store/store.h"

namespace kedb::store {

// `path`: a SQLite file; its folder is made when missing.
Result<std::unique_ptr<OutcomeStore>> OpenSqliteStore(const std::string& path);

// `url`: a libpq connection URI, postgresql://user:password@host:port/db
// (with ?options=... as libpq reads them).
Result<std::unique_ptr<OutcomeStore>> OpenPostgresStore(const std::string& url);

// The record halves (record_store.h), on the same specs.
Result<std::unique_ptr<RecordStore>> OpenSqliteRecordStore(const std::string& path);
Result<std::unique_ptr<RecordWatcher>> OpenSqliteRecordWatcher(const std::string& path);
Result<std::unique_ptr<RecordStore>> OpenPostgresRecordStore(const std::string& url);
Result<std::unique_ptr<RecordWatcher>> OpenPostgresRecordWatcher(const std::string& url);


}  // namespace kedb::store
