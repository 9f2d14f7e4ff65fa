// The server layer without sockets: the HTTP API's routes and errors, the
// MCP dispatcher, argument schemas, reloads, and the OpenAPI document held
// to the routes. (tests/js/ drives the real binary over the wire.)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "serve/api.h"
#include "serve/assets.h"
#include "serve/http_router.h"
#include "serve/json_schema.h"
#include "serve/mcp.h"
#include "serve/mcp_stdio.h"
#include "serve/mcp_tools.h"
#include "test_util.h"

namespace kedb {
namespace {

using nlohmann::json;
using serve::ApiReply;
using serve::ApiRequest;

constexpr const char* kSeed0 =
    "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0";

// One engine on the bundled kb/, shared by the tests (loading it is the slow part).
serve::EngineSlot& BundledSlot() {
  static serve::EngineSlot* slot = [] {
    auto* s = new serve::EngineSlot((testing::SourceDir() / "kb").string(), KEDB_TEST_CACHE);
    Status st = s->Reload();
    EXPECT_TRUE(st.ok()) << st.message();
    return s;
  }();
  return *slot;
}

ApiReply Call(std::string method, std::string path, std::string body = "",
              std::vector<std::pair<std::string, std::string>> query = {}, std::string type = "application/json") {
  ApiRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.query = std::move(query);
  r.body = std::move(body);
  r.content_type = std::move(type);
  return serve::HandleApi(BundledSlot(), r);
}

json Body(const ApiReply& r) { return json::parse(r.body); }

std::string ErrorCode(const ApiReply& r) { return Body(r)["error"]["code"].get<std::string>(); }

TEST(ApiTest, MatchFindsSeedZeroFirstFromJsonOrPlainText) {
  ApiReply r = Call("POST", "/v1/match", json{{"text", kSeed0}, {"top", 2}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json j = Body(r);
  ASSERT_FALSE(j["matches"].empty());
  EXPECT_EQ(j["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_LE(j["matches"].size(), 2u);
  EXPECT_FALSE(j["abstained"].get<bool>());

  ApiReply plain = Call("POST", "/v1/match", kSeed0, {{"lang", "zh"}, {"top", "1"}}, "text/plain; charset=utf-8");
  ASSERT_EQ(plain.status, 200) << plain.body;
  json p = Body(plain);
  ASSERT_EQ(p["matches"].size(), 1u);
  EXPECT_EQ(p["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  // Chinese was asked for: the root cause comes from root_cause_zh.
  const Record* seed = BundledSlot().Get()->kb().Find("cuda/cudnn-bn-epsilon-nan");
  ASSERT_FALSE(seed->root_cause_zh.empty());
  EXPECT_EQ(p["matches"][0]["root_cause"], seed->root_cause_zh);
}

TEST(ApiTest, ScanPutsTheRootBlockFirst) {
  std::string log = testing::ReadFile(testing::SourceDir() / "examples" / "train-cudnn.log");
  ApiReply r = Call("POST", "/v1/scan", json{{"log", log}}.dump());
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  json j = Body(r);
  ASSERT_FALSE(j["blocks"].empty());
  EXPECT_TRUE(j["blocks"][0]["root"].get<bool>());
  EXPECT_EQ(j["blocks"][0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_GT(j["summary"]["lines"].get<int>(), 1000);
}

TEST(ApiTest, BadBodiesGetPreciseErrors) {
  ApiReply r = Call("POST", "/v1/match", "{\"text\": \"a\",\n  \"top\": 3,\n  oops}");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(Body(r)["error"]["message"].get<std::string>().find("line 3"), std::string::npos) << r.body;

  r = Call("POST", "/v1/match", R"({"txt": "a"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["message"], "request body: \"text\": is required");

  r = Call("POST", "/v1/match", R"({"text": "a", "colour": 1})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("\\\"colour\\\": unknown field"), std::string::npos) << r.body;

  r = Call("POST", "/v1/match", R"({"text": "a", "top": 0})");
  EXPECT_EQ(Body(r)["error"]["message"], "request body: \"top\": must be an integer from 1 to 100");

  r = Call("POST", "/v1/match", R"({"text": "a", "lang": "fr"})");
  EXPECT_EQ(r.status, 400);

  r = Call("POST", "/v1/match", R"({"text": "a", "env": "torch"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("KEY=VALUE"), std::string::npos) << r.body;

  r = Call("POST", "/v1/scan", "\x01\x02", {}, "application/octet-stream");
  EXPECT_EQ(r.status, 415);
  EXPECT_EQ(ErrorCode(r), "unsupported_media_type");

  r = Call("GET", "/v1/match");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.allow, "POST");
}

TEST(ApiTest, ScanTakesAllLinesFromTheBodyOrTheQuery) {
  std::string log = std::string("epoch 1\n") + kSeed0 + "\n";
  ApiReply r = Call("POST", "/v1/scan", json{{"log", log}, {"all_lines", true}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["blocks"][0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  ApiReply plain = Call("POST", "/v1/scan", log, {{"all_lines", "true"}}, "text/plain");
  EXPECT_EQ(plain.status, 200) << plain.body;
  ApiReply bad = Call("POST", "/v1/scan", json{{"log", log}, {"all_lines", "yes"}}.dump());
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("all_lines"), std::string::npos) << bad.body;
  ApiReply bad_query = Call("POST", "/v1/scan", log, {{"all_lines", "maybe"}}, "text/plain");
  EXPECT_EQ(bad_query.status, 400);
  EXPECT_NE(bad_query.body.find("all_lines"), std::string::npos) << bad_query.body;
  // Not a match option.
  EXPECT_EQ(Call("POST", "/v1/match", json{{"text", kSeed0}, {"all_lines", true}}.dump()).status, 400);
}

TEST(ApiTest, BinaryGarbageInAPlainTextLogIsScannedNotRefused) {
  std::string garbage = "\xff\xfe\x00\x01 not utf-8 \xc3\x28\n";
  garbage += kSeed0;
  ApiReply r = Call("POST", "/v1/scan", garbage, {}, "text/plain");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["blocks"][0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
}

TEST(ApiTest, RecordsChainsAndTheirErrors) {
  ApiReply r = Call("GET", "/v1/errors/cuda/cudnn-bn-epsilon-nan");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(Body(r)["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_TRUE(Body(r).contains("workarounds_zh"));  // the native record, whole

  r = Call("GET", "/v1/errors/cuda/cudnn-bn-epsilon-nan/chain", "", {{"depth", "1"}});
  ASSERT_EQ(r.status, 200) << r.body;
  json c = Body(r);
  EXPECT_EQ(c["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(c["nodes"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_FALSE(c["edges"].empty());

  r = Call("GET", "/v1/errors/cuda/cudnn-bn-epsilon-nan/chain", "", {{"depth", "9"}});
  EXPECT_EQ(r.status, 400);
  r = Call("GET", "/v1/errors/cuda/zzqx-qqzz");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(ErrorCode(r), "not_found");
  EXPECT_EQ(r.body.find("did you mean"), std::string::npos) << r.body;
  r = Call("GET", "/v1/errors/cuda/cudnn-bn-epsilon");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("did you mean cuda/cudnn-bn-epsilon-nan?"), std::string::npos) << r.body;
  r = Call("GET", "/v1/errors/cuda/no-such-thing/chain");
  EXPECT_EQ(r.status, 404);
}

// POST /v1/mine takes the thread as text, as {"thread": ...} or as GitHub's
// export, and answers with the same draft `kedb mine --json` prints.
TEST(ApiTest, MineAnswersWithTheDraftTheCliPrints) {
  const std::string thread = std::string("alice commented\nTraining stops with\n") + kSeed0 +
                             "\nbob commented\nThe fix is to set eps=1e-5 in the layer.\n";
  ApiReply text = Call("POST", "/v1/mine", thread, {}, "text/plain");
  ASSERT_EQ(text.status, 200) << text.body;
  json draft = Body(text);
  EXPECT_EQ(draft["verification_tier"], "mined");
  EXPECT_EQ(draft["x_mined"]["related_records"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(Body(Call("POST", "/v1/mine", json{{"thread", thread}}.dump())), draft);
  const std::string kb = "--kb '" + (testing::SourceDir() / "kb").string() + "'";
  auto cli = testing::RunKedb("mine --json " + kb + " -", thread);
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(cli.out, text.body);

  json github{{"issue", {{"title", "NaN with eps 0"}, {"body", kSeed0}, {"user", {{"login", "alice"}}}}},
              {"comments", json::array()}};
  ApiReply gh = Call("POST", "/v1/mine", github.dump());
  ASSERT_EQ(gh.status, 200) << gh.body;
  EXPECT_EQ(Body(gh)["x_mined"]["thread"]["title"], "NaN with eps 0");

  ApiReply bad = Call("POST", "/v1/mine", "{\"thread\": 3}");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(Body(bad)["error"]["message"].get<std::string>().find("thread"), std::string::npos);
  ApiReply broken = Call("POST", "/v1/mine", "{\"issue\": {\n  \"title\": }");
  EXPECT_EQ(broken.status, 400);
  EXPECT_NE(Body(broken)["error"]["message"].get<std::string>().find("line 2"), std::string::npos) << broken.body;
  EXPECT_EQ(Call("GET", "/v1/mine").status, 405);
}

// The command line and the API answer from one query layer: the same
// question gets the same bytes, and the same "did you mean" when it misses.
TEST(ApiTest, TheCommandLineAnswersAsTheApiDoes) {
  const std::string kb = "--kb '" + (testing::SourceDir() / "kb").string() + "'";
  auto show = testing::RunKedb("show cuda/cudnn-bn-epsilon-nan --json " + kb);
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(show.out, Call("GET", "/v1/errors/cuda/cudnn-bn-epsilon-nan").body);

  auto match = testing::RunKedb(fmt::format("match --json --top 2 {} '{}'", kb, kSeed0));
  ASSERT_EQ(match.exit_code, 0) << match.err;
  EXPECT_EQ(json::parse(match.out), Body(Call("POST", "/v1/match", json{{"text", kSeed0}, {"top", 2}}.dump())));

  auto search = testing::RunKedb("search --json --top 3 batch norm epsilon " + kb);
  ASSERT_EQ(search.exit_code, 0) << search.err;
  EXPECT_EQ(json::parse(search.out), Body(Call("GET", "/v1/search", "", {{"q", "batch norm epsilon"}, {"limit", "3"}})));

  // A near miss: both suggest the record, and the command exits 1.
  for (const char* cmd : {"show", "chain"}) {
    auto miss = testing::RunKedb(fmt::format("{} cuda/cudnn-bn-epsilon {}", cmd, kb));
    EXPECT_EQ(miss.exit_code, 1) << cmd;
    EXPECT_NE(miss.err.find("did you mean cuda/cudnn-bn-epsilon-nan?"), std::string::npos) << cmd << ": " << miss.err;
  }
  const std::string api_miss = Body(Call("GET", "/v1/errors/cuda/cudnn-bn-epsilon"))["error"]["message"];
  auto miss = testing::RunKedb("show cuda/cudnn-bn-epsilon " + kb);
  EXPECT_EQ(miss.err, "kedb show: " + api_miss + "\n");
}

// `match --batch` writes, per line, what `match --json` prints for that
// text alone: one way to build a batch result.
TEST(ApiTest, BatchLinesAreSingleMatches) {
  const std::string kb = "--kb '" + (testing::SourceDir() / "kb").string() + "'";
  const std::vector<std::string> texts = {kSeed0, "ImportError: libcudart.so.11.0: cannot open shared object file",
                                          "nothing to see here"};
  std::string input;
  for (const auto& t : texts) input += json{{"text", t}}.dump() + "\n";
  auto batch = testing::RunKedb("match --batch " + kb, input);
  ASSERT_EQ(batch.exit_code, 0) << batch.err;
  std::istringstream lines(batch.out);
  std::string line;
  for (const auto& t : texts) {
    ASSERT_TRUE(std::getline(lines, line));
    auto single = testing::RunKedb("match --json " + kb, t);
    EXPECT_EQ(line + "\n", single.out) << t;
  }
}

TEST(ApiTest, SearchDomainsStatsAndHealth) {
  ApiReply r = Call("GET", "/v1/search", "", {{"q", "batch norm epsilon"}, {"limit", "3"}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(Body(r)["hits"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_LE(Body(r)["hits"].size(), 3u);
  r = Call("GET", "/v1/search", "", {{"q", "timeout"}, {"domain", "nccl"}});
  json nccl = Body(r);  // named: a range-for over Body(r)["hits"] would outlive the temporary
  for (const auto& h : nccl["hits"]) EXPECT_EQ(h["domain"], "nccl");
  EXPECT_EQ(Call("GET", "/v1/search").status, 400);
  EXPECT_EQ(Call("GET", "/v1/search", "", {{"q", "x"}, {"limit", "ten"}}).status, 400);

  json d = Body(Call("GET", "/v1/domains"));
  EXPECT_EQ(d["total"], testing::BundledRecords());
  EXPECT_EQ(d["domains"][0]["domain"], "cuda");

  r = Call("GET", "/v1/domains/nccl/errors", "", {{"sort_by", "name"}});
  ASSERT_EQ(r.status, 200);
  auto errors = Body(r)["errors"];
  EXPECT_EQ(errors.size(), testing::BundledRecords("nccl"));
  for (std::size_t i = 1; i < errors.size(); ++i) {
    EXPECT_LE(errors[i - 1]["signature"].get<std::string>(), errors[i]["signature"].get<std::string>());
  }
  EXPECT_EQ(Call("GET", "/v1/domains/nope/errors").status, 404);
  EXPECT_EQ(Call("GET", "/v1/domains/nccl/errors", "", {{"sort_by", "size"}}).status, 400);

  EXPECT_EQ(Body(Call("GET", "/v1/stats", "", {{"domain", "jax"}}))["records"], testing::BundledRecords("jax"));
  EXPECT_EQ(Call("GET", "/v1/stats", "", {{"domain", "nope"}}).status, 404);

  json h = Body(Call("GET", "/healthz"));
  EXPECT_EQ(h["status"], "ok");
  EXPECT_EQ(h["records"], testing::BundledRecords());
  EXPECT_EQ(Call("GET", "/v2/anything").status, 404);
}

TEST(ApiTest, OpenApiDocumentListsExactlyTheServedRoutes) {
  const serve::Asset* doc = serve::FindAsset("/v1/openapi.json");
  ASSERT_NE(doc, nullptr);
  json j = json::parse(doc->body);
  EXPECT_EQ(j["openapi"], "3.1.0");
  std::set<std::pair<std::string, std::string>> documented, served;
  for (const auto& [path, item] : j["paths"].items()) {
    for (const auto& [method, _] : item.items()) documented.insert({method, path});
  }
  for (const auto& r : serve::ApiRoutes()) served.insert({r.method, r.path});
  served.insert({"post", "/mcp"});
  served.insert({"get", "/v1/openapi.json"});
  EXPECT_EQ(documented, served);
  ASSERT_NE(serve::FindAsset("/"), nullptr);
  EXPECT_NE(serve::FindAsset("/")->content_type.find("text/html"), std::string::npos);
}

serve::HttpReply Route(const std::string& method, const std::string& target, const std::string& host,
                       const std::string& origin, bool loopback_only = true, const std::string& body = "") {
  serve::HttpRouter router(BundledSlot(), loopback_only);
  serve::HttpRequest r;
  r.method = method;
  r.target = target;
  r.host = host;
  r.origin = origin;
  r.content_type = "text/plain";
  r.body = body;
  return router.Route(r);
}

TEST(RouterTest, OriginMustBeExactlyThisServerOrLoopback) {
  EXPECT_EQ(serve::OriginHost("http://localhost:8080"), "localhost");
  EXPECT_EQ(serve::OriginHost("https://[::1]"), "[::1]");
  EXPECT_EQ(serve::OriginHost("http://127.0.0.1:8080@evil.com"), "");  // userinfo-like: not a plain host
  EXPECT_EQ(serve::OriginHost("http://evil.com/127.0.0.1"), "");
  EXPECT_EQ(serve::OriginHost("null"), "");
  EXPECT_EQ(serve::OriginHost("file://"), "");
  EXPECT_TRUE(serve::IsLoopbackName("127.0.0.1"));
  EXPECT_FALSE(serve::IsLoopbackName("127.0.evil.com"));

  const std::string host = "127.0.0.1:8080";
  EXPECT_EQ(Route("POST", "/mcp", host, "http://127.0.0.1:8080@evil.com").status, 403);
  EXPECT_EQ(Route("GET", "/healthz", host, "http://localhost:8080").status, 200);
  EXPECT_EQ(Route("GET", "/healthz", host, "").status, 200);  // not a browser
  // A page elsewhere may send a text/plain POST without asking first; it is
  // refused before any work.
  serve::HttpReply cross = Route("POST", "/v1/match", host, "https://evil.example", true, kSeed0);
  EXPECT_EQ(cross.status, 403);
  EXPECT_NE(cross.body.find("forbidden_origin"), std::string::npos);
  EXPECT_EQ(Route("POST", "/v1/match", host, "http://127.0.0.1:8080", true, kSeed0).status, 200);
}

TEST(RouterTest, OnLoopbackOnlyALoopbackHostIsAnswered) {
  // A rebound name reaches us with its own Host, and its pages send it as
  // their Origin too.
  EXPECT_EQ(Route("GET", "/v1/domains", "evil.example:8080", "").status, 403);
  EXPECT_EQ(Route("GET", "/v1/domains", "evil.example:8080", "http://evil.example:8080").status, 403);
  EXPECT_EQ(Route("GET", "/v1/domains", "localhost:8080", "").status, 200);
  // Listening on every address, a server is reached by its own name.
  EXPECT_EQ(Route("GET", "/v1/domains", "kedb.internal:8080", "http://kedb.internal:8080", false).status, 200);
  EXPECT_EQ(Route("GET", "/v1/domains", "kedb.internal:8080", "http://other.internal:8080", false).status, 403);
}

TEST(RouterTest, TargetsAreDecodedAndTheirShapeChecked) {
  const std::string host = "127.0.0.1";
  serve::HttpReply r = Route("GET", "/v1/search?q=cudnn+bad%20param&limit=1", host, "");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["hits"].size(), 1u);
  EXPECT_EQ(Route("GET", "http://127.0.0.1/healthz", host, "").status, 400);
  EXPECT_EQ(Route("GET", "/v1/search?q=%zz", host, "").status, 400);
  serve::HttpReply page = Route("GET", "/", host, "");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.content_type.rfind("text/html", 0), 0u);
  serve::HttpReply mcp_get = Route("GET", "/mcp", host, "");
  EXPECT_EQ(mcp_get.status, 405);
}

TEST(RouterTest, OnlySmallBoundedRequestsAreAnsweredOnTheReadingThread) {
  auto request = [](std::string method, std::string target, std::size_t body_bytes) {
    serve::HttpRequest r;
    r.method = std::move(method);
    r.target = std::move(target);
    r.body.assign(body_bytes, 'x');
    return r;
  };
  EXPECT_TRUE(serve::HttpRouter::IsQuick(request("POST", "/v1/match", 200)));
  EXPECT_TRUE(serve::HttpRouter::IsQuick(request("GET", "/v1/search?q=cudnn", 0)));
  EXPECT_TRUE(serve::HttpRouter::IsQuick(request("GET", "/v1/errors/cuda/oom/chain", 0)));
  EXPECT_TRUE(serve::HttpRouter::IsQuick(request("GET", "/healthz", 0)));
  EXPECT_TRUE(serve::HttpRouter::IsQuick(request("GET", "/", 0)));
  // A scan, a list that grows with the knowledge base, MCP tool calls (which
  // may scan) and any large body go to the engine pool.
  EXPECT_FALSE(serve::HttpRouter::IsQuick(request("POST", "/v1/scan", 200)));
  EXPECT_FALSE(serve::HttpRouter::IsQuick(request("GET", "/v1/domains/cuda/errors", 0)));
  EXPECT_FALSE(serve::HttpRouter::IsQuick(request("POST", "/mcp", 200)));
  EXPECT_FALSE(serve::HttpRouter::IsQuick(request("POST", "/v1/match", serve::HttpRouter::kQuickBodyBytes + 1)));
  EXPECT_FALSE(serve::HttpRouter::IsQuick(request("POST", "/v1/matchx", 10)));
}

TEST(JsonSchemaTest, NamesTheFieldThatBreaksTheSchema) {
  json schema = json::parse(R"({"type":"object","required":["a"],"additionalProperties":false,
    "properties":{"a":{"type":"string","minLength":1},"n":{"type":"integer","minimum":1,"maximum":5},
    "xs":{"type":"array","items":{"type":"string"},"maxItems":2}}})");
  EXPECT_TRUE(serve::CheckAgainstSchema(json{{"a", "x"}, {"n", 3}}, schema).ok());
  EXPECT_TRUE(serve::CheckAgainstSchema(json{{"a", "x"}, {"n", 3.0}}, schema).ok());  // 3.0 is an integer
  EXPECT_EQ(serve::CheckAgainstSchema(json::object(), schema).message(), "\"a\": is required");
  EXPECT_EQ(serve::CheckAgainstSchema(json{{"a", ""}}, schema).message(), "\"a\": must not be empty");
  EXPECT_EQ(serve::CheckAgainstSchema(json{{"a", "x"}, {"n", 2.5}}, schema).message(), "\"n\": must be an integer from 1 to 5");
  EXPECT_EQ(serve::CheckAgainstSchema(json{{"a", "x"}, {"xs", {"p", 1}}}, schema).message(), "\"xs[1]\": must be a string");
  EXPECT_EQ(serve::CheckAgainstSchema(json{{"a", "x"}, {"xs", {"p", "q", "r"}}}, schema).message(),
            "\"xs\": takes at most 2 items");
  EXPECT_EQ(serve::CheckAgainstSchema(json{{"a", "x"}, {"b", 1}}, schema).message(), "\"b\": unknown field (known: a, n, xs)");
  EXPECT_EQ(serve::CheckAgainstSchema(json::array(), schema).message(), "the arguments: must be an object");
}

// ---- MCP ----

json Rpc(const std::string& message) {
  serve::McpServer server(BundledSlot());
  auto reply = server.Handle(message);
  return reply ? json::parse(*reply) : json();
}

json CallTool(const std::string& name, json args) {
  return Rpc(json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
                  {"params", {{"name", name}, {"arguments", std::move(args)}}}}
                 .dump());
}

TEST(McpTest, InitializeNegotiatesTheProtocolVersion) {
  json r = Rpc(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "kedb");
  EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  r = Rpc(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}})");
  EXPECT_EQ(r["id"], "a");
  EXPECT_EQ(r["result"]["protocolVersion"], serve::kMcpLatestVersion);
  EXPECT_EQ(Rpc(R"({"jsonrpc":"2.0","id":2,"method":"ping"})")["result"], json::object());
}

TEST(McpTest, ProtocolErrorsFollowJsonRpc) {
  EXPECT_EQ(Rpc("{not json")["error"]["code"], -32700);
  EXPECT_EQ(Rpc(R"({"id":1,"method":"ping"})")["error"]["code"], -32600);
  EXPECT_EQ(Rpc(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")["error"]["code"], -32600);
  EXPECT_EQ(Rpc(R"({"jsonrpc":"2.0","id":1,"method":"tools/nope"})")["error"]["code"], -32601);
  // Notifications and the client's replies get no answer.
  serve::McpServer server(BundledSlot());
  EXPECT_FALSE(server.Handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_FALSE(server.Handle(R"({"jsonrpc":"2.0","id":5,"result":{}})"));
}

TEST(McpTest, ToolsUseTheDeadendsNamesAndSchemas) {
  json r = Rpc(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  std::set<std::string> names;
  for (const auto& t : r["result"]["tools"]) {
    names.insert(t["name"].get<std::string>());
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
    // What structuredContent is, whole: no reference into a document the client does not have.
    EXPECT_EQ(t["outputSchema"]["type"], "object") << t["name"];
    EXPECT_EQ(t["outputSchema"].dump().find("$ref"), std::string::npos) << t["name"];
  }
  EXPECT_EQ(names, (std::set<std::string>{"lookup_error", "scan_log", "batch_lookup", "get_error_detail",
                                          "get_error_chain", "search_errors", "list_error_domains",
                                          "list_errors_by_domain", "get_domain_stats", "mine_thread",
                                          "report_outcome"}));
  EXPECT_EQ(*serve::ToolSchema("lookup_error")->at("required").begin(), "error_message");
  EXPECT_EQ(*serve::ToolSchema("get_error_detail")->at("required").begin(), "error_id");
  EXPECT_EQ(*serve::ToolSchema("batch_lookup")->at("required").begin(), "error_messages");
}

TEST(McpTest, EveryToolAnswers) {
  json r = CallTool("lookup_error", {{"error_message", kSeed0}});
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_FALSE(r["result"]["isError"].get<bool>());
  EXPECT_EQ(r["result"]["structuredContent"]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_NE(r["result"]["content"][0]["text"].get<std::string>().find("cuda/cudnn-bn-epsilon-nan"), std::string::npos);

  std::string log = "step 1 loss 0.3\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n" +
                    std::string(kSeed0) + "\n";
  r = CallTool("scan_log", {{"log_text", log}});
  EXPECT_EQ(r["result"]["structuredContent"]["blocks"][0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");

  // A miss tells the agent what to try next.
  r = CallTool("lookup_error", {{"error_message", "FrobError: the frobnicator jammed"}});
  EXPECT_TRUE(r["result"]["structuredContent"]["abstained"].get<bool>());
  const std::string next = r["result"]["content"][0]["text"];
  EXPECT_NE(next.find("Next: call search_errors"), std::string::npos) << next;
  EXPECT_NE(next.find("`kedb new 'FrobError: the frobnicator jammed'`"), std::string::npos) << next;

  r = CallTool("batch_lookup", {{"error_messages", {kSeed0, "nothing to see here"}}});
  auto results = r["result"]["structuredContent"]["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_TRUE(results[1]["matches"].empty());

  r = CallTool("get_error_detail", {{"error_id", "cuda/cudnn-bn-epsilon-nan"}, {"lang", "zh"}});
  EXPECT_EQ(r["result"]["structuredContent"]["id"], "cuda/cudnn-bn-epsilon-nan");
  r = CallTool("get_error_chain", {{"error_id", "cuda/cudnn-bn-epsilon-nan"}, {"depth", 1}});
  EXPECT_FALSE(r["result"]["structuredContent"]["edges"].empty());
  r = CallTool("search_errors", {{"query", "nccl timeout"}, {"domain", "nccl"}, {"limit", 2}});
  EXPECT_EQ(r["result"]["structuredContent"]["hits"][0]["id"], "nccl/watchdog-timeout");
  r = CallTool("list_error_domains", json::object());
  EXPECT_EQ(r["result"]["structuredContent"]["total"], testing::BundledRecords());
  r = CallTool("list_errors_by_domain", {{"domain", "jax"}, {"sort_by", "confidence"}});
  EXPECT_EQ(r["result"]["structuredContent"]["errors"].size(), testing::BundledRecords("jax"));
  r = CallTool("get_domain_stats", {{"domain", "nccl"}});
  EXPECT_EQ(r["result"]["structuredContent"]["records"], testing::BundledRecords("nccl"));
}

TEST(McpTest, BadArgumentsAreInvalidParamsAndUnknownIdsAreToolErrors) {
  json r = CallTool("lookup_error", {{"message", "x"}});
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_EQ(r["error"]["message"], "lookup_error: \"error_message\": is required");
  r = CallTool("lookup_error", {{"error_message", 5}});
  EXPECT_EQ(r["error"]["code"], -32602);
  r = CallTool("batch_lookup", {{"error_messages", json::array()}});
  EXPECT_EQ(r["error"]["code"], -32602);
  r = CallTool("list_errors_by_domain", {{"domain", "cuda"}, {"sort_by", "size"}});
  EXPECT_EQ(r["error"]["code"], -32602);
  r = CallTool("no_such_tool", json::object());
  EXPECT_EQ(r["error"]["code"], -32602);
  r = CallTool("get_error_detail", {{"error_id", "cuda/nope"}});
  EXPECT_TRUE(r["result"]["isError"].get<bool>());
  r = CallTool("get_domain_stats", {{"domain", "nope"}});
  EXPECT_TRUE(r["result"]["isError"].get<bool>());
}

TEST(McpTest, RecordsAreResources) {
  json r = Rpc(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
  EXPECT_EQ(r["result"]["resources"].size(), testing::BundledRecords());
  EXPECT_FALSE(r["result"].contains("nextCursor"));
  r = Rpc(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"kedb://errors/nccl/watchdog-timeout"}})");
  json record = json::parse(r["result"]["contents"][0]["text"].get<std::string>());
  EXPECT_EQ(record["id"], "nccl/watchdog-timeout");
  r = Rpc(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"kedb://errors/x"}})");
  EXPECT_EQ(r["error"]["code"], -32002);
}

// ---- Reload ----

TEST(ReloadTest, ABrokenKnowledgeBaseIsRefusedAndTheOldOneKeepsServing) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "kb");
  std::filesystem::copy(testing::SourceDir() / "kb" / "nccl", dir.path() / "kb" / "nccl",
                        std::filesystem::copy_options::recursive);
  serve::EngineSlot slot((dir.path() / "kb").string(), "-");
  ASSERT_TRUE(slot.Reload().ok());
  std::shared_ptr<const Engine> first = slot.Get();
  const std::size_t nccl = testing::BundledRecords("nccl");
  EXPECT_EQ(first->kb().size(), nccl);

  testing::WriteFile(dir.path() / "kb" / "nccl" / "broken.json", "{\"id\": \"nccl/broken\", \"signature\": ");
  Status st = slot.Reload();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("broken.json"), std::string::npos) << st.message();
  EXPECT_EQ(slot.Get(), first);  // still the same engine
  EXPECT_EQ(slot.info().generation, 1u);
  EXPECT_EQ(slot.info().failed_reloads, 1u);

  std::filesystem::remove(dir.path() / "kb" / "nccl" / "broken.json");
  std::filesystem::remove(dir.path() / "kb" / "nccl" / "internal-error.json");
  ASSERT_TRUE(slot.Reload().ok());
  EXPECT_EQ(slot.Get()->kb().size(), nccl - 1);
  EXPECT_EQ(slot.info().generation, 2u);
  EXPECT_EQ(first->kb().size(), nccl);  // a request holding the old engine still sees it whole
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

TEST(McpStdioTest, OneReplyPerLineAndAnOverlongLineIsRefusedAlone) {
  serve::McpServer server(BundledSlot());
  std::string input = std::string(R"({"jsonrpc":"2.0","id":1,"method":"ping"})") + "\n" +
                      R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\r\n" + "\n" +
                      std::string(300, 'x') + "\n" + R"({"jsonrpc":"2.0","id":2,"method":"ping"})";  // no final newline
  std::istringstream in(input);
  std::ostringstream out;
  serve::RunMcpStdio(server, in, out, /*max_message_bytes=*/200);
  std::vector<json> replies;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) replies.push_back(json::parse(line));
  ASSERT_EQ(replies.size(), 3u) << out.str();
  EXPECT_EQ(replies[0]["id"], 1);
  EXPECT_EQ(replies[1]["error"]["code"], -32700);
  EXPECT_EQ(replies[2]["id"], 2);
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

// Two servers on one port would split its connections between them: the
// second must fail to start instead.
TEST(ServeCliTest, APortAlreadyServedIsRefused) {
  int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  // As a server built on the same library would: then only the port's
  // sharing rules keep a second server out.
  int yes = 1;
  ::setsockopt(sock, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof(yes));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(sock, 4), 0);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(::getsockname(sock, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  int port = ntohs(addr.sin_port);
  // `timeout` turns a server that wrongly starts into exit 124, not a hang.
  testing::TempDir tmp;
  std::string cmd = fmt::format("timeout 5 '{}' serve --kb '{}' --port {} >/dev/null 2>'{}/err'", KEDB_BINARY,
                                (testing::SourceDir() / "kb").string(), port, tmp.path().string());
  int status = std::system(cmd.c_str());
  testing::CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = testing::ReadFile(tmp.path() / "err");
  ::close(sock);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(fmt::format("cannot listen on 127.0.0.1:{}", port)), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kedb
