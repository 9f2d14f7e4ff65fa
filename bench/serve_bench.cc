// What a POST /v1/match costs the server beyond the match itself: the
// router (Origin/Host checks, target parsing, the JSON body, the JSON
// reply) against Engine::Match alone, in the same process, on the bundled
// knowledge base. The HTTP layer's own cost is measured over the wire by
// bench/load/serve_load.sh.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "kedb/engine.h"
#include "serve/engine_slot.h"
#include "serve/http_router.h"

namespace {

namespace fs = std::filesystem;

const std::string kMessage =
    "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0";

kedb::serve::EngineSlot* BundledSlot(benchmark::State& state) {
  static kedb::serve::EngineSlot* slot = [] {
    auto* s = new kedb::serve::EngineSlot(std::string(KEDB_SOURCE_DIR) + "/kb",
                                          (fs::temp_directory_path() / "kedb-bench-cache").string());
    if (!s->Reload().ok()) return static_cast<kedb::serve::EngineSlot*>(nullptr);
    return s;
  }();
  if (!slot) state.SkipWithError("the bundled knowledge base did not load");
  return slot;
}

void BM_ServeMatchEngineOnly(benchmark::State& state) {
  auto* slot = BundledSlot(state);
  if (!slot) return;
  auto engine = slot->Get();
  kedb::MatchOptions options;
  options.top = 3;
  for (auto _ : state) benchmark::DoNotOptimize(engine->Match(kMessage, options));
}
BENCHMARK(BM_ServeMatchEngineOnly)->Unit(benchmark::kMicrosecond);

void BM_ServeMatchRoute(benchmark::State& state) {
  auto* slot = BundledSlot(state);
  if (!slot) return;
  kedb::serve::HttpRouter router(*slot, true);
  kedb::serve::HttpRequest request;
  request.method = "POST";
  request.target = "/v1/match";
  request.host = "127.0.0.1:8080";
  request.content_type = "application/json";
  request.body = "{\"text\":\"" + kMessage + "\",\"top\":3}";
  for (auto _ : state) {
    kedb::serve::HttpReply reply = router.Route(request);
    if (reply.status != 200) state.SkipWithError("the route did not answer 200");
    benchmark::DoNotOptimize(reply);
  }
}
BENCHMARK(BM_ServeMatchRoute)->Unit(benchmark::kMicrosecond);

}  // namespace
