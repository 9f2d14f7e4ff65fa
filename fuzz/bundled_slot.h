// The engine slot the server targets answer from: the bundled kb/, loaded
// once per process (an engine load takes far longer than one input).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "serve/engine_slot.h"

namespace kedb::fuzz {

inline const serve::EngineSlot& BundledSlot() {
  static serve::EngineSlot* slot = [] {
    // A cache of its own, so that runs never write into the source tree.
    const std::string cache = (std::filesystem::temp_directory_path() / "kedb-fuzz-cache").string();
    auto* s = new serve::EngineSlot(std::string(KEDB_SOURCE_DIR) + "/kb", cache);
    Status st = s->Reload();
    if (!st.ok()) {
      std::fprintf(stderr, "cannot load the bundled knowledge base: %s\n", st.message().c_str());
      std::abort();
    }
    return s;
  }();
  return *slot;
}

}  // namespace kedb::fuzz
