#include "kb/stats.h"

#include <algorithm>
#include <map>

namespace kedb {
namespace {

Counts Sorted(const std::map<std::string, std::size_t>& m) {
  Counts out(m.begin(), m.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::string OrNone(const std::string& s) { return s.empty() ? "(none)" : s; }

}  // namespace

KbStats ComputeStats(const KnowledgeBase& kb, std::string_view only_domain) {
  KbStats s;
  std::map<std::string, std::size_t> domain, category, tier, resolvable;
  double confidence_sum = 0, fix_rate_sum = 0;
  for (const Record& r : kb.records()) {
    if (!only_domain.empty() && r.domain != only_domain) continue;
    ++s.records;
    if (r.fix_success_rate) {
      fix_rate_sum += *r.fix_success_rate;
      ++s.with_fix_success_rate;
    }
    ++domain[r.domain];
    ++category[OrNone(r.category)];
    ++tier[OrNone(r.verification_tier)];
    ++resolvable[ResolvableName(r.resolvable)];
    if (r.confidence) {
      confidence_sum += *r.confidence;
      ++s.with_confidence;
    }
    s.workarounds += r.workarounds.size();
    s.dead_ends += r.dead_ends.size();
    const auto& g = r.transition_graph;
    s.edges += g.leads_to.size() + g.preceded_by.size() + g.frequently_confused_with.size();
  }
  s.mean_confidence = s.with_confidence ? confidence_sum / static_cast<double>(s.with_confidence) : 0;
  s.mean_fix_success_rate =
      s.with_fix_success_rate ? fix_rate_sum / static_cast<double>(s.with_fix_success_rate) : 0;
  s.by_domain = Sorted(domain);
  s.by_category = Sorted(category);
  s.by_verification_tier = Sorted(tier);
  s.by_resolvable = Sorted(resolvable);
  return s;
}

std::optional<DomainOrder> ParseDomainOrder(std::string_view name) {
  if (name == "fix_rate") return DomainOrder::kFixRate;
  if (name == "name") return DomainOrder::kName;
  if (name == "confidence") return DomainOrder::kConfidence;
  return std::nullopt;
}

std::vector<const Record*> RecordsInDomain(const KnowledgeBase& kb, std::string_view domain, DomainOrder order) {
  std::vector<const Record*> out;
  for (const Record& r : kb.records()) {
    if (r.domain == domain) out.push_back(&r);
  }
  auto key = [order](const Record* r) {
    switch (order) {
      case DomainOrder::kFixRate: return r->fix_success_rate.value_or(-1);
      case DomainOrder::kConfidence: return r->confidence.value_or(-1);
      case DomainOrder::kName: break;
    }
    return 0.0;
  };
  std::sort(out.begin(), out.end(), [&](const Record* a, const Record* b) {
    if (order == DomainOrder::kName && a->signature != b->signature) return a->signature < b->signature;
    if (key(a) != key(b)) return key(a) > key(b);
    return a->id < b->id;
  });
  return out;
}

}  // namespace kedb
