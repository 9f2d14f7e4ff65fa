// `kedb scan` over files: which files the arguments name (files, folders,
// quoted patterns), and the scan of all of them as one answer.
#pragma once

#include <fstream>
#include <istream>
#include <string>
#include <vector>

#include "app/queries.h"
#include "kedb/engine.h"
#include "render/render.h"

namespace kedb::app {

// Opens a log file for reading into *file. On failure, why (the system's
// reason, or that the path is a folder), for "kedb CMD: PATH: <why>".
Status OpenLog(const std::string& path, std::ifstream* file);

// The scan options a query asks for; fails when its env does not parse.
Status ScanOptionsOf(const MatchQuery& q, ScanOptions* options);

// Whether a scan with summary `s` gives `found` (exit 0) under `fail_on`.
bool ScanPasses(const ScanSummary& s, MatchQuery::FailOn fail_on);

struct LogPaths {
  // What to read, in the order given; a folder's files sorted by name.
  // "-" is standard input.
  std::vector<std::string> files;
  // Arguments that name nothing readable: a missing path, a pattern that
  // matches no file.
  std::vector<UnreadLog> errors;
  // The answer is per file (RenderScansJson): more than one argument, or
  // a folder or pattern, whatever it held.
  bool many = false;
};

// A folder stands for the files in it (and, with `recursive`, in its
// sub-folders), hidden ones (".name") left out. An argument that is not
// a path but holds *, ? or [ is a pattern (glob(3)), for shells that did
// not expand it, or for a quoted one.
LogPaths ExpandLogPaths(const std::vector<std::string>& args, bool recursive);

// Scans each file (standard input for "-"); gzip and zstd files are read
// decompressed (Engine::Scan). With paths.many the answer is per file
// (RenderScansJson/RenderScansText, and every CI format covers all files),
// and a file that cannot be read is left out, named in the notes and
// counted in Answer::unread; else it is ScanLog's answer for the one file,
// with "file" in its JSON, and reading errors fail the answer.
Answer ScanFiles(const Engine& engine, const LogPaths& paths, std::istream& standard_input, const MatchQuery& q);

}  // namespace kedb::app
