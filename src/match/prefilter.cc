#include "match/prefilter.h"

#include <algorithm>
#include <cctype>
#include <string_view>

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
    std::size_t n = internal::DecodeUtf8(lit, i, &c);
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
  return IsCommonWord(lit) ? w / 4 : w;
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

std::vector<std::string> ChooseFactor(const PatternInfo& info) {
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

}  // namespace kedb::match
