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

KbStats ComputeStats(const KnowledgeBase& kb) {
  KbStats s;
  std::map<std::string, std::size_t> domain, category, tier, resolvable;
  double confidence_sum = 0;
  for (const Record& r : kb.records()) {
    ++s.records;
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
  s.by_domain = Sorted(domain);
  s.by_category = Sorted(category);
  s.by_verification_tier = Sorted(tier);
  s.by_resolvable = Sorted(resolvable);
  return s;
}

}  // namespace kedb
