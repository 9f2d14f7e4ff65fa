// Enumerating the documents of a knowledge-base PATH (a directory tree, a
// JSONL file or one record file), in a deterministic order, with bounded
// memory per document.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

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

// Whether a file at `p` is read as JSON Lines (by its extension).
bool IsJsonl(const std::filesystem::path& p);

// One line of a JSONL file: `text` (without its "\n"; valid only during
// the call), or `too_long` when it passes options.max_line_bytes (then
// `text` is empty). Lines of only spaces, tabs and "\r" are skipped.
struct JsonlLine {
  std::string_view text;
  int64_t offset = 0;  // of its first byte
  int number = 1;      // 1-based
  bool too_long = false;
};
// Calls `each` for every line of the JSONL file at `path`, in order,
// holding at most one line (bounded by max_line_bytes) in memory: what
// a load reads records from, and what a reload hashes (kb/jsonl_changes.h).
//
// With `begin` (which must be 0 or just after a "\n") and `end`, only the
// lines that start in [begin, end) are read, numbered from 1 at `begin`:
// two threads can read the two halves of a large file. `lines`, when
// given, receives how many lines started in the range.
Status ForEachJsonlLine(const std::string& path, const LoadOptions& options,
                        const std::function<void(const JsonlLine&)>& each, int64_t begin = 0,
                        int64_t end = INT64_MAX, int* lines = nullptr);

// The offset just after the first "\n" at or after `at` in the file at
// `path` (its size when there is none): where a second reader of
// ForEachJsonlLine may begin.
int64_t NextJsonlLineStart(const std::string& path, int64_t at);

}  // namespace kedb
