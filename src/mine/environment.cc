#include "mine/environment.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "regex/pcre2_regex.h"
#include "util/strings.h"

namespace kedb::mine {
namespace {

// One way a fact is written. `name` is the fact's name, or "" when group 1
// names it (a package) and group 2 holds the value. `dump`: the line is a
// tool's output.
struct Rule {
  const char* name;
  const char* pattern;
  bool dump;
};

// Order matters only within a line: the first rule that gives a name wins.
constexpr Rule kRules[] = {
    // torch.utils.collect_env
    {"torch", R"(^PyTorch version:\s*(\d[\w.+-]*))", true},
    {"cuda", R"(^CUDA used to build PyTorch:\s*(\d[\w.]*))", true},
    {"cuda", R"(^CUDA runtime version:\s*(\d[\w.]*))", true},
    {"os", R"(^\s*(?:[-*]\s*)?OS:\s*(\S.*?)\s*$)", true},
    {"python", R"(^Python version:\s*(\d+\.\d+(?:\.\d+)?))", true},
    {"gpu", R"(^GPU models and configuration:\s*(?:GPU 0:\s*)?(\S.*?)\s*$)", true},
    {"driver", R"(^Nvidia driver version:\s*(\d[\w.]*))", true},
    {"cudnn", R"(^cuDNN version:.*?(\d+\.\d+\.\d+))", true},
    {"", R"(^\[(?:pip3?|conda)\]\s+([A-Za-z][\w.-]*?)\s*(?:==\s*|\s+)(\d[\w.+-]*))", true},
    // transformers-cli env, and bulleted reports like it
    {"os", R"(^\s*[-*]\s*Platform:\s*(\S.*?)\s*$)", true},
    {"", R"(^\s*[-*]\s*`?([A-Za-z][\w.-]*?)`? version(?: \([^)]*\))?:\s*(\d[\w.+-]*))", true},
    // nvidia-smi
    {"driver", R"(NVIDIA-SMI\s+\S+\s+Driver Version:\s*(\d[\w.]*))", true},
    {"cuda", R"(NVIDIA-SMI.*CUDA Version:\s*(\d[\w.]*))", true},
    {"gpu", R"(^\|\s+\d+\s+((?:NVIDIA|Tesla|GeForce|Quadro|Radeon)\b[^|]*?)\s+(?:On|Off)\s+\|)", true},
    // pip freeze, pip list
    {"", R"(^([A-Za-z][\w.-]*)==(\d[\w.+-]*)\s*$)", true},
    // pip list, snap list ("microk8s  v1.18.1  1320  1.18/stable"), a "name 1.2.3" line
    {"", R"(^\s*([A-Za-z][\w.-]*)(?:\s{2,}|\s+v)(\d+\.\d+[\w.+-]*)(?:\s{2,}.*)?$)", true},
    {"", R"(^\s*([A-Za-z][\w.-]*)\s+(\d+\.\d+\.\d+[\w.+-]*)\s*$)", true},
    // versions named in prose
    // cargo's "Installing librespot v0.8.0"
    {"", R"(^\s*Installing\s+([A-Za-z][\w-]*)\s+v(\d+\.\d+[\w.+-]*))", true},
    // Not inside a path: "lib/python3.6/site-packages" says nothing of the version in use.
    {"", R"((?i)(?<![/\\\w.-])(PyTorch|torch|TensorFlow|tensorflow-gpu|Keras|JAX|jaxlib|MXNet|Python|CUDA|cuDNN|)"
         R"(NCCL|NumPy|transformers|Node\.js|Node|npm|pip|conda|cargo|rustc|Rust|OpenJDK|JDK|Java|Go|Docker|)"
         R"(Kubernetes|gcc|clang|Ubuntu|Debian|CentOS|Fedora|macOS)\s*(?:version\s*)?v?(\d+\.\d+[\w.+-]*)(?![/\\]))",
     false},
    {"os", R"((?i)\b((?:Debian|Fedora|CentOS|RHEL|Rocky Linux|macOS|Windows)\s+(?:Server\s+20\d\d|\d+(?:\.\d+)*))\b)", false},
    // Any other product: a name with a capital or a hyphen, a three-part version.
    {"", R"((?<![/\\\w.@-])([A-Za-z][\w]*(?:[-.][A-Za-z][\w]*)*)(?:\s+v?|@\^?|\s+version\s+)(\d+\.\d+\.\d+[\w.+-]*)(?![/\\]))",
     false},
};

// Capitalised words that come before numbers without naming a product.
bool IsNoName(std::string_view lower) {
  static constexpr std::string_view kWords[] = {"version", "release", "build", "step", "line", "epoch", "the", "to",
                                                "from", "and", "or", "is", "was", "at", "on", "of", "in", "v", "with",
                                                "using", "upgraded", "downgraded", "installed", "api", "go"};
  return std::find(std::begin(kWords), std::end(kWords), lower) != std::end(kWords);
}

// Names people write for the same product.
std::string Canonical(std::string_view name) {
  const std::string n = util::AsciiLower(name);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kSame = {{
      {"pytorch", "torch"}, {"tensorflow-gpu", "tensorflow"}, {"node.js", "node"}, {"nodejs", "node"},
      {"openjdk", "java"}, {"jdk", "java"}, {"rustc", "rust"}, {"jaxlib", "jax"}, {"python3", "python"},
      {"tf", "tensorflow"}, {"huggingface_hub", "huggingface-hub"}}};
  for (auto [from, to] : kSame) {
    if (n == from) return std::string(to);
  }
  return n;
}

bool IsOsName(std::string_view n) {
  return n == "ubuntu" || n == "debian" || n == "centos" || n == "fedora" || n == "macos";
}

struct CompiledRule {
  const Rule* rule;
  regex::Pcre2Regex re;
};

const std::vector<CompiledRule>& Compiled() {
  static const std::vector<CompiledRule> rules = [] {
    std::vector<CompiledRule> out;
    regex::Pcre2Options options;
    options.caseless = false;
    for (const Rule& r : kRules) {
      auto re = regex::Pcre2Regex::Compile(r.pattern, options);
      if (re.ok()) out.push_back({&r, std::move(re).value()});  // the table is fixed: a failure is a bug in it
    }
    return out;
  }();
  return rules;
}

// "----------MXNet Info-----------": "mxnet".
std::string SectionName(std::string_view t) {
  if (!t.starts_with("---") || !t.ends_with("---")) return "";
  const std::size_t name = t.find_first_not_of('-');
  if (name == std::string_view::npos) return "";  // a rule of dashes names nothing
  std::string_view inner = util::Trim(t.substr(name));
  inner = inner.substr(0, inner.find('-'));
  inner = util::Trim(inner);
  if (!inner.ends_with(" Info")) return "";
  return Canonical(util::Trim(inner.substr(0, inner.size() - 5)));
}

}  // namespace

std::vector<EnvFact> FindEnvironment(std::string_view body, std::size_t post) {
  std::vector<EnvFact> facts;
  auto add = [&](std::string name, std::string value, std::size_t line, bool dump, std::string label = "") {
    while (!value.empty() && (value.back() == '.' || value.back() == ',' || value.back() == '-')) value.pop_back();
    if (name.empty() || value.empty()) return;
    if (IsOsName(name)) {
      value = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])))) + name.substr(1) +
              " " + value;
      if (name == "macos") value = "macOS " + value.substr(6);
      name = "os";
    }
    auto seen = std::find_if(facts.begin(), facts.end(), [&](const EnvFact& f) { return f.name == name; });
    if (seen == facts.end()) {
      facts.push_back({std::move(name), std::move(value), std::move(label), post, line, dump});
    } else if (value.size() > seen->value.size() && value.starts_with(seen->value + ".")) {
      // "3.6" then "3.6.8": the exact one
      *seen = EnvFact{std::move(name), std::move(value), std::move(label), post, line, dump};
    }
  };
  std::string section;
  std::size_t line_no = 0;
  for (std::size_t start = 0; start < body.size(); ++line_no) {
    std::size_t end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    const std::string_view line = body.substr(start, end - start);
    start = end + 1;
    const std::string_view t = util::Trim(line);
    if (std::string s = SectionName(t); !s.empty()) {
      section = s;
      continue;
    }
    // `docker version`: "Client:" (or "Client: Docker Engine - Community"), then " Version: 24.0.7".
    if (t.starts_with("Client:") && !line.starts_with(" ")) {
      section = "docker-client";
      continue;
    }
    if (section == "docker-client" && t.starts_with("Version:")) {
      add("docker", std::string(util::Trim(t.substr(8))), line_no + 1, true, "Docker");
      section.clear();
      continue;
    }
    // "Version : 3.7.4" under "----------Python Info----------".
    if (!section.empty() && section != "system" && section != "hardware" && section != "network" &&
        t.starts_with("Version") && t.find(':') != std::string_view::npos) {
      add(section, std::string(util::Trim(t.substr(t.find(':') + 1))), line_no + 1, true);
      continue;
    }
    if (section == "system" && t.starts_with("Platform") && t.find(':') != std::string_view::npos) {
      add("os", std::string(util::Trim(t.substr(t.find(':') + 1))), line_no + 1, true);
      continue;
    }
    for (const CompiledRule& r : Compiled()) {
      // Every match on the line: prose may name several versions.
      for (std::size_t from = 0; from < line.size();) {
        const std::string_view rest = line.substr(from);
        auto groups = r.re.Captures(rest);
        if (!groups || !(*groups)[0] || (*groups)[0]->second == 0) break;
        auto text = [&](std::size_t g) {
          if (g >= groups->size() || !(*groups)[g]) return std::string();
          return std::string(rest.substr((*groups)[g]->first, (*groups)[g]->second - (*groups)[g]->first));
        };
        if (r.rule->name[0] != '\0') {
          add(r.rule->name, text(1), line_no + 1, r.rule->dump);
        } else if (&r == &Compiled().back()) {
          // The catch-all rule: only names that look like a product's.
          const std::string label = text(1);
          const bool named = std::any_of(label.begin(), label.end(), [](char c) { return (c >= 'A' && c <= 'Z') || c == '-'; });
          if (named && !IsNoName(util::AsciiLower(label))) add(Canonical(label), text(2), line_no + 1, false, label);
        } else {
          add(Canonical(text(1)), text(2), line_no + 1, r.rule->dump, text(1));
        }
        from += (*groups)[0]->second;
      }
    }
  }
  return facts;
}

std::vector<EnvFact> MergeEnvironment(const std::vector<EnvFact>& facts) {
  std::vector<EnvFact> out;
  for (const EnvFact& f : facts) {
    auto it = std::find_if(out.begin(), out.end(), [&](const EnvFact& o) { return o.name == f.name; });
    if (it == out.end()) {
      out.push_back(f);
    } else if (f.from_dump && !it->from_dump) {
      *it = f;
    }
  }
  return out;
}

std::string VersionEntryText(const EnvFact& f) {
  std::string product = ProductName(f.name);
  if (product.empty()) return "";
  if (product == f.name && !f.label.empty()) product = f.label;  // a name kedb does not know: as written
  return product + " " + f.value.substr(0, f.value.find('+'));
}

std::string ProductName(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kNames = {{
      {"torch", "PyTorch"}, {"tensorflow", "TensorFlow"}, {"mxnet", "MXNet"}, {"cudnn", "cuDNN"},
      {"cuda", "CUDA"}, {"python", "Python"}, {"nccl", "NCCL"}, {"numpy", "NumPy"}, {"jax", "JAX"},
      {"keras", "Keras"}, {"node", "Node.js"}, {"java", "Java"}, {"docker", "Docker"},
      {"kubernetes", "Kubernetes"}, {"go", "Go"}, {"gcc", "GCC"}, {"rust", "Rust"}}};
  if (name == "gpu" || name == "os" || name == "driver") return "";
  for (auto [n, product] : kNames) {
    if (n == name) return std::string(product);
  }
  return std::string(name);
}

}  // namespace kedb::mine
