#include "match/prefilter.h"

#include <hs/hs.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

#include "util/utf8.h"

namespace kedb::match {
namespace {

// Words so common in ordinary logs that a factor made of them passes most
// lines to confirmation. Lower case.
constexpr std::string_view kCommonWords[] = {
    "error", "errors", "failed", "failure", "fail", "warning", "warn", "info", "debug", "exception",
    "the", "and", "for", "not", "with", "from", "http", "https", "request", "response", "file",
    "line", "time", "timeout", "server", "client", "user", "data", "value", "true", "false", "null",
    "none", "test", "build", "step", "epoch", "loss", "config", "status", "code", "version", "read",
    "write", "open", "close", "start", "stop", "run", "running", "process", "thread", "memory",
    // Generic nouns of systems software: a pattern whose only factor is one
    // of them sends a large share of any service's log to confirmation.
    "session", "token", "cache", "device", "stream", "queue", "buffer", "index", "layer", "tensor",
    "model", "node", "worker", "batch", "shard", "task", "service", "job", "pod", "container", "image",
    "network", "connection", "module", "object", "type", "name", "path", "key", "port", "host",
    "message", "event", "state", "size", "input", "output", "result", "table", "query", "update",
    // Words of ordinary progress lines and of every Python traceback
    // ("site-packages"), access log ("python-requests") and monitor line.
    "package", "packages", "requests", "threshold", "completed", "python", "started", "finished", "default",
    "function", "library", "install", "installed", "download", "using", "loading", "found",
};

bool IsCommonWord(std::string_view lit) {
  return std::find(std::begin(kCommonWords), std::end(kCommonWords), lit) != std::end(kCommonWords);
}

// Whether Hyperscan's ASCII caseless matching of this code point agrees
// with PCRE2's Unicode caseless matching: ASCII, and scripts without case.
bool CaselessSafe(char32_t c) {
  if (c < 0x80) return true;
  if (c >= 0x0590 && c < 0x1100) return true;  // Hebrew, Arabic, Indic scripts, Thai, Lao, Tibetan, Myanmar
  if (c >= 0x1100 && c < 0x1200) return true;  // Hangul Jamo
  if (c >= 0x1200 && c < 0x13A0) return true;  // Ethiopic
  if (c >= 0x3000 && c < 0xFF00) return true;  // CJK, kana, Hangul syllables
  if (c >= 0x20000 && c < 0x30000) return true;  // CJK extensions
  return false;
}

// The longest piece of `lit` made only of caseless-safe code points.
std::string SafePiece(const std::string& lit) {
  std::size_t best_begin = 0, best_len = 0, begin = 0;
  for (std::size_t i = 0; i < lit.size();) {
    char32_t c = 0;
    std::size_t n = util::DecodeUtf8(lit, i, &c);
    if (n == 0) n = 1, c = 0xFFFD;
    if (!CaselessSafe(c)) {
      if (i - begin > best_len) best_begin = begin, best_len = i - begin;
      begin = i + n;
    }
    i += n;
  }
  if (lit.size() - begin > best_len) best_begin = begin, best_len = lit.size() - begin;
  return lit.substr(best_begin, best_len);
}

// How selective a literal is, roughly: its length in bytes, much less for a
// common word.
double Weight(const std::string& lit) {
  double w = static_cast<double>(lit.size());
  if (IsCommonWord(lit)) return w / 4;
  // Two words in a row, or a token with a digit or '_' ("il2cpp",
  // "e11000"), turn up in ordinary text far less often than a dictionary
  // word of the same length ("building", "protobuf").
  bool phrase = lit.find(' ') != std::string::npos && lit.front() != ' ' && lit.back() != ' ';
  bool marked = std::any_of(lit.begin(), lit.end(), [](char c) { return c == '_' || (c >= '0' && c <= '9'); });
  return phrase || marked ? w * 1.5 : w;
}

// A set's score: its weakest literal's weight, less a little for each
// extra alternative (more literals, more hits). Literals become the pieces
// Hyperscan's caseless mode can match (see SafePiece).
double SetScore(const std::vector<std::string>& set, std::vector<std::string>* safe) {
  double score = 1e9;
  for (const auto& lit : set) {
    std::string piece = SafePiece(lit);
    score = std::min(score, Weight(piece));
    if (safe) safe->push_back(std::move(piece));
  }
  return score - 0.05 * static_cast<double>(set.size() - 1);
}

// The best factor a choice offers: the best-scored set of each branch,
// united. Empty when a branch has no set.
std::vector<std::string> PickFromChoice(const std::vector<std::vector<std::vector<std::string>>>& choice) {
  std::vector<std::string> united;
  for (const auto& branch : choice) {
    const std::vector<std::string>* best = nullptr;
    double best_score = -1e9;
    for (const auto& set : branch) {
      if (set.empty()) continue;
      double score = SetScore(set, nullptr);
      if (score > best_score) best_score = score, best = &set;
    }
    if (!best) return {};
    united.insert(united.end(), best->begin(), best->end());
  }
  std::sort(united.begin(), united.end());
  united.erase(std::unique(united.begin(), united.end()), united.end());
  return united;
}

// The longest identifier-like token in `lit`: letters and digits (and '_')
// with at least one digit or '_', at least 6 bytes: error codes, status
// names, symbols ("ea00012", "cudnn_status_bad_param"). Such tokens are
// far rarer in logs than the words around them, and a literal matcher
// holding thousands of them runs faster than one holding whole sentences.
// Empty when there is none.
std::string_view IdentifierToken(std::string_view lit) {
  std::string_view best;
  std::size_t i = 0;
  while (i < lit.size()) {
    std::size_t b = i;
    bool marked = false;
    while (i < lit.size() && (std::isalnum(static_cast<unsigned char>(lit[i])) || lit[i] == '_')) {
      marked = marked || lit[i] == '_' || std::isdigit(static_cast<unsigned char>(lit[i]));
      ++i;
    }
    if (marked && i - b >= 6 && i - b > best.size()) best = lit.substr(b, i - b);
    if (i == b) ++i;
  }
  return best;
}

}  // namespace

std::vector<std::string> ChooseFactor(const regex::PatternInfo& info) {
  std::vector<std::vector<std::string>> candidates = info.literal_factors;
  for (const auto& lit : info.required_literals) candidates.push_back({lit});
  for (const auto& choice : info.literal_choices) candidates.push_back(PickFromChoice(choice));

  std::vector<std::string> best;
  double best_score = 0;
  for (const auto& set : candidates) {
    if (set.empty()) continue;
    std::vector<std::string> safe;
    double score = SetScore(set, &safe);
    if (score > best_score) {
      best_score = score;
      best = std::move(safe);
    }
  }
  // One- and two-byte literals hit nearly every line: not worth a factor.
  if (best_score < 2.5) return {};
  for (auto& lit : best) {
    if (auto token = IdentifierToken(lit); !token.empty()) lit = std::string(token);
  }
  std::sort(best.begin(), best.end());
  best.erase(std::unique(best.begin(), best.end()), best.end());
  return best;
}

namespace {

// Positions of the `|` at depth 0 of `p`, or nullopt when `p` has parentheses
// that do not balance. Skips escapes and character classes (where `]` first
// is a literal, as in Python).
std::optional<std::vector<std::size_t>> TopLevelBars(std::string_view p) {
  std::vector<std::size_t> bars;
  int depth = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      ++i;
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      for (; j < p.size() && p[j] != ']'; ++j) {
        if (p[j] == '\\') ++j;
      }
      if (j >= p.size()) return std::nullopt;
      i = j;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth < 0) return std::nullopt;
    } else if (c == '|' && depth == 0) {
      bars.push_back(i);
    }
  }
  if (depth != 0) return std::nullopt;
  return bars;
}

// Whether a branch cut out of its pattern may mean something else alone.
bool ContextDependent(std::string_view p) {
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    if (p[i] == '\\') {
      if (p[i + 1] >= '1' && p[i + 1] <= '9') return true;  // back-reference
      ++i;
      continue;
    }
    if (p[i] != '(' || p[i + 1] != '?' || i + 2 >= p.size()) continue;
    char k = p[i + 2];
    if (k == '(' || std::isalpha(static_cast<unsigned char>(k)) || k == '-') {
      // Conditionals, and inline flags (global or scoped), except the
      // named group `(?P<` and the reference `(?P=` (which is one).
      if (k == 'P' && i + 3 < p.size() && p[i + 3] == '<') continue;
      return true;
    }
  }
  return false;
}

}  // namespace

bool IsDistinctiveLiteral(std::string_view literal) {
  if (IsCommonWord(literal)) return false;
  if (literal.size() >= 8) return true;
  bool marked = std::any_of(literal.begin(), literal.end(), [](char c) {
    return c == '_' || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
  });
  return marked && literal.size() >= 6;
}

std::vector<std::string> TopLevelBranches(std::string_view pattern) {
  if (ContextDependent(pattern)) return {};
  auto bars = TopLevelBars(pattern);
  if (!bars) return {};
  std::string_view body = pattern;
  if (bars->empty()) {
    // One group around the whole pattern: split inside it.
    if (body.size() < 2 || body.front() != '(' || body.back() != ')') return {};
    std::size_t open = 1;
    if (body.substr(0, 3) == "(?:") {
      open = 3;
    } else if (body.substr(0, 4) == "(?P<") {
      open = body.find('>');
      if (open == std::string_view::npos) return {};
      ++open;
    } else if (body.substr(0, 2) == "(?") {
      return {};  // look-arounds and the like
    }
    std::string_view inner = body.substr(open, body.size() - open - 1);
    // The closing parenthesis must be the opening one's partner.
    auto inner_bars = TopLevelBars(inner);
    if (!inner_bars || inner_bars->empty()) return {};
    body = inner;
    bars = std::move(inner_bars);
  }
  std::vector<std::string> branches;
  std::size_t begin = 0;
  for (std::size_t bar : *bars) {
    branches.emplace_back(body.substr(begin, bar - begin));
    begin = bar + 1;
  }
  branches.emplace_back(body.substr(begin));
  return branches;
}

namespace {

// The Hyperscan flags that take `pcre2` exactly, or failing that as a
// prefilter (look-arounds, back-references); nullopt when neither does.
std::optional<unsigned> RegexDatabaseFlags(const std::string& pcre2) {
  for (unsigned flags : {HS_FLAG_CASELESS | HS_FLAG_UTF8 | HS_FLAG_ALLOWEMPTY,
                         HS_FLAG_CASELESS | HS_FLAG_UTF8 | HS_FLAG_ALLOWEMPTY | HS_FLAG_PREFILTER}) {
    hs_expr_info_t* info = nullptr;
    hs_compile_error_t* err = nullptr;
    bool ok = hs_expression_info(pcre2.c_str(), flags, &info, &err) == HS_SUCCESS;
    if (!ok) hs_free_compile_error(err);
    free(info);  // NOLINT: Hyperscan allocates with malloc
    if (ok) return flags;
  }
  return std::nullopt;
}

// A pattern with no factor of its own, split at its top-level alternation:
// each branch is reached through its own factor when it has one, and only
// the branches without one go to the regex database (`6.4` alone, not the
// whole `(tiananmen|6.4|june 4.*1989)`). A whole broad pattern in the regex
// database costs every line of every log; one short branch costs far less.
// nullopt when the pattern does not split, or a branch does not parse alone.
std::optional<PrefilterPlan> PlanByBranches(const std::string& python) {
  std::vector<std::string> branches = TopLevelBranches(python);
  if (branches.empty()) return std::nullopt;
  PrefilterPlan plan;
  for (const auto& branch : branches) {
    auto parsed = regex::ParsePythonRegex(branch);
    if (!parsed.ok()) return std::nullopt;
    const regex::PatternInfo* info = &*parsed;
    std::vector<std::string> factor = ChooseFactor(*info);
    if (!factor.empty()) {
      plan.literals.insert(plan.literals.end(), factor.begin(), factor.end());
      continue;
    }
    auto flags = RegexDatabaseFlags(info->pcre2);
    if (!flags) return std::nullopt;
    plan.regexes.emplace_back(info->pcre2, *flags);
  }
  return plan;
}

bool AllDistinctive(const std::vector<std::string>& literals) {
  return std::all_of(literals.begin(), literals.end(), [](const std::string& l) { return IsDistinctiveLiteral(l); });
}

}  // namespace

PrefilterPlan PlanPrefilter(const std::string& python, const regex::PatternInfo& info) {
  PrefilterPlan plan;
  plan.literals = ChooseFactor(info);
  if (!plan.literals.empty() && AllDistinctive(plan.literals)) return plan;
  // A factor with a broad literal reaches the pattern on problem lines only
  // (see pattern_set.h). Its branches may do better: in `(NOAUTH|
  // Authentication required|ERR.*AUTH)` the factor is "auth", but the
  // middle branch has a distinctive literal of its own, found on any line.
  if (auto split = PlanByBranches(python)) {
    bool gains = plan.literals.empty() ||
                 std::any_of(split->literals.begin(), split->literals.end(),
                             [](const std::string& l) { return IsDistinctiveLiteral(l); });
    if (gains) return std::move(*split);
  }
  if (!plan.literals.empty()) return plan;
  // No literal: the full pattern goes to Hyperscan, which either takes it
  // exactly, or as a prefilter.
  if (auto flags = RegexDatabaseFlags(info.pcre2)) {
    plan.regexes.emplace_back(info.pcre2, *flags);
  } else {
    plan.unreachable = true;
  }
  return plan;
}


bool FoundOnAnyLine(const PrefilterPlan& plan, std::string_view folded_line) {
  return std::any_of(plan.literals.begin(), plan.literals.end(), [&](const std::string& lit) {
    return IsDistinctiveLiteral(lit) && folded_line.find(lit) != std::string_view::npos;
  });
}

}  // namespace kedb::match
