// Counts over a knowledge base, for `kedb stats` and the API.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
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
  double mean_fix_success_rate = 0;  // over records that state one
  std::size_t with_fix_success_rate = 0;
  std::size_t workarounds = 0, dead_ends = 0, edges = 0;
};

// Counts over every record, or over one domain's records when `domain` is
// not empty (an unknown domain gives zero records).
KbStats ComputeStats(const KnowledgeBase& kb, std::string_view domain = {});

// One domain's records, for listing: by fix success rate (highest first,
// records without one last), by signature ("name"), or by confidence. Ties
// go by id, so the order is stable.
enum class DomainOrder { kFixRate, kName, kConfidence };
std::optional<DomainOrder> ParseDomainOrder(std::string_view name);  // "fix_rate", "name", "confidence"
std::vector<const Record*> RecordsInDomain(const KnowledgeBase& kb, std::string_view domain, DomainOrder order);

}  // namespace kedb
