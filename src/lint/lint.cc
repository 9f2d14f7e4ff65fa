#include "kedb/lint.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "lint/lint_rules.h"
#include "kb/locate.h"

namespace kedb {

Date Today() {
  auto days = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  std::chrono::year_month_day ymd(days);
  return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
              static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

std::size_t LintReport::errors() const {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [](const Diagnostic& d) { return d.severity == Severity::kError; }));
}
std::size_t LintReport::warnings() const { return diagnostics.size() - errors(); }

void WarnField(const Record& r, JsonPath field, std::string rule, std::string message, std::vector<Diagnostic>* out) {
  out->push_back(DiagnosticAt(r.origin, field, Severity::kWarning, std::move(rule), r.id, std::move(message)));
}

namespace {

bool Blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

void LintRates(const Record& r, std::vector<Diagnostic>* out) {
  const JsonPath field{std::string("resolvable")};
  if (r.fix_success_rate) {
    double fix = *r.fix_success_rate;
    if (r.resolvable == Resolvable::kTrue && fix < 0.5) {
      WarnField(r, field, "rate-disagreement",
           fmt::format("resolvable is \"true\" but fix_success_rate is only {}", fix), out);
    } else if (r.resolvable == Resolvable::kFalse && fix > 0.3) {
      WarnField(r, field, "rate-disagreement",
           fmt::format("resolvable is \"false\" but fix_success_rate is {}", fix), out);
    } else if (r.resolvable == Resolvable::kPartial && fix >= 0.95) {
      WarnField(r, field, "rate-disagreement",
           fmt::format("resolvable is \"partial\" but fix_success_rate is {}", fix), out);
    }
    double best = 0;
    for (const auto& w : r.workarounds) best = std::max(best, w.success_rate);
    if (!r.workarounds.empty() && fix > best + 0.05) {
      WarnField(r, {std::string("fix_success_rate")}, "rate-disagreement",
           fmt::format("fix_success_rate {} is higher than the best workaround's success_rate {}", fix, best),
           out);
    }
  }
  if (r.confidence && *r.confidence >= 0.8 && r.resolvable == Resolvable::kFalse && !r.workarounds.empty() &&
      std::any_of(r.workarounds.begin(), r.workarounds.end(), [](const Workaround& w) { return w.success_rate >= 0.8; })) {
    WarnField(r, field, "rate-disagreement",
         "resolvable is \"false\" with high confidence, yet a workaround succeeds 80% of the time or more", out);
  }
}

// A draft `kedb mine` wrote says what still needs a person: the Chinese
// text it cannot write, and rates that are priors until outcomes come in.
void LintMinedDraft(const Record& r, std::vector<Diagnostic>* out) {
  const char* draft = "a mined draft";
  if (r.signature_zh.empty()) {
    WarnField(r, {std::string("signature_zh")}, "untranslated-zh", fmt::format("{}: no Chinese signature yet", draft), out);
  }
  if (r.root_cause_zh.empty() && !r.root_cause.empty()) {
    WarnField(r, {std::string("root_cause_zh")}, "untranslated-zh", fmt::format("{}: no Chinese root cause yet", draft), out);
  }
  if (r.workarounds_zh.size() < r.workarounds.size()) {
    WarnField(r, {std::string("workarounds_zh")}, "untranslated-zh",
         fmt::format("{}: {} workaround(s) without Chinese text", draft, r.workarounds.size() - r.workarounds_zh.size()),
         out);
  }
  if (!r.workarounds.empty() || !r.dead_ends.empty()) {
    WarnField(r, {std::string(r.workarounds.empty() ? "dead_ends" : "workarounds")}, "unobserved-rate",
         fmt::format("{}: success and fail rates are the miner's priors until outcomes are reported", draft), out);
  }
}

}  // namespace

void LintContent(const Record& r, const LintOptions& options, std::vector<Diagnostic>* out) {
  for (std::size_t i = 0; i < r.dead_ends.size(); ++i) {
    if (Blank(r.dead_ends[i].action)) {
      WarnField(r, {std::string("dead_ends"), i, std::string("action")}, "empty-action",
           "empty action: say what people try that fails", out);
    }
  }
  for (std::size_t i = 0; i < r.workarounds.size(); ++i) {
    if (Blank(r.workarounds[i].action)) {
      WarnField(r, {std::string("workarounds"), i, std::string("action")}, "empty-action",
           "empty action: say what to do", out);
    }
  }
  if (!r.signature_zh.empty() && r.signature_zh == r.signature) {
    WarnField(r, {std::string("signature_zh")}, "untranslated-zh", "identical to signature (not translated)", out);
  }
  if (!r.root_cause_zh.empty() && r.root_cause_zh == r.root_cause) {
    WarnField(r, {std::string("root_cause_zh")}, "untranslated-zh", "identical to root_cause (not translated)", out);
  }
  for (std::size_t i = 0; i < r.workarounds_zh.size(); ++i) {
    const std::string& zh = r.workarounds_zh[i];
    bool same = i < r.workarounds.size() && (zh == r.workarounds[i].action || zh == r.workarounds[i].how);
    if (!zh.empty() && same) {
      WarnField(r, {std::string("workarounds_zh"), i}, "untranslated-zh",
           fmt::format("identical to workarounds[{}] (not translated)", i), out);
    }
  }
  LintRates(r, out);
  LintEvidence(r, out);
  if (r.verification_tier == "mined") LintMinedDraft(r, out);
  if (r.first_seen && r.last_confirmed && *r.first_seen > *r.last_confirmed) {
    WarnField(r, {std::string("first_seen")}, "date-order",
         fmt::format("first_seen {} is later than last_confirmed {}", r.first_seen->ToString(),
                     r.last_confirmed->ToString()),
         out);
  }
  if (r.last_confirmed) {
    // A record checked against its sources since is not stale: its
    // last_updated is the day of that check.
    Date checked = *r.last_confirmed;
    if (r.verification_tier == "source_verified" && r.last_updated && *r.last_updated > checked) checked = *r.last_updated;
    int64_t age = options.today.DaysSinceEpoch() - checked.DaysSinceEpoch();
    if (age > options.stale_after_days) {
      WarnField(r, {std::string("last_confirmed")}, "stale",
           fmt::format("last confirmed {} days ago ({}); re-check the record", age, r.last_confirmed->ToString()),
           out);
    }
  }
}

void LintGraph(const KnowledgeBase& kb, std::vector<Diagnostic>* out) {
  auto has_edge = [](const std::vector<Edge>& edges, const std::string& id) {
    return std::any_of(edges.begin(), edges.end(), [&](const Edge& e) { return e.error_id == id; });
  };
  struct Kind {
    const char* name;
    std::vector<Edge> TransitionGraph::*edges;
    const char* inverse_name;
    std::vector<Edge> TransitionGraph::*inverse;
  };
  const Kind kinds[] = {
      {"leads_to", &TransitionGraph::leads_to, "preceded_by", &TransitionGraph::preceded_by},
      {"preceded_by", &TransitionGraph::preceded_by, "leads_to", &TransitionGraph::leads_to},
      // Confusion goes both ways: each record should tell the other apart.
      {"frequently_confused_with", &TransitionGraph::frequently_confused_with, "frequently_confused_with",
       &TransitionGraph::frequently_confused_with},
  };
  for (const Record& r : kb.records()) {
    for (const Kind& k : kinds) {
      const auto& edges = r.transition_graph.*(k.edges);
      for (std::size_t i = 0; i < edges.size(); ++i) {
        JsonPath field{std::string("transition_graph"), std::string(k.name), i};
        const Record* target = kb.Find(edges[i].error_id);
        if (!target) {
          out->push_back(DiagnosticAt(r.origin, field, Severity::kError, "dangling-edge", r.id,
                                      fmt::format("no record has the id \"{}\"", edges[i].error_id)));
        } else if (k.inverse && !has_edge(target->transition_graph.*(k.inverse), r.id)) {
          WarnField(r, field, "edge-asymmetry",
               fmt::format("{} has no matching {} edge back to this record", target->id, k.inverse_name), out);
        }
      }
    }
  }
}

LintReport Lint(const KnowledgeBase& kb, const LoadReport& load, const LintOptions& options) {
  LintReport report;
  report.records = kb.size();
  report.diagnostics = load.diagnostics;
  LintRegexes(kb, options, &report.diagnostics);
  LintGraph(kb, &report.diagnostics);
  for (const Record& r : kb.records()) LintContent(r, options, &report.diagnostics);
  return report;
}

}  // namespace kedb
