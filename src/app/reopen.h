// Opening a knowledge base again after it changed, without compiling what
// did not change: what a server's reload does for a JSONL file.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "kedb/engine.h"

namespace kedb::app {

struct Reopened {
  std::shared_ptr<const Engine> engine;  // `full` itself when nothing changed
  std::size_t changed = 0;               // records laid over `full`
};

// The JSONL knowledge base at `kb_path` as it is now, made from `full` (an
// engine compiled from it earlier with `options`) and the records changed
// since (kb/jsonl_changes.h, Engine::WithChanges). nullopt when it cannot
// be made that way (a record removed, more than `max_changes` changed, not
// a JSONL file): then open it in full. An error when the file cannot be
// read or a changed line is broken.
Result<std::optional<Reopened>> ReopenChanged(const std::shared_ptr<const Engine>& full, const std::string& kb_path,
                                              const OpenOptions& options, std::size_t max_changes);

// Whether the files of `kb_path` were last changed more than a few seconds
// ago: only then does a full open keep its snapshot for the next start.
bool SourceSettled(const std::string& kb_path);

}  // namespace kedb::app
