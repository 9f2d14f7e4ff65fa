// The evidence rules of lint: does a record say where its knowledge comes
// from, are its signature and aliases texts somebody really saw, and does
// its Chinese text keep the names a reader searches for.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "kb/locate.h"
#include "lint/lint_rules.h"

namespace kedb {
namespace {

constexpr std::string_view kSourceVerified = "source_verified";


// Runs of blanks become one space, so that an occurrence copied with its
// line breaks still holds a signature written on one line.
std::string CollapseBlanks(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool blank = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

bool AnySources(const Record& r) {
  if (!r.sources.empty() || !r.occurrences.empty()) return true;
  auto has = [](const auto& items) {
    return std::any_of(items.begin(), items.end(), [](const auto& x) { return !x.sources.empty(); });
  };
  return has(r.workarounds) || has(r.dead_ends);
}

// The signature and every alias should be a text somebody saw: held, blanks
// aside, by one of the record's occurrences.
void LintAttested(const Record& r, std::vector<Diagnostic>* out) {
  if (r.occurrences.empty() && r.verification_tier != kSourceVerified) return;
  std::vector<std::string> seen;
  for (const Occurrence& o : r.occurrences) seen.push_back(CollapseBlanks(o.text));
  auto attested = [&](const std::string& text) {
    std::string want = CollapseBlanks(text);
    return std::any_of(seen.begin(), seen.end(), [&](const std::string& s) { return s.find(want) != std::string::npos; });
  };
  if (!attested(r.signature)) {
    WarnField(r, {std::string("signature")}, "unattested", "no occurrence holds the signature: quote a real one with its source",
         out);
  }
  for (std::size_t i = 0; i < r.aliases.size(); ++i) {
    if (!attested(r.aliases[i])) {
      WarnField(r, {std::string("aliases"), i}, "unattested",
           fmt::format("no occurrence holds aliases[{}]: quote a real one with its source", i), out);
    }
  }
}

// A record that says it was checked against sources names them for the
// record and for every fix and dead end.
void LintSourcedClaims(const Record& r, std::vector<Diagnostic>* out) {
  if (r.verification_tier != kSourceVerified) return;
  const char* why = "the record is source_verified";
  if (r.sources.empty()) {
    WarnField(r, {std::string("sources")}, "unsourced-claim", fmt::format("{} but lists no sources", why), out);
  }
  for (std::size_t i = 0; i < r.workarounds.size(); ++i) {
    if (r.workarounds[i].sources.empty()) {
      WarnField(r, {std::string("workarounds"), i, std::string("sources")}, "unsourced-claim",
           fmt::format("{} but this workaround has no sources", why), out);
    }
  }
  for (std::size_t i = 0; i < r.dead_ends.size(); ++i) {
    if (r.dead_ends[i].sources.empty()) {
      WarnField(r, {std::string("dead_ends"), i, std::string("sources")}, "unsourced-claim",
           fmt::format("{} but this dead end has no sources", why), out);
    }
  }
}

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() > tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// A class name a reader types into a search box: `ImportError`,
// `OutOfMemoryError`, `ResourceExhaustedError`, `UserWarning`.
bool ClassName(std::string_view w) {
  if (w.empty() || !std::isupper(static_cast<unsigned char>(w.front()))) return false;
  for (std::string_view tail : {"Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault"}) {
    if (EndsWith(w, tail)) return true;
  }
  return false;
}

// A status constant: `CUDNN_STATUS_BAD_PARAM`, `NCCL_ERROR`: capitals,
// digits and underscores, with at least one underscore.
bool StatusName(std::string_view w) {
  if (w.size() < 6 || w.find('_') == std::string_view::npos || !std::isupper(static_cast<unsigned char>(w.front()))) {
    return false;
  }
  return std::all_of(w.begin(), w.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::vector<std::string> NamesIn(std::string_view text, bool status_names) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < text.size();) {
    if (!IdentChar(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && IdentChar(text[j])) ++j;
    std::string_view w = text.substr(i, j - i);
    if ((ClassName(w) || (status_names && StatusName(w))) &&
        std::find(names.begin(), names.end(), w) == names.end()) {
      names.emplace_back(w);
    }
    i = j;
  }
  return names;
}

// Translating `ImportError` into 导入错误 hides the name a reader searches
// for and pastes into code; the Chinese text keeps it as written.
void LintZhNames(const Record& r, std::vector<Diagnostic>* out) {
  struct Pair {
    const char* field;
    const std::string* en;
    const std::string* zh;
    bool status_names;
  };
  const Pair pairs[] = {{"signature_zh", &r.signature, &r.signature_zh, true},
                        {"root_cause_zh", &r.root_cause, &r.root_cause_zh, false}};
  for (const Pair& p : pairs) {
    if (p.zh->empty()) continue;
    std::vector<std::string> missing;
    for (const std::string& name : NamesIn(*p.en, p.status_names)) {
      if (p.zh->find(name) == std::string::npos) missing.push_back(name);
    }
    if (missing.empty()) continue;
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    WarnField(r, {std::string(p.field)}, "zh-class-name",
         fmt::format("the English names {} but the Chinese text does not: keep class and status names as written",
                     list),
         out);
  }
}

}  // namespace

void LintEvidence(const Record& r, std::vector<Diagnostic>* out) {
  if (!AnySources(r)) {
    WarnField(r, {std::string("sources")}, "no-sources",
         "the record names no source: add the threads, docs or source lines its facts come from", out);
  }
  LintAttested(r, out);
  LintSourcedClaims(r, out);
  LintZhNames(r, out);
}

}  // namespace kedb
