// Which records of a JSONL knowledge base changed since it was loaded, found
// by hashing its lines and parsing only the lines no record was read from.
//
// Why: a server reloading a million-record file after a one-record edit
// would otherwise parse a million lines (about 18 s on this machine's two
// cores) to learn that one changed. Hashing them costs a read of the file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "kedb/knowledge_base.h"
#include "kedb/status.h"

namespace kedb {

// `base` must have been loaded from the JSONL file at `path` with `options`
// in strict mode (every line a record). The file is read again, line by
// line as a load reads it; a line whose XXH3 is a base record's
// Origin::text_hash is that record unchanged, and every other line is
// parsed and checked. Returns
//   - the changes (none when the file holds the same lines, in any order)
//     when they are records replaced in place, same id, and records added;
//   - nullopt when they are not, or when more than `max_changes` lines
//     changed: a record was removed, an id moved to another line or is
//     held twice, or `path` is not a JSONL file. Then the whole file must
//     be loaded again, which also reports any duplicate precisely;
//   - an error when the file cannot be read, or when a changed line has an
//     error (its diagnostics, naming file, line, column and field, go to
//     `report`).
Result<std::optional<KnowledgeBase::Changes>> FindJsonlChanges(const KnowledgeBase& base, const std::string& path,
                                                                const LoadOptions& options, std::size_t max_changes,
                                                                LoadReport* report = nullptr);

}  // namespace kedb
