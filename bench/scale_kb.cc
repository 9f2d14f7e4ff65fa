#include "scale_kb.h"

#include <array>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/xorshift.h"

namespace kedb::bench {
namespace {

using Rng = util::XorShift;

constexpr std::array<std::string_view, 24> kSyllables = {"ka",  "lo",  "mi",  "ren", "tor", "vex", "qua", "zin",
                                                         "dor", "fel", "gri", "hul", "jas", "kep", "lum", "nor",
                                                         "pax", "ryn", "sol", "tev", "ul",  "wix", "yor", "zed"};
constexpr std::array<std::string_view, 8> kSuffixes = {"", "d", "db", "io", "net", "fs", "rt", "ctl"};
constexpr std::array<std::string_view, 30> kDomains = {
    "python", "node",  "java",   "go",       "rust",      "docker",  "kubernetes", "postgres", "mysql",  "redis",
    "kafka",  "nginx", "terraform", "aws",   "gcp",       "azure",   "cuda",       "pytorch",  "tensorflow", "pip",
    "npm",    "maven", "gradle", "git",      "ssh",       "linux",   "systemd",    "spark",    "airflow", "elasticsearch"};
constexpr std::array<std::string_view, 10> kKinds = {"Error",      "Exception",   "TimeoutError", "IOError",
                                                     "StateError", "ConfigError", "AuthError",    "QuotaError",
                                                     "Fault",      "Panic"};
constexpr std::array<std::string_view, 30> kVerbs = {
    "open",   "read",   "write",   "flush",  "commit",  "connect", "resolve", "allocate", "load",     "parse",
    "decode", "encode", "compile", "lock",   "unlock",  "mount",   "bind",    "register", "schedule", "fetch",
    "upload", "verify", "sign",    "rotate", "compact", "replicate", "sync",  "drain",    "attach",   "detach"};
constexpr std::array<std::string_view, 40> kAdjectives = {
    "shard",   "index",   "primary", "replica", "remote",  "local",    "shared",   "pinned", "cached",  "stale",
    "default", "current", "pending", "active",  "backup",  "internal", "external", "hidden", "signed",  "partial",
    "first",   "last",    "next",    "root",    "child",   "parent",   "worker",   "leader", "standby", "offline",
    "secure",  "legacy",  "nested",  "global",  "session", "tenant",   "system",   "user",   "static",  "dynamic"};
constexpr std::array<std::string_view, 60> kObjects = {
    "segment",  "manifest", "snapshot", "journal",  "ledger",   "bucket",   "volume",    "socket",   "channel", "stream",
    "cursor",   "handle",   "lease",    "token",    "session",  "schema",   "table",     "partition", "topic",  "queue",
    "batch",    "tensor",   "kernel",   "context",  "device",   "buffer",   "page",      "block",    "extent",  "inode",
    "certificate", "key",   "policy",   "role",     "quota",    "pool",     "thread",    "process",  "container", "pod",
    "node",     "cluster",  "service",  "endpoint", "route",    "listener", "module",    "package",  "artifact", "layer",
    "image",    "registry", "workflow", "task",     "job",      "trigger",  "checkpoint", "model",   "dataset", "cache"};
constexpr std::array<std::string_view, 6> kCodePrefixes = {"E", "ERR", "KX", "PG", "ORA-", "EC"};
constexpr std::array<std::string_view, 6> kUnits = {"retries", "attempts", "ms", "seconds", "bytes", "requests"};

template <std::size_t N>
std::string_view Pick(Rng& r, const std::array<std::string_view, N>& a) {
  return a[r.Below(N)];
}

// Escapes a literal for a Python-style pattern.
std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\.^$|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

enum class Shape { kNarrow, kCodeAndClass, kBroad, kCaseless };

// Everything one record's texts are made from, drawn from its own stream.
struct Parts {
  std::string domain, component, cls, verb, adjective, object, code, unit, id;
  Shape shape = Shape::kNarrow;
  uint64_t number = 0;  // the value the message carries where the pattern has \d+
  Rng rng{0};           // for the remaining free text
};

Parts MakeParts(std::size_t index, uint64_t seed) {
  Parts p;
  p.rng = Rng(seed, 0x5CA1E000 + index * 2654435761ULL);
  Rng& r = p.rng;
  p.domain = std::string(Pick(r, kDomains));
  std::size_t syllables = 2 + r.Below(2);
  for (std::size_t i = 0; i < syllables; ++i) p.component += Pick(r, kSyllables);
  p.component += Pick(r, kSuffixes);
  p.cls = fmt::format("{}{}{}", static_cast<char>(p.component[0] - 'a' + 'A'), p.component.substr(1), Pick(r, kKinds));
  p.verb = std::string(Pick(r, kVerbs));
  p.adjective = std::string(Pick(r, kAdjectives));
  p.object = std::string(Pick(r, kObjects));
  p.code = fmt::format("{}{}", Pick(r, kCodePrefixes), 10000 + r.Below(20000));
  p.unit = std::string(Pick(r, kUnits));
  std::size_t shape = r.Below(100);
  p.shape = shape < 80 ? Shape::kNarrow : shape < 92 ? Shape::kCodeAndClass : shape < 98 ? Shape::kBroad : Shape::kCaseless;
  p.number = 2 + r.Below(5000);
  p.id = fmt::format("{}/{}-{}", p.domain, p.component, index);
  return p;
}

// The message with `n` as its value.
std::string MessageWith(const Parts& p, uint64_t n) {
  switch (p.shape) {
    case Shape::kNarrow:
      return fmt::format("{}: failed to {} {} {} after {} {} ({})", p.cls, p.verb, p.adjective, p.object, n, p.unit,
                         p.code);
    case Shape::kCodeAndClass:
      return fmt::format("{} {}: {} {} is not available", p.cls, p.code, p.adjective, p.object);
    case Shape::kBroad:
      return fmt::format("{}: unable to {} the {} {}", p.cls, p.verb, p.adjective, p.object);
    case Shape::kCaseless:
      return fmt::format("{} {} {} Rejected By {} ({})", p.cls, p.adjective, p.object, p.component, p.code);
  }
  return {};
}

std::string Pattern(const Parts& p) {
  switch (p.shape) {
    case Shape::kNarrow:
      return fmt::format("{}: failed to {} {} {} after \\d+ {} \\({}\\)", Escape(p.cls), p.verb, p.adjective, p.object,
                         p.unit, Escape(p.code));
    case Shape::kCodeAndClass:
      return fmt::format("{} {}\\b", Escape(p.cls), Escape(p.code));
    case Shape::kBroad:
      // Any class, any wording of "could not / unable to": broad on purpose.
      return fmt::format("(?:unable|failed) to {} (?:the )?\\w+ {}", p.verb, p.object);
    case Shape::kCaseless:
      return fmt::format("(?i){} {} rejected by {}", p.adjective, p.object, Escape(p.component));
  }
  return {};
}

}  // namespace

std::string ScaleRecordId(std::size_t index, uint64_t seed) { return MakeParts(index, seed).id; }

std::string ScaleMessage(std::size_t index, uint64_t seed) {
  Parts p = MakeParts(index, seed);
  return MessageWith(p, p.number);
}

std::string ScaleRecordJson(std::size_t index, uint64_t seed) {
  Parts p = MakeParts(index, seed);
  Rng& r = p.rng;
  nlohmann::ordered_json j;
  j["id"] = p.id;
  j["signature"] = MessageWith(p, p.number);
  j["regex"] = Pattern(p);
  j["domain"] = p.domain;
  j["category"] = p.object;
  j["root_cause"] = fmt::format("The {} {} of {} cannot be {} while its {} {} is held by another {}.", p.adjective,
                                p.object, p.component, p.verb == "read" ? "read" : p.verb + "ed", Pick(r, kAdjectives),
                                Pick(r, kObjects), Pick(r, kObjects));
  j["error_code"] = p.code;
  j["workarounds"] = nlohmann::ordered_json::array(
      {{{"action", fmt::format("Raise {}'s {} limit", p.component, p.object)},
        {"success_rate", 0.5 + r.Unit() / 2},
        {"how", fmt::format("export {}_{}_LIMIT={}", p.component, p.object, 64 << r.Below(6))}}});
  j["dead_ends"] = nlohmann::ordered_json::array(
      {{{"action", fmt::format("Restart the {} {}", Pick(r, kAdjectives), p.object)},
        {"why_fails", fmt::format("The {} is taken again on start-up", p.object)},
        {"fail_rate", 0.6 + r.Unit() / 3}}});
  j["tags"] = {p.domain, p.object, p.verb};
  if (r.Below(3) == 0) j["aliases"] = {MessageWith(p, p.number + 1 + r.Below(100))};
  if (index > 0 && r.Below(5) == 0) {
    std::size_t target = index - 1 - r.Below(index < 1000 ? index : 1000);
    j["transition_graph"]["leads_to"] = {{{"error_id", ScaleRecordId(target, seed)}, {"probability", 0.3}}};
  }
  return j.dump();
}

}  // namespace kedb::bench
