#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.h"

namespace kedb {
namespace {

std::string Histogram(const char* title, const Counts& counts, std::size_t limit = 50) {
  std::string out = fmt::format("\n{}\n", title);
  for (std::size_t i = 0; i < counts.size() && i < limit; ++i) {
    out += fmt::format("  {:>6}  {}\n", counts[i].second, counts[i].first);
  }
  if (counts.size() > limit) out += fmt::format("  ... and {} more\n", counts.size() - limit);
  return out;
}

nlohmann::ordered_json CountsJson(const Counts& counts) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (const auto& [k, v] : counts) o[k] = v;
  return o;
}

}  // namespace

std::string RenderStatsText(const KbStats& s) {
  std::string out = fmt::format("{} records · {} workarounds · {} dead ends · {} graph edges\n", s.records,
                                s.workarounds, s.dead_ends, s.edges);
  if (s.with_confidence) {
    out += fmt::format("mean confidence {:.3f} (over {} records)\n", s.mean_confidence, s.with_confidence);
  }
  if (s.with_fix_success_rate) {
    out += fmt::format("mean fix success rate {:.3f} (over {} records)\n", s.mean_fix_success_rate,
                       s.with_fix_success_rate);
  }
  out += Histogram("by domain", s.by_domain);
  out += Histogram("by category", s.by_category, 20);
  out += Histogram("by verification tier", s.by_verification_tier);
  out += Histogram("by resolvable", s.by_resolvable);
  return out;
}

std::string RenderStatsJson(const KbStats& s) {
  nlohmann::ordered_json j;
  j["records"] = s.records;
  j["workarounds"] = s.workarounds;
  j["dead_ends"] = s.dead_ends;
  j["edges"] = s.edges;
  j["mean_confidence"] = s.mean_confidence;
  j["records_with_confidence"] = s.with_confidence;
  j["mean_fix_success_rate"] = s.mean_fix_success_rate;
  j["records_with_fix_success_rate"] = s.with_fix_success_rate;
  j["by_domain"] = CountsJson(s.by_domain);
  j["by_category"] = CountsJson(s.by_category);
  j["by_verification_tier"] = CountsJson(s.by_verification_tier);
  j["by_resolvable"] = CountsJson(s.by_resolvable);
  return j.dump(2, ' ', false) + "\n";
}

}  // namespace kedb
