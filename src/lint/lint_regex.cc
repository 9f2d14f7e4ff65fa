// The regex rules of lint: every pattern is parsed as Python `re`, compiled
// once with PCRE2, and then tried against its own signature, aliases and
// occurrences, its counterexamples, and every other record's signature.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lint/lint_rules.h"
#include "kb/locate.h"
#include "logs/triggers.h"
#include "regex/pcre2_regex.h"
#include "match/prefilter.h"
#include "regex/python_regex.h"
#include "util/strings.h"

namespace kedb {
namespace {

using regex::PatternInfo;
using regex::Pcre2Regex;

const JsonPath kRegexField{std::string("regex")};

struct Compiled {
  const Record* record;
  PatternInfo info;
  Pcre2Regex regex;
};

// Records that are variants of one error ("domain/slug/env-a" and
// "domain/slug/env-b") are expected to share patterns.
bool SameErrorVariants(std::string_view a, std::string_view b) {
  auto pa = a.rfind('/'), pb = b.rfind('/');
  if (pa == std::string_view::npos || pb == std::string_view::npos) return false;
  std::string_view base_a = a.substr(0, pa), base_b = b.substr(0, pb);
  return base_a == base_b && base_a.find('/') != std::string_view::npos;
}

bool Linked(const Record& a, const Record& b) {
  auto names = [](const Record& from, const Record& to) {
    const auto& edges = from.transition_graph.frequently_confused_with;
    return std::any_of(edges.begin(), edges.end(), [&](const Edge& e) { return e.error_id == to.id; });
  };
  return names(a, b) || names(b, a);
}

// Cheap necessary condition before running the regex: every required
// literal must occur in the text, both folded the same way.
bool LiteralsPresent(const PatternInfo& info, const std::string& lowered_text) {
  for (const auto& lit : info.required_literals) {
    if (lowered_text.find(lit) == std::string::npos) return false;
  }
  return true;
}

std::optional<Compiled> CompileRecord(const Record& r, std::vector<Diagnostic>* out) {
  auto parsed = regex::ParsePythonRegex(r.regex);
  if (!parsed.ok()) {
    out->push_back(DiagnosticAt(r.origin, kRegexField, Severity::kError, "regex-compile", r.id,
                                fmt::format("not valid Python re syntax at offset {}: {}", parsed.status().offset(),
                                            parsed.status().message())));
    return std::nullopt;
  }
  auto compiled = Pcre2Regex::Compile(parsed->pcre2);
  if (!compiled.ok()) {
    out->push_back(DiagnosticAt(r.origin, kRegexField, Severity::kError, "regex-compile", r.id,
                                fmt::format("cannot be compiled (translated pattern offset {}): {}",
                                            compiled.status().offset(), compiled.status().message())));
    return std::nullopt;
  }
  return Compiled{&r, std::move(parsed).value(), std::move(compiled).value()};
}

void Warn(const Record& r, std::string rule, std::string message, std::vector<Diagnostic>* out) {
  out->push_back(DiagnosticAt(r.origin, kRegexField, Severity::kWarning, std::move(rule), r.id, std::move(message)));
}

void LintShape(const Compiled& c, std::vector<Diagnostic>* out) {
  const Record& r = *c.record;
  for (const auto& b : c.info.short_branches) {
    Warn(r, "short-alternative",
         fmt::format("alternative \"{}\" (offset {}) is under 4 characters and has no \\b: it fires inside "
                     "unrelated words",
                     b.text, b.offset),
         out);
  }
  if (c.info.nested_quantifier) {
    Warn(r, "nested-quantifier",
         fmt::format("nested quantifier at offset {}: a repeated group holds an unbounded repeat, which "
                     "backtracks badly on near-misses",
                     c.info.nested_quantifier_offset),
         out);
  }
}

void LintSelfMatch(const Compiled& c, std::vector<Diagnostic>* out) {
  const Record& r = *c.record;
  if (!c.regex.Search(r.signature)) Warn(r, "regex-self-miss", "does not match the record's own signature", out);
  for (std::size_t i = 0; i < r.aliases.size(); ++i) {
    if (!c.regex.Search(r.aliases[i])) {
      Warn(r, "regex-self-miss", fmt::format("does not match aliases[{}] \"{}\"", i, r.aliases[i]), out);
    }
  }
}

// Whether some line of `text` matches: matching tries a pattern on one line
// at a time, so `^` and `$` hold at each line's ends and nothing spans two.
bool AnyLineMatches(const Pcre2Regex& regex, std::string_view text) {
  const std::vector<std::string_view> lines = util::SplitLines(text);
  return std::any_of(lines.begin(), lines.end(), [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return regex.Search(line);
  });
}

// The record's real occurrences must match, and the texts of other errors
// it lists as counterexamples must not.
void LintOccurrences(const Compiled& c, std::vector<Diagnostic>* out) {
  const Record& r = *c.record;
  for (std::size_t i = 0; i < r.occurrences.size(); ++i) {
    if (!AnyLineMatches(c.regex, r.occurrences[i].text)) {
      out->push_back(DiagnosticAt(r.origin, {std::string("occurrences"), i}, Severity::kWarning, "occurrence-miss",
                                  r.id, fmt::format("the regex misses occurrences[{}] ({})", i, r.occurrences[i].source)));
    }
  }
  for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
    if (AnyLineMatches(c.regex, r.counterexamples[i].text)) {
      out->push_back(DiagnosticAt(r.origin, {std::string("counterexamples"), i}, Severity::kWarning,
                                  "counterexample-hit", r.id,
                                  fmt::format("the regex matches counterexamples[{}], another error ({})", i,
                                              r.counterexamples[i].source)));
    }
  }
}

// A log scan tries a pattern reached only through broad literals on lines
// that read as a problem (PatternSet::Scan). A record whose own signature
// is not such a line is found by `match` but missed by `scan`.
void LintScanReach(const Compiled& c, std::vector<Diagnostic>* out) {
  const Record& r = *c.record;
  if (!c.regex.Search(r.signature)) return;  // regex-self-miss says it
  std::vector<uint8_t> flags;
  logs::MarkTriggerLines(r.signature, {0}, /*problem_lines=*/true, &flags);
  if (flags[0] != 0) return;
  match::PrefilterPlan plan = match::PlanPrefilter(r.regex, c.info);
  if (match::FoundOnAnyLine(plan, regex::FoldLiteralCase(r.signature))) return;
  Warn(r, "scan-reach",
       "`kedb scan` misses this error unless its line also reads as a problem: the regex has no distinctive "
       "literal in the signature (8+ letters that are not a common word, or an error code) and the signature "
       "has no problem word (\"error\", \"failed\", \"denied\", \"timed out\", ...)",
       out);
}

void LintShadowing(const std::vector<Compiled>& all, const KnowledgeBase& kb, std::vector<Diagnostic>* out) {
  std::vector<std::string> lowered;
  lowered.reserve(kb.size());
  for (const Record& r : kb.records()) lowered.push_back(regex::FoldLiteralCase(r.signature));
  for (const Compiled& c : all) {
    std::vector<std::string> shadowed;
    for (std::size_t j = 0; j < kb.size(); ++j) {
      const Record& other = kb.records()[j];
      if (&other == c.record || !LiteralsPresent(c.info, lowered[j])) continue;
      if (SameErrorVariants(c.record->id, other.id) || Linked(*c.record, other)) continue;
      if (c.regex.Search(other.signature)) shadowed.push_back(other.id);
    }
    if (shadowed.empty()) continue;
    std::string list;
    for (std::size_t i = 0; i < shadowed.size() && i < 5; ++i) list += (i ? ", " : "") + shadowed[i];
    if (shadowed.size() > 5) list += fmt::format(" and {} more", shadowed.size() - 5);
    Warn(*c.record, "shadowing",
         fmt::format("matches the signature of {} ({} record(s)); link them in frequently_confused_with or "
                     "make the regex more specific",
                     list, shadowed.size()),
         out);
  }
}

}  // namespace

void LintRegexes(const KnowledgeBase& kb, const LintOptions& options, std::vector<Diagnostic>* out) {
  std::vector<Compiled> compiled;
  compiled.reserve(kb.size());
  for (const Record& r : kb.records()) {
    if (auto c = CompileRecord(r, out)) compiled.push_back(std::move(*c));
  }
  for (const Compiled& c : compiled) {
    LintShape(c, out);
    LintSelfMatch(c, out);
    LintOccurrences(c, out);
    LintScanReach(c, out);
  }
  if (options.check_shadowing) LintShadowing(compiled, kb, out);
}

}  // namespace kedb
