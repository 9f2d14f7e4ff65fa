// The outcome store's write path: how many acknowledged reports a second
// one writer gets, and the tail of an acknowledged write's latency, on
// each backend. Each Add returns only once the report is durable
// (synchronous=FULL in SQLite, synchronous_commit=on in PostgreSQL), so
// this is mostly the disk's flush time; the baseline beside it is the
// SQLite store in memory, which says how much of the cost is the disk.
// The PostgreSQL runs use the server $KEDB_BENCH_POSTGRES names (make
// bench starts a local one) and skip without it.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <pqxx/pqxx>

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
    r.event_id = fmt::format("bench-{}-{}", state.thread_index(), n++);
    const auto t0 = std::chrono::steady_clock::now();
    auto added = s.Add(r);
    micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (!added.ok()) state.SkipWithError(added.status().message().c_str());
  }
  std::sort(micros.begin(), micros.end());
  if (!micros.empty()) {
    // Averaged over the threads of a threaded run (the default sums them).
    state.counters["p50_us"] = benchmark::Counter(micros[micros.size() / 2], benchmark::Counter::kAvgThreads);
    state.counters["p99_us"] =
        benchmark::Counter(micros[std::min(micros.size() - 1, micros.size() * 99 / 100)], benchmark::Counter::kAvgThreads);
  }
  state.counters["reports_per_s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}

// Each run starts from an empty store (Setup runs once before a run's
// threads start).
void RemoveDurableStore(const benchmark::State&) { FreshStorePath("durable.sqlite"); }

void BM_StoreReportDurable(benchmark::State& state) {
  auto s = store::OpenStore(
      (std::filesystem::temp_directory_path() / "kedb-store-bench" / "durable.sqlite").string());
  if (!s.ok()) return state.SkipWithError(s.status().message().c_str());
  RunAdds(state, **s);
}
BENCHMARK(BM_StoreReportDurable)->Setup(RemoveDurableStore)->Unit(benchmark::kMicrosecond)->Iterations(2000)->UseRealTime();

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

// The benchmark's schema on its PostgreSQL server; "" without one.
std::string PostgresSpec() {
  const char* url = std::getenv("KEDB_BENCH_POSTGRES");
  if (url == nullptr || *url == '\0') return "";
  return std::string(url) + (std::string_view(url).find('?') == std::string_view::npos ? "?" : "&") +
         "options=-csearch_path%3Dkedb_bench";
}

void EmptyPostgresSchema(const benchmark::State&) {
  if (PostgresSpec().empty()) return;
  try {
    pqxx::connection c(std::getenv("KEDB_BENCH_POSTGRES"));
    pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS kedb_bench CASCADE; CREATE SCHEMA kedb_bench");
  } catch (const std::exception&) {  // the run says the server cannot be used
  }
}

void BM_StoreReportPostgres(benchmark::State& state) {
  const std::string spec = PostgresSpec();
  if (spec.empty()) return state.SkipWithError("no PostgreSQL server: set KEDB_BENCH_POSTGRES (make bench does)");
  auto s = store::OpenStore(spec);
  if (!s.ok()) return state.SkipWithError(s.status().message().c_str());
  RunAdds(state, **s);
}
// One writer, then four at once (each its own connection, as four servers
// would be): the server commits their flushes together.
BENCHMARK(BM_StoreReportPostgres)->Setup(EmptyPostgresSchema)->Unit(benchmark::kMicrosecond)->Iterations(2000)->UseRealTime();
BENCHMARK(BM_StoreReportPostgres)->Setup(EmptyPostgresSchema)->Unit(benchmark::kMicrosecond)->Iterations(1000)->Threads(4)->UseRealTime();
// The same four writers on one SQLite file: they take turns at the lock.
BENCHMARK(BM_StoreReportDurable)->Setup(RemoveDurableStore)->Unit(benchmark::kMicrosecond)->Iterations(1000)->Threads(4)->UseRealTime();

}  // namespace
}  // namespace kedb
