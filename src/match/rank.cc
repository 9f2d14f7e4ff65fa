#include "match/rank.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "regex/pcre2_regex.h"

namespace kedb::match {
namespace {

// ASCII only (names of products and OSes); std::tolower asks the locale for
// every character of the text.
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

// Whether `text` holds `word` (lower-case letters) in any case. Each case
// of the first letter is found by memchr, so a text is not copied.
bool ContainsIgnoringCase(std::string_view text, std::string_view word) {
  if (word.empty() || text.size() < word.size()) return false;
  auto rest_matches = [&](std::size_t at) {
    for (std::size_t k = 1; k < word.size(); ++k) {
      const char c = text[at + k];
      if (c != word[k] && c != static_cast<char>(word[k] - 32)) return false;
    }
    return true;
  };
  const std::size_t last = text.size() - word.size();
  for (const char first : {word[0], static_cast<char>(word[0] - 32)}) {
    for (std::size_t at = text.find(first); at != std::string_view::npos && at <= last; at = text.find(first, at + 1)) {
      if (rest_matches(at)) return true;
    }
  }
  return false;
}

// Product names as users and records write them -> one key.
std::string Product(std::string_view name) {
  static const std::map<std::string, std::string, std::less<>> kAliases = {
      {"pytorch", "torch"},   {"torch", "torch"},         {"tensorflow", "tensorflow"}, {"tf", "tensorflow"},
      {"cudnn", "cudnn"},     {"cuda", "cuda"},           {"nccl", "nccl"},             {"cublas", "cublas"},
      {"jax", "jax"},         {"jaxlib", "jax"},          {"python", "python"},         {"py", "python"},
      {"node", "node"},       {"nodejs", "node"},         {"mxnet", "mxnet"},           {"keras", "keras"},
      {"transformers", "transformers"}, {"accelerate", "accelerate"}, {"driver", "driver"},
      {"nvidia-driver", "driver"}, {"os", "os"},
  };
  std::string key = Lower(name);
  auto it = kAliases.find(key);
  return it == kAliases.end() ? key : it->second;
}

std::string NormalOs(std::string_view os) {
  std::string o = Lower(os);
  if (o == "ubuntu" || o == "debian" || o == "centos" || o == "rhel" || o == "ubuntu-latest") return "linux";
  if (o == "darwin" || o == "mac" || o == "osx") return "macos";
  if (o == "win" || o == "win32" || o == "win64") return "windows";
  return o;
}

std::vector<int> VersionNumbers(std::string_view v) {
  std::vector<int> out;
  int cur = -1;
  for (char c : v) {
    if (c >= '0' && c <= '9') {
      cur = (cur < 0 ? 0 : cur * 10) + (c - '0');
      if (cur > 1'000'000) cur = 1'000'000;
    } else if (c == '.') {
      if (cur < 0) break;
      out.push_back(cur);
      cur = -1;
    } else {
      break;
    }
  }
  if (cur >= 0) out.push_back(cur);
  return out;
}

// -1, 0, 1 comparing only as many components as both have.
int ComparePrefix(const std::vector<int>& a, const std::vector<int>& b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

// Whether version `v` satisfies `spec`: "8.9" (same leading components),
// ">=12.0,<13.0", "any".
bool Satisfies(const std::vector<int>& v, std::string_view spec) {
  if (spec.empty() || spec == "any" || spec == ">=any") return true;
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    std::string_view part = spec.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    std::string_view op;
    for (std::string_view o : {">=", "<=", "==", "!=", "~=", ">", "<"}) {
      if (part.substr(0, o.size()) == o) {
        op = o;
        break;
      }
    }
    std::vector<int> bound = VersionNumbers(part.substr(op.size()));
    if (!bound.empty()) {
      int c = ComparePrefix(v, bound);
      // Full comparison for ordering operators: pad the shorter with zeros.
      std::vector<int> a = v, b = bound;
      a.resize(std::max(a.size(), b.size())), b.resize(std::max(a.size(), b.size()));
      int full = a < b ? -1 : (a == b ? 0 : 1);
      bool ok = op.empty() || op == "==" || op == "~=" ? c == 0
                : op == ">="                            ? full >= 0
                : op == ">"                             ? full > 0
                : op == "<="                            ? full <= 0
                : op == "<"                             ? full < 0
                                                        : c != 0;
      if (!ok) return false;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return true;
}

}  // namespace

std::vector<EnvPair> EnvFromText(std::string_view text) {
  static const auto kVersion = regex::Pcre2Regex::Compile(
      R"((?<![\w.-])(py)?(torch|tensorflow|cudnn|cuda|nccl|jax|jaxlib|python|mxnet|transformers|accelerate|keras)[ =:v/_-]{0,3}(\d+(?:\.\d+){1,3}))");
  std::vector<EnvPair> out;
  // Every version the pattern reads has a dot between digits; most
  // messages have none, and need not be searched.
  bool dotted = false;
  for (std::size_t i = 1; i + 1 < text.size() && !dotted; ++i) {
    dotted = text[i] == '.' && text[i - 1] >= '0' && text[i - 1] <= '9' && text[i + 1] >= '0' && text[i + 1] <= '9';
  }
  const regex::Pcre2Regex* re = dotted && kVersion.ok() ? &*kVersion : nullptr;
  if (re) {
    std::string_view rest = text;
    while (!rest.empty() && out.size() < 16) {
      auto groups = re->Captures(rest);
      if (!groups || !(*groups)[0]) break;
      auto [b, e] = *(*groups)[0];
      auto [nb, ne] = *(*groups)[2];
      auto [vb, ve] = *(*groups)[3];
      std::string product = Product(rest.substr(nb, ne - nb));
      out.push_back({product, std::string(rest.substr(vb, ve - vb))});
      rest.remove_prefix(std::max(e, b + 1));
    }
  }
  const std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 1 << 16));
  for (std::string_view os : {"windows", "macos", "darwin", "ubuntu", "linux"}) {
    if (ContainsIgnoringCase(head, os)) {
      out.push_back({"os", NormalOs(os)});
      break;
    }
  }
  return out;
}

std::size_t MessageBytes(std::string_view line) {
  std::size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos ? 0 : line.size() - first;
}

double EnvFit(const Record& record, const std::vector<EnvPair>& env, std::string* detail) {
  int agree = 0, conflict = 0;
  std::string notes;
  for (const EnvPair& pair : env) {
    std::string key = Product(pair.key);
    if (key == "os") {
      if (record.os_specific.empty()) continue;
      std::string want = NormalOs(pair.value);
      bool any = std::any_of(record.os_specific.begin(), record.os_specific.end(),
                             [&](const auto& os) { return NormalOs(os.first) == want; });
      (any ? agree : conflict)++;
      if (detail) notes += fmt::format("{}os={} {}", notes.empty() ? "" : "; ", pair.value, any ? "fits" : "differs");
      continue;
    }
    std::vector<int> have = VersionNumbers(pair.value);
    if (have.empty()) continue;
    bool mentioned = false, fits = false;
    for (const VersionEntry& v : record.versions) {
      std::string_view text = v.version;
      auto space = text.find(' ');
      if (space == std::string_view::npos) continue;
      if (Product(text.substr(0, space)) != key) continue;
      mentioned = true;
      if (Satisfies(have, text.substr(space + 1))) fits = true;
    }
    if (!mentioned) continue;
    (fits ? agree : conflict)++;
    if (detail) notes += fmt::format("{}{}={} {}", notes.empty() ? "" : "; ", pair.key, pair.value, fits ? "fits" : "differs");
  }
  if (detail) *detail = notes.empty() ? "nothing to compare" : notes;
  if (agree + conflict == 0) return 0;
  return static_cast<double>(agree - conflict) / static_cast<double>(agree + conflict);
}

double EnvFeature(const Record& record, const std::vector<EnvPair>& env, const std::vector<EnvPair>& text_env,
                  std::string* detail) {
  std::string env_detail, text_detail;
  double explicit_fit = EnvFit(record, env, detail ? &env_detail : nullptr);
  // What the user states outweighs what the text mentions.
  if (explicit_fit != 0) {
    if (detail) *detail = "--env: " + env_detail;
    return explicit_fit;
  }
  double text_fit = EnvFit(record, text_env, detail ? &text_detail : nullptr);
  if (detail) *detail = "text: " + text_detail;
  return 0.5 * text_fit;
}

namespace {

// The fitted model (tools/eval/train_rank.py writes this file).
#include "match/rank_model.inc"

static_assert(kRankWeights.size() == kFeatureCount, "rank_model.inc was written for other features");

}  // namespace

std::array<double, kFeatureCount> FeatureValues(const Features& f) {
  return {f.specificity, f.coverage, f.similarity, f.recall,     f.context,     f.domain,
          f.regex,       f.confidence, f.env,      f.names_agree, f.closeness,
          f.fuzzy_alone, f.explained,  f.names_conflict, f.family, f.code_agree, f.fix_quoted};
}

const std::array<const char*, kFeatureCount>& FeatureNames() {
  static const std::array<const char*, kFeatureCount> names = {
      "specificity", "coverage", "similarity", "recall", "context",     "domain",
      "regex",       "confidence", "env",    "names_agree", "closeness",
      "fuzzy_alone", "explained",  "names_conflict", "family", "code_agree", "fix_quoted"};
  return names;
}

double RankLogit(const Features& f) {
  const auto v = FeatureValues(f);
  double z = kRankBias;
  for (std::size_t i = 0; i < kFeatureCount; ++i) z += kRankWeights[i] * v[i];
  return z;
}

double Confidence(double logit) { return 1 / (1 + std::exp(-(kCalibrationA * logit + kCalibrationB))); }

double DefaultMinConfidence() { return kMinConfidence; }
double DefaultListConfidence() { return kListConfidence; }


std::vector<ScoreFactor> ExplainFeatures(const Features& f, const std::string& env_detail) {
  // Short enough to be kept inside a std::string without allocating, and
  // copied with their lengths known: a match is explained each time it is
  // reported. README, "How matching works", says what each factor measures.
  static constexpr std::array<std::string_view, kFeatureCount> details = {
      "branch literals", "line covered",  "reads like sig", "record words",  "words around",
      "domain of text",  "pattern hit",   "record's own",   "",              "same error name",
      "near the sig",    "one-line fuzzy", "line explained", "other code",     "same error family", "same numbered code",
      "quotes a fix"};
  static const std::array<std::string_view, kFeatureCount> names = [] {
    std::array<std::string_view, kFeatureCount> n;
    for (std::size_t i = 0; i < kFeatureCount; ++i) n[i] = FeatureNames()[i];
    return n;
  }();
  static const std::size_t env = static_cast<std::size_t>(std::find(names.begin(), names.end(), "env") - names.begin());
  const auto v = FeatureValues(f);
  std::vector<ScoreFactor> why;
  why.reserve(kFeatureCount);
  for (std::size_t i = 0; i < kFeatureCount; ++i) {
    if (v[i] == 0) continue;  // what was not seen explains nothing (a zero weight is shown: it was seen)
    why.push_back(ScoreFactor{names[i], v[i], kRankWeights[i],
                              i == env ? env_detail : std::string(details[i])});
  }
  return why;
}

}  // namespace kedb::match
