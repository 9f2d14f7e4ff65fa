// Outcome reports through the server, without sockets: who may write, what
// a report answers, and reads that carry what was observed.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "serve/api.h"
#include "serve/http_router.h"
#include "serve/outcome_request.h"
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
  serve::HttpReply Post(const std::string& path, const std::string& body, const std::string& authorization) {
    serve::HttpRouter router(slot, /*loopback_only=*/true);
    serve::HttpRequest r;
    r.method = "POST";
    r.target = path;
    r.host = "localhost";
    r.content_type = "application/json";
    r.authorization = authorization;
    r.body = body;
    return router.Route(r);
  }
  serve::HttpReply Get(const std::string& path) {
    serve::HttpRouter router(slot, /*loopback_only=*/true);
    serve::HttpRequest r;
    r.method = "GET";
    r.target = path;
    r.host = "localhost";
    return router.Route(r);
  }
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
