#include "kedb/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace kedb {

const char* SeverityName(Severity s) { return s == Severity::kError ? "error" : "warning"; }

std::string Diagnostic::ToString() const {
  std::string out = file;
  if (line > 0) out += fmt::format(":{}", line);
  if (line > 0 && column > 0) out += fmt::format(":{}", column);
  out += fmt::format(": {}[{}]", SeverityName(severity), rule);
  if (!record_id.empty()) out += " " + record_id;
  out += ": ";
  if (!field.empty()) out += field + ": ";
  out += message;
  return out;
}

std::vector<RuleCount> CountByRule(const std::vector<Diagnostic>& diags) {
  std::vector<RuleCount> counts;
  for (const auto& d : diags) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const RuleCount& c) { return c.rule == d.rule && c.severity == d.severity; });
    if (it == counts.end()) {
      counts.push_back({d.rule, d.severity, 1});
    } else {
      ++it->count;
    }
  }
  return counts;
}

}  // namespace kedb
