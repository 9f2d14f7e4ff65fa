// Counts over a knowledge base, for `kedb stats` and the API.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "kedb/knowledge_base.h"

namespace kedb {

// A histogram, largest first, ties by name.
using Counts = std::vector<std::pair<std::string, std::size_t>>;

struct KbStats {
  std::size_t records = 0;
  Counts by_domain, by_category, by_verification_tier, by_resolvable;
  double mean_confidence = 0;       // over records that state a confidence
  std::size_t with_confidence = 0;
  std::size_t workarounds = 0, dead_ends = 0, edges = 0;
};

KbStats ComputeStats(const KnowledgeBase& kb);

}  // namespace kedb
