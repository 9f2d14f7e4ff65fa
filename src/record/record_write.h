// Writing a typed Record as a native record document: the inverse of
// RecordFromJson (record_parse.h).
#pragma once

#include "kedb/record.h"
#include "record/json_text.h"

namespace kedb {

// The native document for `record`, built from its typed fields only
// (record.json and record.origin are not consulted). Keys come in the order
// of the seed records. Fields that are empty, null or absent in the typed
// view are left out rather than written as "", null, [] or {}, because
// RecordFromJson reads a missing field as that same empty value: the
// smallest document that reads back to the same Record.
//
// Not everything can be carried back (see record_write.cc for why):
//   - attribution other than the deadends.dev credit;
//   - os_specific entries that repeat an os (JSON keys are unique);
//   - Edge::plain on an edge that also has details.
Json RecordToJson(const Record& record);

}  // namespace kedb
