#include "mine/guesses.h"

#include <algorithm>
#include <array>
#include <utility>

#include "util/strings.h"

namespace kedb::mine {
namespace {


std::size_t Count(const std::string& lower, std::string_view word) {
  std::size_t n = 0;
  for (std::size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + word.size())) ++n;
  return n;
}

// Words that say which domain a thread is in. The first domain of the
// table wins a tie, so narrower domains come first.
constexpr std::pair<std::string_view, std::string_view> kDomainWords[] = {
    {"nccl", "nccl"},           {"cudnn", "cuda"},         {"cublas", "cuda"},          {"cuda", "cuda"},
    {"mxnet", "mxnet"},         {"gluon", "mxnet"},        {"jax", "jax"},              {"xla", "jax"},
    {"tensorflow", "tensorflow"}, {"keras", "tensorflow"}, {"transformers", "huggingface"},
    {"huggingface", "huggingface"}, {"torch", "pytorch"},  {"kubectl", "kubernetes"},   {"kubernetes", "kubernetes"},
    {"crashloopbackoff", "kubernetes"}, {"docker", "docker"}, {"rustc", "rust"},        {"cargo", "rust"},
    {"npm ", "node"},           {"node:", "node"},         {"node.js", "node"},         {"maven", "java"},
    {"gradle", "java"},         {"java.", "java"},         {"pip ", "python"},          {"traceback", "python"},
};

constexpr std::pair<std::string_view, std::string_view> kCategoryWords[] = {
    {"out of memory", "resource_error"},   {"oom", "resource_error"},           {"resourceexhausted", "resource_error"},
    {"cannot allocate", "resource_error"}, {"no space left", "resource_error"}, {"nccl", "distributed_error"},
    {"watchdog", "distributed_error"},     {"collective", "distributed_error"}, {"modulenotfounderror", "import_error"},
    {"importerror", "import_error"},       {"no module named", "import_error"}, {"cannot find module", "import_error"},
    {"err_module_not_found", "import_error"}, {"err_require_esm", "import_error"}, {"undefined symbol", "import_error"},
    {"resolutionimpossible", "install_error"}, {"eresolve", "install_error"},   {"dependency conflict", "install_error"},
    {"could not find a version", "install_error"}, {"failed building wheel", "install_error"},
    {"nan", "numerical_error"},            {"overflow", "numerical_error"},     {"error[e", "compile_error"},
    {"syntaxerror", "compile_error"},      {"compilation failed", "compile_error"}, {"cmake error", "build_error"},
    {"build failed", "build_error"},       {"typeerror", "type_error"},         {"valueerror", "value_error"},
    {"permission denied", "config_error"}, {"eacces", "config_error"},          {"crashloopbackoff", "config_error"},
    {"ecc error", "hardware_error"},       {"xid", "hardware_error"},           {"fallen off the bus", "hardware_error"},
};

// `word` in `lower` with no letter or digit joined to it on either side.
bool HasWhole(const std::string& lower, std::string_view word) {
  // A prefix of a code ("error[e" of error[E0277]) is found anywhere.
  if (word.find('[') != std::string_view::npos) return lower.find(word) != std::string::npos;
  for (std::size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    const bool left = at == 0 || !alnum(lower[at - 1]) || !alnum(word.front());
    const bool right = at + word.size() >= lower.size() || !alnum(lower[at + word.size()]) || !alnum(word.back());
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::string GuessDomain(std::string_view title, const std::vector<std::string>& error_lines,
                        std::string_view all_text, std::string_view fallback) {
  std::string strong = util::AsciiLower(title);
  for (const std::string& e : error_lines) (strong += '\n') += util::AsciiLower(e);
  const std::string all = util::AsciiLower(all_text);
  std::string best;
  std::size_t best_score = 0;
  for (auto [word, domain] : kDomainWords) {
    std::size_t score = 3 * Count(strong, word) + Count(all, word);
    // Several words may name one domain; they add up.
    for (auto [other, d] : kDomainWords) {
      if (d == domain && other != word) score += 3 * Count(strong, other) + Count(all, other);
    }
    if (score > best_score) {
      best_score = score;
      best = std::string(domain);
    }
  }
  if (best_score >= 2) return best;
  return fallback.empty() ? (best.empty() ? "general" : best) : std::string(fallback);
}

std::string GuessCategory(const std::vector<std::string>& error_lines, std::string_view title,
                          std::string_view report) {
  std::string text = util::AsciiLower(title);
  for (const std::string& e : error_lines) (text += '\n') += util::AsciiLower(e);
  for (const std::string& t : {text, util::AsciiLower(report)}) {
    for (auto [word, category] : kCategoryWords) {
      if (HasWhole(t, word)) return std::string(category);
    }
  }
  return "runtime_error";
}

std::string MakeId(std::string_view domain, std::string_view basis) {
  static constexpr std::array<std::string_view, 14> kStop = {"the", "a", "an", "of", "to", "in", "on", "and",
                                                             "is", "for", "with", "at", "by", "error"};
  std::string slug;
  std::size_t words = 0;
  const std::string lower = util::AsciiLower(basis);
  for (std::size_t i = 0; i < lower.size() && words < 6;) {
    while (i < lower.size() && !std::isalnum(static_cast<unsigned char>(lower[i]))) ++i;
    std::size_t b = i;
    while (i < lower.size() && (std::isalnum(static_cast<unsigned char>(lower[i])) || lower[i] == '_')) ++i;
    std::string_view w = std::string_view(lower).substr(b, i - b);
    const bool digits = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (w.size() < 2 || digits || std::find(kStop.begin(), kStop.end(), w) != kStop.end()) continue;
    if (slug.size() + w.size() + 1 > 60) break;
    if (!slug.empty()) slug += '-';
    for (char c : w) slug += c == '_' ? '-' : c;
    ++words;
  }
  return std::string(domain) + "/" + (slug.empty() ? "thread" : slug);
}

bool IsOfficialLink(std::string_view url) {
  for (std::string_view p : {"/pull/", "/commit/", "/releases/", "/compare/"}) {
    if (url.find("github.com/") != std::string_view::npos && url.find(p) != std::string_view::npos) return true;
  }
  for (std::string_view host : {"://docs.", ".readthedocs.io", "pytorch.org/docs", "tensorflow.org/api_docs",
                                "tensorflow.org/guide", "nodejs.org/api", "doc.rust-lang.org", "kubernetes.io/docs",
                                "developer.nvidia.com", "docs.nvidia.com", "mxnet.apache.org/api", "python.org/3/"}) {
    if (url.find(host) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace kedb::mine
