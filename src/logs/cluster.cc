#include "logs/cluster.h"

#include <algorithm>
#include <variant>

#include "regex/pcre2_regex.h"

namespace kedb::logs {
namespace {

constexpr std::size_t kMaxMembers = 1000;
constexpr double kMinAgreement = 0.5;

bool Digit(char c) { return c >= '0' && c <= '9'; }
bool Hex(char c) { return Digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::vector<std::string_view> SplitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

bool IsUuid(std::string_view t) {
  if (t.size() != 36) return false;
  for (std::size_t i = 0; i < 36; ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? t[i] != '-' : !Hex(t[i])) return false;
  }
  return true;
}

bool IsIp(std::string_view t) {
  int dots = 0, digits = 0;
  std::size_t i = 0;
  for (; i < t.size() && t[i] != ':'; ++i) {
    if (Digit(t[i])) {
      if (++digits > 3) return false;
    } else if (t[i] == '.' && digits > 0) {
      ++dots, digits = 0;
    } else {
      return false;
    }
  }
  if (dots != 3 || digits == 0) return false;
  if (i == t.size()) return true;
  for (++i; i < t.size(); ++i) {
    if (!Digit(t[i])) return false;
  }
  return true;
}

bool IsHex(std::string_view t) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    return std::all_of(t.begin() + 2, t.end(), Hex);
  }
  // A long run of hex digits with at least one digit and one letter: a hash.
  return t.size() >= 8 && std::all_of(t.begin(), t.end(), Hex) && std::any_of(t.begin(), t.end(), Digit) &&
         !std::all_of(t.begin(), t.end(), Digit);
}

bool IsNumber(std::string_view t) {
  std::size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
  bool digits = false;
  for (; i < t.size(); ++i) {
    if (Digit(t[i])) {
      digits = true;
    } else if (t[i] != '.' && t[i] != ',' && t[i] != '_') {
      return false;
    }
  }
  return digits;
}

bool IsPath(std::string_view t) {
  if (t.size() > 1 && (t[0] == '/' || (t[0] == '.' && t[1] == '/') || (t[0] == '~' && t[1] == '/'))) return true;
  if (t.size() > 2 && t[1] == ':' && (t[2] == '\\' || t[2] == '/')) return true;  // C:\x
  return std::count(t.begin(), t.end(), '/') >= 2;
}

// The token masked, keeping punctuation around it: "(0x7f3a," -> "(<HEX>,".
std::string MaskToken(std::string_view t) {
  std::size_t b = 0, e = t.size();
  while (b < e && std::string_view("([{<\"'`,;").find(t[b]) != std::string_view::npos) ++b;
  while (e > b && std::string_view(")]}>\"'`,;:.").find(t[e - 1]) != std::string_view::npos) --e;
  std::string_view core = t.substr(b, e - b);
  const char* mask = nullptr;
  if (core.empty()) {
    mask = nullptr;
  } else if (IsUuid(core)) {
    mask = "<UUID>";
  } else if (IsIp(core)) {
    mask = "<IP>";
  } else if (IsHex(core)) {
    mask = "<HEX>";
  } else if (IsNumber(core)) {
    mask = "<NUM>";
  } else if (IsPath(core)) {
    mask = "<PATH>";
  }
  if (!mask) return std::string(t);
  return std::string(t.substr(0, b)) + mask + std::string(t.substr(e));
}

// Quoted names ('x', "y", `z`) become <STR> before splitting, since they may
// hold spaces.
std::string MaskQuotes(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char q = line[i];
    bool opens = (q == '\'' || q == '"' || q == '`') && (i == 0 || !std::isalnum(static_cast<unsigned char>(line[i - 1])));
    std::size_t close = opens ? line.find(q, i + 1) : std::string_view::npos;
    if (close != std::string_view::npos && close > i + 1 && close - i <= 200) {
      out += "<STR>";
      i = close;
    } else {
      out += q;
    }
  }
  return out;
}

std::string Join(const std::vector<std::string>& tokens) {
  std::string out;
  for (const auto& t : tokens) out += (out.empty() ? "" : " ") + t;
  return out;
}

// Python `re` for a template token.
std::string TokenRegex(const std::string& token) {
  static const std::pair<const char*, const char*> kMasks[] = {
      {"<NUM>", R"([-+]?\d[\d.,_]*)"}, {"<HEX>", R"((?:0[xX])?[0-9a-fA-F]+)"}, {"<UUID>", R"([0-9a-fA-F-]{36})"},
      {"<IP>", R"(\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?)"}, {"<PATH>", R"(\S+)"}, {"<STR>", R"((?:'[^']*'|"[^"]*"|`[^`]*`))"},
      {"<*>", R"(\S+)"}};
  std::string out;
  for (std::size_t i = 0; i < token.size();) {
    bool masked = false;
    for (const auto& [mask, re] : kMasks) {
      std::string_view m(mask);
      if (std::string_view(token).substr(i, m.size()) == m) {
        out += re;
        i += m.size();
        masked = true;
        break;
      }
    }
    if (masked) continue;
    char c = token[i++];
    if (std::string_view(R"(\^$.|?*+()[]{}-)").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string MaskLine(std::string_view line) {
  std::string quoted = MaskQuotes(line);
  std::vector<std::string> tokens;
  for (auto t : SplitSpaces(quoted)) tokens.push_back(MaskToken(t));
  return Join(tokens);
}

void Clusterer::Add(std::string_view line, std::size_t count) {
  std::string masked = MaskLine(line);
  std::vector<std::string> tokens;
  for (auto t : SplitSpaces(masked)) tokens.emplace_back(t);
  if (tokens.empty()) return;
  Group* best = nullptr;
  double best_agreement = 0;
  for (Group& g : groups_) {
    if (g.tokens.size() != tokens.size() || g.tokens[0] != tokens[0]) continue;
    std::size_t same = 0;
    for (std::size_t i = 1; i < tokens.size(); ++i) same += g.tokens[i] == tokens[i] || g.tokens[i] == "<*>";
    double agreement = tokens.size() == 1 ? 1.0 : static_cast<double>(same) / static_cast<double>(tokens.size() - 1);
    if (agreement >= kMinAgreement && agreement > best_agreement) best = &g, best_agreement = agreement;
  }
  if (!best) {
    groups_.push_back(Group{tokens, Template{}});
    best = &groups_.back();
    best->t.example = std::string(line);
  } else {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (best->tokens[i] != tokens[i]) best->tokens[i] = "<*>";
    }
  }
  best->t.count += count;
  auto& members = best->t.members;
  if (members.size() < kMaxMembers && std::find(members.begin(), members.end(), line) == members.end()) {
    members.emplace_back(line);
  }
}

std::vector<Template> Clusterer::Finish() {
  std::vector<Template> out;
  for (Group& g : groups_) {
    Template t = std::move(g.t);
    t.text = Join(g.tokens);
    std::string re;
    for (const auto& tok : g.tokens) re += (re.empty() ? "" : R"(\s+)") + TokenRegex(tok);
    t.regex = re;
    auto compiled = regex::CompilePython(re);
    if (compiled.ok()) {
      for (const auto& m : t.members) t.verified += compiled->Search(m) ? 1 : 0;
    }
    out.push_back(std::move(t));
  }
  std::stable_sort(out.begin(), out.end(), [](const Template& a, const Template& b) { return a.count > b.count; });
  return out;
}

}  // namespace kedb::logs
