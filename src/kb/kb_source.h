// Enumerating the documents of a knowledge-base PATH (a directory tree, a
// JSONL file or one record file), in a deterministic order, with bounded
// memory per document.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "kedb/diagnostic.h"
#include "kedb/knowledge_base.h"
#include "kedb/record.h"
#include "kedb/status.h"

namespace kedb {

struct SourceDocument {
  Origin origin;
  std::string text;                  // empty when read_error is set
  std::optional<Diagnostic> read_error;  // the document could not be read (too large, I/O)
};

// Calls `each` once per document. Directory trees are walked in sorted path
// order (kb/tree_walk.h); hidden entries (".git", ".kedb-cache") are
// skipped. A path the walk did not follow (a symlink loop, a link out of the
// tree) comes as a document with its read_error; a second path to something
// already read, as one whose read_error is only a warning. Fails only when
// `path` itself cannot be opened.
Status ForEachDocument(const std::string& path, const LoadOptions& options,
                       const std::function<void(SourceDocument&&)>& each);

}  // namespace kedb
