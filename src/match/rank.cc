#include "match/rank.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

namespace kedb::match {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
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
  static const auto kVersion = Pcre2Regex::Compile(
      R"((?<![\w.-])(py)?(torch|tensorflow|cudnn|cuda|nccl|jax|jaxlib|python|mxnet|transformers|accelerate|keras)[ =:v/_-]{0,3}(\d+(?:\.\d+){1,3}))");
  std::vector<EnvPair> out;
  if (const auto* re = std::get_if<Pcre2Regex>(&kVersion)) {
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
  std::string lower = Lower(text.substr(0, std::min<std::size_t>(text.size(), 1 << 16)));
  for (const char* os : {"windows", "macos", "darwin", "ubuntu", "linux"}) {
    if (lower.find(os) != std::string::npos) {
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

namespace {

double Specificity(const HitEvidence& hit) {
  double literal = hit.info ? static_cast<double>(hit.info->literal_chars) : 0;
  return 1 - std::exp(-literal / 20.0);
}

// Share of the line's message the match covers (leading blanks aside).
double Coverage(const HitEvidence& hit) {
  std::size_t msg_len = hit.message_bytes, span_len = hit.span_bytes;
  return msg_len == 0 ? 0 : std::min(1.0, static_cast<double>(span_len) / static_cast<double>(msg_len));
}

}  // namespace

double TextEvidence(const HitEvidence& hit, const RankWeights& w) {
  return w.specificity * Specificity(hit) + w.coverage * Coverage(hit) + w.similarity * hit.similarity +
         w.domain * (hit.mentions_domain ? 1 : 0);
}

double Score(const Record& record, const HitEvidence& hit, const std::vector<EnvPair>& env,
             const std::vector<EnvPair>& text_env, std::vector<ScoreFactor>* why, const RankWeights& w) {
  double literal = hit.info ? static_cast<double>(hit.info->literal_chars) : 0;
  double specificity = Specificity(hit);
  std::size_t msg_len = hit.message_bytes, span_len = hit.span_bytes;
  double coverage = Coverage(hit);

  std::string env_detail, text_detail;
  double explicit_fit = EnvFit(record, env, why ? &env_detail : nullptr);
  double text_fit = EnvFit(record, text_env, why ? &text_detail : nullptr);
  // What the user states outweighs what the text mentions.
  double env_fit = explicit_fit != 0 ? explicit_fit : 0.5 * text_fit;
  double domain = hit.mentions_domain ? 1 : 0;
  double confidence = record.confidence.value_or(0.5);
  double evidence = std::min(1.0, std::log1p(static_cast<double>(record.evidence_count)) / std::log1p(100.0));

  double score = w.specificity * specificity + w.coverage * coverage + w.similarity * hit.similarity +
                 w.domain * domain + w.env * env_fit + w.confidence * confidence + w.evidence * evidence;
  if (why) {
    why->push_back({"specificity", specificity, w.specificity,
                    hit.info ? fmt::format("{} literal characters in the pattern", static_cast<int>(literal))
                             : std::string("no pattern fired (fuzzy candidate)")});
    why->push_back({"coverage", coverage, w.coverage,
                    fmt::format("match covers {} of {} characters of the line", span_len, msg_len)});
    why->push_back({"similarity", hit.similarity, w.similarity, "weighted word overlap of the line and the signature"});
    why->push_back({"domain", domain, w.domain,
                    hit.mentions_domain ? "the text names the domain \"" + record.domain + "\"" : "domain not named"});
    why->push_back({"env", env_fit, w.env, explicit_fit != 0 ? "--env: " + env_detail : "text: " + text_detail});
    why->push_back({"confidence", confidence, w.confidence,
                    record.confidence ? "record confidence" : "record states none; 0.5 assumed"});
    why->push_back({"evidence", evidence, w.evidence, fmt::format("evidence_count {}", record.evidence_count)});
  }
  return score;
}

}  // namespace kedb::match
