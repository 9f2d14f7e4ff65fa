// Matching benchmarks, with the baselines a user would pick instead run in
// the same process: a per-line PCRE2 loop over every pattern, and
// std::regex. Figures go in the README; ratios matter more than absolutes on
// a shared 2-core machine.
//
//   build/kedb-bench [--benchmark_filter=...]
// Corpus benchmarks need ../shared/corpora/deadends (KEDB_CORPUS overrides).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "kedb/engine.h"
#include "engine/engine_impl.h"
#include "match/pattern_set.h"
#include "regex/pcre2_regex.h"
#include "workload.h"

namespace {

namespace fs = std::filesystem;
using kedb::Engine;

std::string CorpusPath() {
  if (const char* p = std::getenv("KEDB_CORPUS")) return p;
  return std::string(KEDB_SOURCE_DIR) + "/../shared/corpora/deadends/canons";
}

std::string CacheDir() { return (fs::temp_directory_path() / "kedb-bench-cache").string(); }

std::shared_ptr<const Engine> OpenOrSkip(const std::string& path, benchmark::State& state) {
  static std::map<std::string, std::shared_ptr<const Engine>> cache;
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  if (!fs::exists(path)) {
    state.SkipWithError(("missing " + path).c_str());
    return nullptr;
  }
  auto e = Engine::Open(path, kedb::OpenOptions{.cache_dir = CacheDir()});
  if (!e.ok()) {
    state.SkipWithError(e.status().message().c_str());
    return nullptr;
  }
  return cache[path] = e.value();
}

std::shared_ptr<const Engine> Generated(std::size_t n) {
  static std::map<std::size_t, std::shared_ptr<const Engine>> cache;
  if (auto it = cache.find(n); it != cache.end()) return it->second;
  auto set = kedb::bench::MakePatterns(n);
  std::vector<kedb::Record> records;
  for (std::size_t i = 0; i < n; ++i) {
    kedb::Record r;
    r.id = "gen/" + std::to_string(i);
    r.signature = set.messages[i];
    r.regex = set.patterns[i];
    r.domain = "gen";
    records.push_back(std::move(r));
  }
  auto e = Engine::FromKnowledgeBase(kedb::KnowledgeBase::FromRecords(std::move(records)), CacheDir());
  return cache[n] = e.value();
}

std::vector<std::string> CorpusErrors(const Engine& e) {
  std::vector<std::string> out;
  for (const auto& r : e.kb().records()) out.push_back(r.signature);
  return out;
}

void BM_MatchBundled(benchmark::State& state) {
  auto e = OpenOrSkip(std::string(KEDB_SOURCE_DIR) + "/kb", state);
  if (!e) return;
  const std::string msg = "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0";
  for (auto _ : state) benchmark::DoNotOptimize(e->Match(msg, kedb::MatchOptions{}));
}
BENCHMARK(BM_MatchBundled)->Unit(benchmark::kMicrosecond);

void BM_MatchCorpus(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  const std::string msg = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
  for (auto _ : state) benchmark::DoNotOptimize(e->Match(msg, kedb::MatchOptions{}));
}
BENCHMARK(BM_MatchCorpus)->Unit(benchmark::kMicrosecond);

// Reads a string in place, so the benchmark does not time a copy of it.
class StringViewBuf : public std::streambuf {
 public:
  explicit StringViewBuf(const std::string& s) {
    char* p = const_cast<char*>(s.data());
    setg(p, p, p + s.size());
  }
};

void ScanBench(benchmark::State& state, const Engine& e, const std::string& log, bool all_lines = false,
               std::size_t threads = 1) {
  kedb::ScanOptions options;
  options.all_lines = all_lines;
  options.threads = threads;
  for (auto _ : state) {
    StringViewBuf buf(log);
    std::istream in(&buf);
    kedb::ScanResult result;
    auto st = e.Scan(in, options, &result);
    benchmark::DoNotOptimize(result.blocks.data());
    if (!st.ok()) state.SkipWithError("scan failed");
    state.counters["blocks"] = static_cast<double>(result.summary.blocks);
    state.counters["known"] = static_cast<double>(result.summary.known);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(log.size()));
}

void BM_ScanCorpus(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  static const std::string log = kedb::bench::MakeLog(20u << 20, CorpusErrors(*e), 5000);
  ScanBench(state, *e, log);
}
BENCHMARK(BM_ScanCorpus)->Unit(benchmark::kMillisecond)->MinTime(2);

// The same log with chunks matched on several threads (`kedb scan` uses one
// per core): wall-clock time, since the work is spread over threads.
void BM_ScanCorpusThreads(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  static const std::string log = kedb::bench::MakeLog(20u << 20, CorpusErrors(*e), 5000);
  ScanBench(state, *e, log, false, static_cast<std::size_t>(state.range(0)));
}
BENCHMARK(BM_ScanCorpusThreads)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(2)->UseRealTime();

// A CI job's output instead of a training job's: a second opinion.
void BM_ScanCorpusCiLog(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  static const std::string log = kedb::bench::MakeCiLog(20u << 20, CorpusErrors(*e), 5000);
  ScanBench(state, *e, log, state.range(0) != 0);
}
BENCHMARK(BM_ScanCorpusCiLog)->ArgName("all_lines")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2);

// A log of thousands of distinct errors no record knows (a service's own
// ERROR lines, each naming a different shard and step): every block is
// read as a message, and the unexplained ones with their surroundings.
void BM_ScanCorpusUnknownErrors(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  static const std::string log = [] {
    static constexpr std::array<std::string_view, 8> kWords = {"alpha", "gamma", "quark", "shard",
                                                              "widget", "gizmo", "flux", "sigma"};
    std::string out;
    for (std::size_t i = 0; i < 100000; ++i) {
      if (i % 5 != 0) {
        out += fmt::format("INFO processing item {} of the {} batch\n", i, kWords[i % 8]);
        continue;
      }
      // Names, not numbers, tell the errors apart: numbers are masked.
      std::string name;
      for (std::size_t k = i / 5; k > 0; k /= 8) name += kWords[k % 8].substr(0, 2);
      out += fmt::format("ERROR {}: the {} step for {} failed\n", name, kWords[(i / 5) % 8], name);
    }
    return out;
  }();
  ScanBench(state, *e, log);
}
BENCHMARK(BM_ScanCorpusUnknownErrors)->Unit(benchmark::kMillisecond)->MinTime(2);

// The same with broad patterns tried on every line (`kedb scan --all-lines`).
void BM_ScanCorpusAllLines(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  static const std::string log = kedb::bench::MakeLog(20u << 20, CorpusErrors(*e), 5000);
  ScanBench(state, *e, log, /*all_lines=*/true);
}
BENCHMARK(BM_ScanCorpusAllLines)->Unit(benchmark::kMillisecond)->MinTime(2);

// The matcher alone: prefilter and confirmation, no ranking or results.
void BM_PrefilterCorpus(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  static const std::string log = kedb::bench::MakeLog(20u << 20, CorpusErrors(*e), 5000);
  static const std::vector<std::size_t> starts = [] {
    std::vector<std::size_t> s{0};
    for (std::size_t i = 0; i + 1 < log.size(); ++i) {
      if (log[i] == '\n') s.push_back(i + 1);
    }
    return s;
  }();
  std::vector<kedb::match::LineHit> hits;
  for (auto _ : state) {
    hits.clear();
    e->impl().patterns().Scan(log, starts, &hits);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["literal_patterns"] = static_cast<double>(e->impl().patterns().stats().prefiltered);
  state.counters["regex_db_patterns"] = static_cast<double>(e->impl().patterns().stats().fallback);
  state.counters["hit_lines_pct"] = [&] {
    std::size_t lines = 0, last = SIZE_MAX;
    for (const auto& h : hits) lines += h.line != last, last = h.line;
    return 100.0 * static_cast<double>(lines) / static_cast<double>(starts.size());
  }();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(log.size()));
}
BENCHMARK(BM_PrefilterCorpus)->Unit(benchmark::kMillisecond)->MinTime(2);

void BM_ScanGenerated(benchmark::State& state) {
  auto n = static_cast<std::size_t>(state.range(0));
  auto e = Generated(n);
  auto set = kedb::bench::MakePatterns(n);
  const std::string log = kedb::bench::MakeLog(20u << 20, set.messages, 5000);
  ScanBench(state, *e, log);
}
BENCHMARK(BM_ScanGenerated)->Arg(2000)->Arg(20000)->Arg(50000)->Unit(benchmark::kMillisecond)->MinTime(2);

void BM_ScanGeneratedThreads(benchmark::State& state) {
  auto e = Generated(2000);
  auto set = kedb::bench::MakePatterns(2000);
  static const std::string log = kedb::bench::MakeLog(20u << 20, set.messages, 5000);
  ScanBench(state, *e, log, false, static_cast<std::size_t>(state.range(0)));
}
BENCHMARK(BM_ScanGeneratedThreads)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(2)->UseRealTime();

// Baseline: every pattern through PCRE2 (JIT) on every line.
void BM_BaselinePcre2Loop(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  std::vector<kedb::regex::Pcre2Regex> res;
  for (const auto& r : e->kb().records()) {
    auto c = kedb::regex::CompilePython(r.regex);
    if (c.ok()) res.push_back(std::move(c).value());
  }
  const std::string log = kedb::bench::MakeLog(200u << 10, CorpusErrors(*e), 5000);
  for (auto _ : state) {
    std::size_t hits = 0, b = 0;
    while (b < log.size()) {
      std::size_t nl = log.find('\n', b);
      std::string_view line(log.data() + b, nl - b);
      for (const auto& re : res) hits += re.Search(line);
      b = nl + 1;
    }
    benchmark::DoNotOptimize(hits);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(log.size()));
}
BENCHMARK(BM_BaselinePcre2Loop)->Unit(benchmark::kMillisecond)->Iterations(1);

// Baseline: std::regex (ECMAScript, icase) per line, on a slice; patterns
// std::regex rejects are left out.
void BM_BaselineStdRegex(benchmark::State& state) {
  auto e = OpenOrSkip(CorpusPath(), state);
  if (!e) return;
  std::vector<std::regex> res;
  for (const auto& r : e->kb().records()) {
    try {
      res.emplace_back(r.regex, std::regex::icase | std::regex::optimize);
    } catch (const std::regex_error&) {
    }
  }
  const std::string log = kedb::bench::MakeLog(8u << 10, CorpusErrors(*e), 5000);
  for (auto _ : state) {
    std::size_t hits = 0, b = 0;
    while (b < log.size()) {
      std::size_t nl = log.find('\n', b);
      std::string line = log.substr(b, nl - b);
      for (const auto& re : res) hits += std::regex_search(line, re);
      b = nl + 1;
    }
    benchmark::DoNotOptimize(hits);
  }
  state.counters["patterns"] = static_cast<double>(res.size());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(log.size()));
}
BENCHMARK(BM_BaselineStdRegex)->Unit(benchmark::kMillisecond)->Iterations(1);

// Compiling the corpus's prefilter from scratch (no cache).
void BM_CompileCorpus(benchmark::State& state) {
  if (!fs::exists(CorpusPath())) {
    state.SkipWithError("corpus missing");
    return;
  }
  auto kb = kedb::KnowledgeBase::Load(CorpusPath(), kedb::LoadOptions{});
  for (auto _ : state) {
    auto e = Engine::FromKnowledgeBase(*kb, "");
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_CompileCorpus)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
