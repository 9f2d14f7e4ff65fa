#include "workload.h"

#include <fmt/format.h>

#include "util/xorshift.h"

namespace kedb::bench {
namespace {

using Rng = util::XorShift;

const char* kWords[] = {"model", "data", "request", "user", "file", "value", "node", "worker", "batch", "epoch",
                        "cache", "server", "client", "config", "token", "shard", "queue", "thread", "session",
                        "buffer", "index", "layer", "tensor", "device", "stream", "job", "task", "pod", "service"};
constexpr std::size_t kNumWords = sizeof(kWords) / sizeof(kWords[0]);

std::string Stamp(Rng& r) {
  return fmt::format("2026-03-{:02}T{:02}:{:02}:{:02}.{:03}Z", 1 + r.Below(28), r.Below(24), r.Below(60), r.Below(60),
                     r.Below(1000));
}

std::string Words(Rng& r, std::size_t lo, std::size_t hi) {
  std::string out;
  std::size_t n = lo + r.Below(hi - lo + 1);
  for (std::size_t i = 0; i < n; ++i) out += (i ? " " : "") + std::string(kWords[r.Below(kNumWords)]);
  return out;
}

std::string NoiseLine(Rng& r) {
  std::size_t k = r.Below(100);
  if (k < 25) {
    return fmt::format("{} INFO  [trainer] epoch {} step {}/100000 loss={:.4f} lr={:.2e} grad_norm={:.3f}", Stamp(r),
                       r.Below(100), r.Below(100000), r.Unit(), r.Unit() / 1000, r.Unit() * 5);
  }
  if (k < 35) {
    return fmt::format("{}%|{}| {}/10000 [{:02}:{:02}<{:02}:{:02}, {:.2f}it/s]", r.Below(101),
                       std::string(r.Below(40), '#'), r.Below(10000), r.Below(60), r.Below(60), r.Below(60),
                       r.Below(60), r.Unit() * 20);
  }
  if (k < 50) {
    static const int kCodes[] = {200, 200, 200, 201, 204, 301, 304, 404};
    return fmt::format("10.{}.{}.{} - - [{}] \"GET /api/v1/{}/{} HTTP/1.1\" {} {} \"-\" \"python-requests/2.31.0\"",
                       r.Below(256), r.Below(256), r.Below(256), Stamp(r), kWords[r.Below(kNumWords)],
                       r.Below(99999), kCodes[r.Below(8)], 100 + r.Below(99900));
  }
  if (k < 60) return fmt::format("{} DEBUG {}.{}: {}", Stamp(r), kWords[r.Below(kNumWords)], kWords[r.Below(kNumWords)], Words(r, 3, 12));
  if (k < 68) {
    return fmt::format("  File \"/usr/lib/python3.11/site-packages/{}/{}.py\", line {}, in {}_{}", kWords[r.Below(kNumWords)],
                       kWords[r.Below(kNumWords)], 1 + r.Below(2000), kWords[r.Below(kNumWords)], kWords[r.Below(kNumWords)]);
  }
  if (k < 75) return fmt::format("{} WARNING {} took {}ms (threshold 1000ms)", Stamp(r), Words(r, 2, 2), 1 + r.Below(5000));
  if (k < 82) return fmt::format("[{:>5}] {}-{}: {} id={:016x}", r.Below(10000), kWords[r.Below(kNumWords)], r.Below(10), Words(r, 2, 8), r.Next());
  if (k < 90) return fmt::format("Step #{} - \"{}\": {}", r.Below(20), r.Below(2) ? "build" : "test", Words(r, 3, 10));
  return fmt::format("{} INFO {} completed in {:.3f}s", Stamp(r), Words(r, 2, 2), r.Unit() * 10);
}

}  // namespace

std::string MakeLog(std::size_t bytes, const std::vector<std::string>& errors, std::size_t error_every, uint64_t seed) {
  Rng r(seed);
  std::string out;
  out.reserve(bytes + 256);
  std::size_t line = 0;
  while (out.size() < bytes) {
    ++line;
    if (!errors.empty() && error_every && line % error_every == 0) {
      out += Stamp(r) + " ERROR " + errors[r.Below(errors.size())] + "\n";
    } else {
      out += NoiseLine(r) + "\n";
    }
  }
  return out;
}

GeneratedSet MakePatterns(std::size_t n, uint64_t seed) {
  static const char* kSubjects[] = {"shard writer", "lease keeper", "index builder", "gradient reducer",
                                    "checkpoint saver", "token bucket", "replica set", "page allocator"};
  static const char* kVerbs[] = {"stalled", "aborted", "diverged", "timed out", "was fenced", "lost quorum"};
  Rng r(seed);
  GeneratedSet set;
  for (std::size_t i = 0; i < n; ++i) {
    std::string code = fmt::format("E{}{:05}", static_cast<char>('A' + r.Below(26)), i);
    const char* subject = kSubjects[r.Below(8)];
    const char* verb = kVerbs[r.Below(6)];
    switch (r.Below(3)) {
      case 0:
        set.patterns.push_back(fmt::format(R"({}: {} {} after \d+ retries)", code, subject, verb));
        set.messages.push_back(fmt::format("{}: {} {} after {} retries", code, subject, verb, r.Below(50)));
        break;
      case 1:
        set.patterns.push_back(fmt::format(R"(\[{}\] (?:{}|{}) {}.*)", code, subject, "backup " + std::string(subject), verb));
        set.messages.push_back(fmt::format("[{}] {} {} on node {}", code, subject, verb, r.Below(64)));
        break;
      default:
        set.patterns.push_back(fmt::format(R"({} {} \(code={}\))", subject, verb, code));
        set.messages.push_back(fmt::format("{} {} (code={})", subject, verb, code));
        break;
    }
  }
  return set;
}

}  // namespace kedb::bench
