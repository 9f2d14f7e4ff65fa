#include "wrap.h"

#include <fmt/format.h>

#include "util/xorshift.h"

namespace kedb::eval {
namespace {

// The wrappers' own stream, apart from the benchmark logs'.
class Rng : public util::XorShift {
 public:
  explicit Rng(uint64_t s) : XorShift(s, 0x632BE59BD9B4E019ULL) {}
};

const char* kModules[] = {"trainer", "data", "model", "optim", "ckpt", "metrics", "loader", "sched"};
const char* kFiles[] = {"train.py", "engine.py", "loop.py", "model.py", "data.py", "utils.py", "runner.py"};
const char* kFuncs[] = {"main", "run", "train_step", "forward", "fit", "_call_impl", "load", "build"};

std::string Stamp(Rng& r) {
  return fmt::format("2026-03-{:02}T{:02}:{:02}:{:02}.{:03}Z", 1 + r.Below(28), r.Below(24), r.Below(60), r.Below(60),
                     r.Below(1000));
}

std::string Noise(Rng& r) {
  switch (r.Below(7)) {
    case 6:
      return fmt::format("WARNING [{}] {} took {} ms, over the {} ms budget; consider a larger batch",
                         kModules[r.Below(8)], kFuncs[r.Below(8)], 100 + r.Below(5000), 100);
    case 0:
      return fmt::format("INFO [{}] epoch {} step {}/{} loss={:.4f} lr={:.1e}", kModules[r.Below(8)], r.Below(50),
                         r.Below(5000), 5000, static_cast<double>(r.Below(100000)) / 30000.0,
                         static_cast<double>(1 + r.Below(9)) * 1e-4);
    case 1:
      return fmt::format("{:3}%|{:<20}| {}/{} [{:02}:{:02}<{:02}:{:02}, {:.2f}it/s]", r.Below(101),
                         std::string(r.Below(21), '#'), r.Below(1000), 1000, r.Below(60), r.Below(60), r.Below(60),
                         r.Below(60), static_cast<double>(r.Below(2000)) / 100.0);
    case 2:
      return fmt::format("DEBUG {}: cache hit ratio {:.2f}, {} items", kModules[r.Below(8)],
                         static_cast<double>(r.Below(100)) / 100.0, r.Below(100000));
    case 3:
      return fmt::format("INFO [{}] saved checkpoint to /srv/run/ckpt/step-{}.pt ({} MB)", kModules[r.Below(8)],
                         r.Below(100000), r.Below(4000));
    case 4:
      return fmt::format("INFO [{}] throughput {} samples/s, gpu mem {:.1f} GB", kModules[r.Below(8)],
                         r.Below(5000), static_cast<double>(r.Below(800)) / 10.0);
    default:
      return fmt::format("INFO [{}] validation accuracy {:.3f} after {} batches", kModules[r.Below(8)],
                         static_cast<double>(r.Below(1000)) / 1000.0, r.Below(500));
  }
}

std::vector<std::string> Frames(Rng& r) {
  std::vector<std::string> out;
  std::size_t n = 2 + r.Below(3);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(fmt::format("  File \"/srv/app/{}\", line {}, in {}", kFiles[r.Below(7)], 10 + r.Below(900),
                              kFuncs[r.Below(8)]));
    out.push_back(fmt::format("    result = {}(batch)", kFuncs[r.Below(8)]));
  }
  return out;
}

}  // namespace

const std::vector<std::string>& WrapStyles() {
  static const std::vector<std::string> styles = {"python", "github", "docker", "pytest", "jenkins"};
  return styles;
}

std::string Wrap(const std::string& message, const std::string& style, uint64_t seed) {
  Rng r(seed);
  std::vector<std::string> lines;
  std::size_t before = 20 + r.Below(60), after = r.Below(5);
  for (std::size_t i = 0; i < before; ++i) lines.push_back(Noise(r));
  std::vector<std::string> error;
  if (style == "pytest") {
    error.push_back("_______________________________ test_train_step ________________________________");
    error.push_back("");
    error.push_back("    def test_train_step():");
    error.push_back(">       run(batch)");
    error.push_back("");
    error.push_back("tests/test_train.py:42: ");
    error.push_back("E       " + message);
    error.push_back("");
    error.push_back("=========================== short test summary info ============================");
  } else {
    error.push_back("Traceback (most recent call last):");
    for (auto& f : Frames(r)) error.push_back(std::move(f));
    error.push_back(message);
  }
  lines.insert(lines.end(), error.begin(), error.end());
  for (std::size_t i = 0; i < after; ++i) lines.push_back(Noise(r));

  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (style == "github") {
      out += "2026-03-14T10:" + fmt::format("{:02}:{:02}.{:07}Z ", i / 60 % 60, i % 60, r.Below(10000000)) + l;
    } else if (style == "docker") {
      out += fmt::format("#{} {:.3f} ", 7, static_cast<double>(i) * 0.137) + l;
    } else if (style == "jenkins") {
      bool is_error = l == message;
      out += "[" + Stamp(r) + "] " + (is_error ? "\x1b[31m" + l + "\x1b[0m" : l);
    } else {
      out += l;
    }
    out += "\n";
  }
  return out;
}

}  // namespace kedb::eval
