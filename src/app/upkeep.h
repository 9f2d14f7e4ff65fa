// Keeping a knowledge base in order: checking it and converting it. These
// read records from a path themselves (no engine), because what they
// report on is exactly the documents that might not load.
#pragma once

#include <string>
#include <vector>

#include "app/queries.h"
#include "kedb/lint.h"

namespace kedb::app {

// Every lint rule over the knowledge base at `kb_path`. kOk with the
// report rendered both ways; `found` is whether the check passed: no
// errors, and with `strict` no warnings either. kInvalid when the path
// cannot be read or holds no document (nothing to check is not "clean").
// With `clean_logs` (files or folders of logs from runs that succeeded),
// the records whose patterns fire on them are warnings too
// (fires-on-clean-log, app/clean_logs.h), and the JSON gains
// "clean_logs": {"logs","lines","bytes","fired","reported"}.
Answer LintKnowledgeBase(const std::string& kb_path, const LintOptions& options, bool strict,
                         const std::vector<std::string>& clean_logs = {});

// Reads records at `src` (a deadends.dev canon tree, native files, or a
// store) and writes each as DIR/<id>.json, or, when `into_store` is set,
// into that store (app/store_kb.h) in one transaction. kOk with a summary
// line as text; `notes` holds each document that failed (as lint reports
// it) and `found` is whether every document was imported. kInvalid when
// nothing could be read or written.
enum class ImportFormat { kDeadends, kNative };
Answer ImportRecords(ImportFormat format, const std::string& src, const std::string& out_dir,
                     const std::string& into_store = "");

}  // namespace kedb::app
