#include "mine/environment.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "regex/pcre2_regex.h"
#include "util/trim.h"

namespace kedb::mine {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

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
    {"os", R"(^OS:\s*(\S.*?)\s*$)", true},
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
    {"", R"(^([A-Za-z][\w.-]*)\s{2,}(\d[\w.+-]*)\s*$)", true},
    // versions named in prose
    {"", R"((?i)\b(PyTorch|torch|TensorFlow|tensorflow-gpu|Keras|JAX|jaxlib|MXNet|Python|CUDA|cuDNN|NCCL|NumPy|)"
         R"(transformers|Node\.js|Node|npm|rustc|Rust|OpenJDK|JDK|Java|Go|Docker|Kubernetes|gcc|clang|)"
         R"(Ubuntu|Debian|CentOS|Fedora|macOS)\s*(?:version\s*)?v?(\d+\.\d+[\w.+-]*))", false},
    {"os", R"(\b(Windows (?:10|11|Server 20\d\d)))", false},
};

// Names people write for the same product.
std::string Canonical(std::string_view name) {
  const std::string n = Lower(name);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kSame = {{
      {"pytorch", "torch"}, {"tensorflow-gpu", "tensorflow"}, {"node.js", "node"}, {"nodejs", "node"},
      {"openjdk", "java"}, {"jdk", "java"}, {"rust", "rustc"}, {"jaxlib", "jax"}, {"python3", "python"},
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
  std::string_view inner = util::Trim(t.substr(t.find_first_not_of('-')));
  inner = inner.substr(0, inner.find('-'));
  inner = util::Trim(inner);
  if (!inner.ends_with(" Info")) return "";
  return Canonical(util::Trim(inner.substr(0, inner.size() - 5)));
}

}  // namespace

std::vector<EnvFact> FindEnvironment(std::string_view body, std::size_t post) {
  std::vector<EnvFact> facts;
  auto add = [&](std::string name, std::string value, std::size_t line, bool dump) {
    while (!value.empty() && (value.back() == '.' || value.back() == ',' || value.back() == '-')) value.pop_back();
    if (name.empty() || value.empty()) return;
    if (IsOsName(name)) {
      value = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])))) + name.substr(1) +
              " " + value;
      if (name == "macos") value = "macOS " + value.substr(6);
      name = "os";
    }
    const bool seen = std::any_of(facts.begin(), facts.end(), [&](const EnvFact& f) { return f.name == name; });
    if (!seen) facts.push_back({std::move(name), std::move(value), post, line, dump});
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
        } else {
          add(Canonical(text(1)), text(2), line_no + 1, r.rule->dump);
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

std::string ProductName(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kNames = {{
      {"torch", "PyTorch"}, {"tensorflow", "TensorFlow"}, {"mxnet", "MXNet"}, {"cudnn", "cuDNN"},
      {"cuda", "CUDA"}, {"python", "Python"}, {"nccl", "NCCL"}, {"numpy", "NumPy"}, {"jax", "JAX"},
      {"keras", "Keras"}, {"node", "Node.js"}, {"java", "Java"}, {"docker", "Docker"},
      {"kubernetes", "Kubernetes"}, {"go", "Go"}, {"gcc", "GCC"}, {"pip", "pip"}}};
  if (name == "gpu" || name == "os" || name == "driver") return "";
  for (auto [n, product] : kNames) {
    if (n == name) return std::string(product);
  }
  return std::string(name);
}

}  // namespace kedb::mine
