// Opening a knowledge base for the query layer, with what a person should
// be told about it.
#pragma once

#include <memory>
#include <string>

#include "kedb/engine.h"

namespace kedb::app {

// The engine for `kb_path`, or why there is none (a path that cannot be
// used, a knowledge base without records). Documents that fail to load are
// left out; `notes` then says how many and points to `kedb lint`, and is
// "" otherwise.
// With `records_only`, the pattern database and similarity index wait
// until something matches (OpenOptions::defer_indexes).
Result<std::shared_ptr<const Engine>> OpenEngine(const std::string& kb_path, std::string* notes,
                                                 bool records_only = false);

}  // namespace kedb::app
