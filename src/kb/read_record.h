// Reading one source document into a record: what a load does for every
// document, and what a reload does for the lines of a JSONL file that
// changed (kb/jsonl_changes.h).
#pragma once

#include <optional>

#include "kb/kb_source.h"
#include "kedb/knowledge_base.h"

namespace kedb {

// Parses and checks `doc` (whose text it may take). Returns nullopt, with
// diagnostics naming file, line, column and field in `report`, when the
// document has errors. The record's origin carries the XXH3 of the text.
std::optional<Record> ReadRecord(SourceDocument& doc, const LoadOptions& options, LoadReport* report);

}  // namespace kedb
