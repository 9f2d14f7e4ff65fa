// Precision against logs of runs that succeeded: a record whose pattern
// fires on them is too loose, since every such hit would be a false alarm
// in a CI job that passed (`kedb lint --clean-logs DIR`).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kedb/diagnostic.h"
#include "kedb/engine.h"

namespace kedb::app {

struct CleanLogFindings {
  std::size_t logs = 0, lines = 0, bytes = 0;  // what was read
  // One warning (rule "fires-on-clean-log") per record whose pattern
  // confirmed a match in some log, naming how many lines and logs, how
  // many of those kedb would report (at its default confidence), and the
  // first line it fired on. Ordered by record id.
  std::vector<Diagnostic> diagnostics;
  std::size_t reported = 0;  // records kedb would have reported on some clean log
};

// Scans every file in `paths` (files, or folders read recursively; hidden
// ones skipped) as `kedb scan` does, and collects the records whose
// patterns fire. Fails when a path cannot be read.
Result<CleanLogFindings> CheckCleanLogs(const Engine& engine, const std::vector<std::string>& paths);

}  // namespace kedb::app
