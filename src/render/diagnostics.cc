#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.h"

namespace kedb {

std::string RenderLintText(const LintReport& report) {
  std::string out;
  for (const auto& d : report.diagnostics) out += d.ToString() + "\n";
  out += fmt::format("\n{} records checked: {} error(s), {} warning(s)\n", report.records, report.errors(),
                     report.warnings());
  for (const auto& c : CountByRule(report.diagnostics)) {
    out += fmt::format("  {:>6}  {:<8} {}\n", c.count, SeverityName(c.severity), c.rule);
  }
  return out;
}

std::string RenderLintJson(const LintReport& report) {
  nlohmann::ordered_json j;
  j["records"] = report.records;
  j["errors"] = report.errors();
  j["warnings"] = report.warnings();
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const auto& c : CountByRule(report.diagnostics)) {
    rules.push_back({{"rule", c.rule}, {"severity", SeverityName(c.severity)}, {"count", c.count}});
  }
  j["rules"] = std::move(rules);
  nlohmann::ordered_json diags = nlohmann::ordered_json::array();
  for (const auto& d : report.diagnostics) {
    diags.push_back({{"severity", SeverityName(d.severity)},
                     {"rule", d.rule},
                     {"file", d.file},
                     {"line", d.line},
                     {"column", d.column},
                     {"id", d.record_id},
                     {"field", d.field},
                     {"message", d.message}});
  }
  j["diagnostics"] = std::move(diags);
  // Messages may quote bytes from broken files: never fail on invalid UTF-8.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace kedb
