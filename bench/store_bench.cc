// The outcome store's write path: how many acknowledged reports a second
// one writer gets, and the tail of an acknowledged write's latency. Each
// Add returns only once the report is on disk (synchronous=FULL), so this
// is mostly the disk's flush time; the baseline beside it is the same
// store in memory, which says how much of the cost is the disk.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "store/store.h"

namespace kedb {
namespace {

std::filesystem::path FreshStorePath(const char* name) {
  auto dir = std::filesystem::temp_directory_path() / "kedb-store-bench";
  std::filesystem::create_directories(dir);
  auto path = dir / name;
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  return path;
}

void RunAdds(benchmark::State& state, store::OutcomeStore& s) {
  store::OutcomeReport r;
  r.record_id = "cuda/cudnn-bn-epsilon-nan";
  r.action = "Set epsilon to a positive value";
  r.env = {{"os", "linux"}, {"torch", "2.2"}};
  r.reported_at = 1'700'000'000;
  std::vector<double> micros;
  int64_t n = 0;
  for (auto _ : state) {
    r.event_id = "bench-" + std::to_string(n++);
    const auto t0 = std::chrono::steady_clock::now();
    auto added = s.Add(r);
    micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (!added.ok()) state.SkipWithError(added.status().message().c_str());
  }
  std::sort(micros.begin(), micros.end());
  if (!micros.empty()) {
    state.counters["p50_us"] = micros[micros.size() / 2];
    state.counters["p99_us"] = micros[std::min(micros.size() - 1, micros.size() * 99 / 100)];
  }
  state.counters["reports_per_s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}

void BM_StoreReportDurable(benchmark::State& state) {
  auto s = store::OpenStore(FreshStorePath("durable.sqlite").string());
  if (!s.ok()) return state.SkipWithError(s.status().message().c_str());
  RunAdds(state, **s);
}
BENCHMARK(BM_StoreReportDurable)->Unit(benchmark::kMicrosecond)->Iterations(2000)->UseRealTime();

// Baseline: the same store in a RAM-backed folder (/dev/shm), where a
// flush costs nothing: what the write costs without the disk.
void BM_StoreReportInMemoryFolder(benchmark::State& state) {
  const std::filesystem::path shm = "/dev/shm";
  if (!std::filesystem::is_directory(shm)) return state.SkipWithError("no /dev/shm");
  auto path = shm / "kedb-store-bench.sqlite";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  auto s = store::OpenStore(path.string());
  if (!s.ok()) return state.SkipWithError(s.status().message().c_str());
  RunAdds(state, **s);
}
BENCHMARK(BM_StoreReportInMemoryFolder)->Unit(benchmark::kMicrosecond)->Iterations(2000)->UseRealTime();

}  // namespace
}  // namespace kedb
