// Writing records into the store a server answers from: POST /v1/records
// and PUT /v1/records/{id}. A record is checked with lint's rules against
// the knowledge base it joins (a dangling edge or a regex that does not
// compile is refused; warnings are returned), then written in its
// canonical file form. The server picks the change up as it picks up any
// change to its store (serve/store_follower.h).
#pragma once

#include <cstdint>
#include <string>

#include "app/queries.h"
#include "store/record_store.h"

namespace kedb::app {

struct RecordWrite {
  std::string json;        // the record document
  std::string path_id;     // PUT: the id the path names; "" for POST
  bool create_only = false;  // POST: an id that exists already is a conflict
  int64_t now = 0;         // seconds since the epoch
};

// JSON: {"id", "created", "changed", "revision", "warnings": [...]}.
// kInvalid naming line, column and field when the document is not a
// record, breaks a lint rule that is an error, is over
// store::kMaxStoredRecordBytes, or its id differs from the path's;
// kConflict when creating an id that exists; kUnavailable when the store
// cannot write. `created` (optional) is set when the id was new.
Answer WriteRecord(const Engine& engine, store::RecordStore& records, const RecordWrite& q, bool* created = nullptr);

}  // namespace kedb::app
