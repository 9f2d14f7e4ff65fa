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

// A CI job's output: dependency installs, compiler and test progress,
// container build steps, npm chatter. Written apart from NoiseLine (other
// words, other shapes), so that the corpus scan is also measured on text
// its literal choices were not tuned on.
std::string CiLine(Rng& r) {
  static const char* kPkgs[] = {"numpy", "torch", "pandas", "protobuf", "grpcio", "urllib3", "pyyaml", "jinja2",
                                "typing-extensions", "filelock", "fsspec", "sympy", "networkx", "pillow"};
  static const char* kSrc[] = {"parser", "lexer", "planner", "executor", "storage", "buffer_pool", "wal", "catalog"};
  const char* pkg = kPkgs[r.Below(14)];
  const char* src = kSrc[r.Below(8)];
  std::string ver = fmt::format("{}.{}.{}", r.Below(4), r.Below(30), r.Below(12));
  switch (r.Below(12)) {
    case 0:
      return fmt::format("Collecting {}=={}", pkg, ver);
    case 1:
      return fmt::format("  Downloading {}-{}-cp311-cp311-manylinux_2_17_x86_64.whl ({:.1f} MB)", pkg, ver, r.Unit() * 90);
    case 2:
      return fmt::format("Requirement already satisfied: {}>={} in /opt/venv/lib/python3.11/site-packages (from -r "
                         "requirements.txt (line {})) ({})", pkg, ver, 1 + r.Below(40), ver);
    case 3:
      return fmt::format("[{:3}%] Building CXX object src/CMakeFiles/core.dir/{}/{}_{}.cc.o", r.Below(101), src, src,
                         r.Below(40));
    case 4:
      return fmt::format("/usr/bin/c++ -DNDEBUG -I/src/include -O2 -g -std=gnu++20 -o CMakeFiles/core.dir/{}.cc.o -c "
                         "/src/{}.cc", src, src);
    case 5:
      return fmt::format("tests/test_{}.py::test_{}_{}[case{}] PASSED{:>20}[{:3}%]", src, src, kPkgs[r.Below(14)],
                         r.Below(50), " ", r.Below(101));
    case 6:
      return fmt::format("#{} [builder {}/9] RUN pip install --no-cache-dir -r requirements.txt", 5 + r.Below(20),
                         1 + r.Below(9));
    case 7:
      return fmt::format("#{} {:.3f} Successfully installed {}-{} {}-{}", 5 + r.Below(20), r.Unit() * 60, pkg, ver,
                         kPkgs[r.Below(14)], ver);
    case 8:
      return fmt::format("added {} packages, and audited {} packages in {}s", r.Below(2000), r.Below(2000),
                         1 + r.Below(90));
    case 9:
      return fmt::format("{} DEBUG [{}] flushed {} pages in {} us", Stamp(r), src, r.Below(10000), r.Below(99999));
    case 10:
      return fmt::format("Run actions/cache@v4 with key: linux-{}-{:016x}", pkg, r.Next());
    default:
      return fmt::format("Linking CXX executable bin/{}_bench", src);
  }
}

// About `bytes` of lines from `noise`, every `error_every`-th one instead an
// error from `errors` as `error_line` presents it.
template <typename Noise, typename ErrorLine>
std::string Assemble(std::size_t bytes, const std::vector<std::string>& errors, std::size_t error_every, uint64_t seed,
                     Noise noise, ErrorLine error_line) {
  Rng r(seed);
  std::string out;
  out.reserve(bytes + 256);
  std::size_t line = 0;
  while (out.size() < bytes) {
    ++line;
    if (!errors.empty() && error_every && line % error_every == 0) {
      out += error_line(r, errors[r.Below(errors.size())]) + "\n";
    } else {
      out += noise(r) + "\n";
    }
  }
  return out;
}

}  // namespace

std::string MakeCiLog(std::size_t bytes, const std::vector<std::string>& errors, std::size_t error_every,
                      uint64_t seed) {
  return Assemble(bytes, errors, error_every, seed, CiLine, [](Rng&, const std::string& e) { return e; });
}

std::string MakeLog(std::size_t bytes, const std::vector<std::string>& errors, std::size_t error_every, uint64_t seed) {
  return Assemble(bytes, errors, error_every, seed, NoiseLine,
                  [](Rng& r, const std::string& e) { return Stamp(r) + " ERROR " + e; });
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
