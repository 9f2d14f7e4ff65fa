// Outcome reports through the server, without sockets: who may write, what
// a report answers, and reads that carry what was observed.
#include <chrono>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "serve/api.h"
#include "serve/http_router.h"
#include "serve/outcome_request.h"
#include "serve/write_limiter.h"
#include "serve_util.h"
#include "test_util.h"

namespace kedb {
namespace {

using nlohmann::json;

constexpr const char* kToken = "a-token-of-thirty-two-characters";
constexpr const char* kReport = R"({"error_id":"cuda/cudnn-bn-epsilon-nan","index":2,"outcome":"worked",
                                    "env":{"os":"Linux"},"event_id":"job-77"})";

// A slot on the bundled kb with a fresh store; `token` "" turns writes off.
struct Server {
  explicit Server(const std::string& token) : slot((testing::SourceDir() / "kb").string(), KEDB_TEST_CACHE) {
    EXPECT_TRUE(slot.Reload().ok());
    auto s = store::OpenStore((tmp.path() / "o.sqlite").string());
    EXPECT_TRUE(s.ok());
    store = std::move(s).value();
    slot.AttachStore(store.get(), token);
  }
  serve::HttpReply Post(const std::string& path, const std::string& body, const std::string& authorization,
                        const std::string& peer = "127.0.0.1") {
    return testing::RouteLocal(slot, "POST", path, body, authorization, peer);
  }
  serve::HttpReply Get(const std::string& path) { return testing::RouteLocal(slot, "GET", path); }
  testing::TempDir tmp;
  serve::EngineSlot slot;
  std::unique_ptr<store::OutcomeStore> store;
};

std::string Header(const serve::HttpReply& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

TEST(TokenMatches, OnlyTheWholeTokenAfterBearer) {
  EXPECT_TRUE(serve::TokenMatches("Bearer secret-secret-secret", "secret-secret-secret"));
  EXPECT_TRUE(serve::TokenMatches("bearer secret-secret-secret", "secret-secret-secret"));
  EXPECT_FALSE(serve::TokenMatches("Bearer secret-secret-secre", "secret-secret-secret"));
  EXPECT_FALSE(serve::TokenMatches("Bearer secret-secret-secrets", "secret-secret-secret"));
  EXPECT_FALSE(serve::TokenMatches("Basic secret-secret-secret", "secret-secret-secret"));
  EXPECT_FALSE(serve::TokenMatches("Bearer\0secret-secret-secret", "secret-secret-secret"));
  EXPECT_FALSE(serve::TokenMatches("", "secret-secret-secret"));
  EXPECT_FALSE(serve::TokenMatches("Bearer ", ""));  // no token configured: nobody writes
}

TEST(ServeOutcomes, AReportNeedsTheTokenAndCountsOnce) {
  Server server(kToken);
  auto none = server.Post("/v1/outcomes", kReport, "");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(Header(none, "WWW-Authenticate"), "Bearer");
  EXPECT_EQ(server.Post("/v1/outcomes", kReport, "Bearer not-the-token-at-all-0000").status, 401);
  EXPECT_EQ(*server.store->Size(), 0);

  auto ok = server.Post("/v1/outcomes", kReport, std::string("Bearer ") + kToken);
  ASSERT_EQ(ok.status, 200) << ok.body;
  json j = json::parse(ok.body);
  EXPECT_EQ(j["event_id"], "job-77");
  EXPECT_EQ(j["env"]["os"], "linux");  // keys and values are lower-cased, so counts gather
  EXPECT_EQ(j["observed"]["worked"], 1);
  EXPECT_FALSE(j["duplicate"].get<bool>());
  auto again = server.Post("/v1/outcomes", kReport, std::string("Bearer ") + kToken);
  EXPECT_TRUE(json::parse(again.body)["duplicate"].get<bool>());
  EXPECT_EQ(*server.store->Size(), 1);

  // Reads need nothing, and carry what was observed.
  auto record = server.Get("/v1/errors/cuda/cudnn-bn-epsilon-nan");
  ASSERT_EQ(record.status, 200);
  EXPECT_EQ(json::parse(record.body)["observed"]["workarounds"][1]["worked"], 1);
}

TEST(ServeOutcomes, BadReportsNameTheField) {
  Server server(kToken);
  const std::string auth = std::string("Bearer ") + kToken;
  auto r = server.Post("/v1/outcomes", R"({"error_id":"cuda/cudnn-bn-epsilon-nan","index":"1","outcome":"worked"})", auth);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("index: expected an integer from 1"), std::string::npos) << r.body;
  r = server.Post("/v1/outcomes", R"({"error_id":"cuda/cudnn-bn-epsilon-nan","index":1,"outcome":"fine"})", auth);
  EXPECT_NE(r.body.find("outcome: \\\"fine\\\" is not worked, failed or partial"), std::string::npos) << r.body;
  r = server.Post("/v1/outcomes", R"({"error_id":"cuda/cudnn-bn-epsilon-nan","index":1,"outcome":"worked","colour":1})", auth);
  EXPECT_NE(r.body.find("colour: not a field of an outcome report"), std::string::npos) << r.body;
  r = server.Post("/v1/outcomes", R"({"error_id":"cuda/cudnn-bn-epsilon-nan", "index":1,)", auth);
  EXPECT_NE(r.body.find("request body: line 1, column"), std::string::npos) << r.body;
  EXPECT_EQ(*server.store->Size(), 0);
}

TEST(ServeOutcomes, WithoutATokenTheServerTakesNoReports) {
  Server server("");
  auto r = server.Post("/v1/outcomes", kReport, "Bearer ");
  EXPECT_EQ(r.status, 403);
  EXPECT_NE(r.body.find("writes_disabled"), std::string::npos);
}

TEST(ServeOutcomes, McpOverHttpAsksForTheTokenBeforeAToolWrites) {
  Server server(kToken);
  const std::string call =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report_outcome","arguments":)"
      R"({"error_id":"cuda/cudnn-bn-epsilon-nan","index":1,"outcome":"failed"}}})";
  auto refused = server.Post("/mcp", call, "");
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(*server.store->Size(), 0);
  auto ok = server.Post("/mcp", call, std::string("Bearer ") + kToken);
  ASSERT_EQ(ok.status, 200) << ok.body;
  json j = json::parse(ok.body);
  EXPECT_FALSE(j["result"]["isError"].get<bool>()) << ok.body;
  EXPECT_EQ(j["result"]["structuredContent"]["observed"]["failed"], 1);
  // Reading tools need nothing.
  auto read = server.Post(
      "/mcp", R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_error_detail","arguments":{"error_id":"cuda/cudnn-bn-epsilon-nan"}}})",
      "");
  EXPECT_EQ(json::parse(read.body)["result"]["structuredContent"]["observed"]["reports"], 1);
}

TEST(WriteLimiter, ABurstThenTheRateAndEachClientOnItsOwn) {
  serve::WriteLimiter limiter(60, 3);  // one a second, three at once
  const auto t0 = serve::WriteLimiter::Clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Admit("10.0.0.1", t0), 0) << i;
  EXPECT_EQ(limiter.Admit("10.0.0.1", t0), 1);  // one second until the next
  EXPECT_EQ(limiter.Admit("10.0.0.2", t0), 0);  // another client is not held back
  EXPECT_EQ(limiter.Admit("10.0.0.1", t0 + std::chrono::milliseconds(1100)), 0);
  EXPECT_EQ(limiter.Admit("10.0.0.1", t0 + std::chrono::milliseconds(1200)), 1);
  // Idle for long, the bucket is full again, never fuller.
  const auto later = t0 + std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Admit("10.0.0.1", later), 0);
  EXPECT_GT(limiter.Admit("10.0.0.1", later), 0);
}

TEST(WriteLimiter, ItsTableOfClientsStaysBounded) {
  serve::WriteLimiter limiter(60, 2);
  const auto t0 = serve::WriteLimiter::Clock::now();
  for (std::size_t i = 0; i < serve::WriteLimiter::kMaxClients + 500; ++i) {
    EXPECT_EQ(limiter.Admit("client-" + std::to_string(i), t0), 0);
  }
  EXPECT_LE(limiter.clients(), serve::WriteLimiter::kMaxClients);
  // Still answers, for old and new clients alike.
  EXPECT_EQ(limiter.Admit("client-0", t0 + std::chrono::seconds(5)), 0);
}

TEST(ServeOutcomes, AClientOverItsWriteRateGets429AndReadsGoOn) {
  Server server(kToken);
  server.slot.LimitWrites(std::make_unique<serve::WriteLimiter>(60, 5));
  const std::string auth = std::string("Bearer ") + kToken;
  int accepted = 0;
  serve::HttpReply last;
  for (int i = 0; i < 8; ++i) {
    std::string report = kReport;
    report.replace(report.find("job-77"), 6, "job-" + std::to_string(i));
    last = server.Post("/v1/outcomes", report, auth, "192.0.2.7");
    if (last.status == 200) ++accepted;
  }
  EXPECT_EQ(accepted, 5);
  EXPECT_EQ(last.status, 429);
  EXPECT_EQ(Header(last, "Retry-After"), "1");
  EXPECT_NE(last.body.find("more than 60 writes a minute from 192.0.2.7"), std::string::npos) << last.body;
  EXPECT_EQ(*server.store->Size(), 5);
  // Guessing the token counts too; another client still writes; reads are free.
  EXPECT_EQ(server.Post("/v1/outcomes", kReport, "Bearer guess-guess-guess-guess", "192.0.2.7").status, 429);
  EXPECT_EQ(server.Post("/v1/outcomes", kReport, auth, "198.51.100.1").status, 200);
  EXPECT_EQ(server.Get("/v1/errors/cuda/cudnn-bn-epsilon-nan").status, 200);
  // MCP tools that write share the same limit.
  const std::string call =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report_outcome","arguments":)"
      R"({"error_id":"cuda/cudnn-bn-epsilon-nan","index":1,"outcome":"failed"}}})";
  EXPECT_EQ(server.Post("/mcp", call, auth, "192.0.2.7").status, 429);
}

TEST(ServeOutcomes, MatchesAreCountedWhenAskedAndShownUnderStats) {
  Server server(kToken);
  server.slot.AttachStore(server.store.get(), kToken, /*record_hits=*/true);
  auto m = server.Post("/v1/match", R"({"text":"RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0"})", "");
  ASSERT_EQ(m.status, 200) << m.body;
  auto hits = server.Get("/v1/stats/hits");
  ASSERT_EQ(hits.status, 200) << hits.body;
  json j = json::parse(hits.body);
  ASSERT_EQ(j["records"].size(), 1u);
  EXPECT_EQ(j["records"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(j["records"][0]["total"], 1);
}

}  // namespace
}  // namespace kedb
