// Inputs the fuzz targets in fuzz/ found to break kedb, kept as tests of the
// behaviour they broke. Each names the target that found it.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mine/environment.h"
#include "serve/engine_slot.h"
#include "serve/mcp.h"
#include "serve/json_schema.h"
#include "serve/mcp_stdio.h"
#include "serve/mcp_tools.h"
#include "util/binary_io.h"

namespace kedb {
namespace {

using nlohmann::json;

// None of these messages reaches the engine: a slot that never loaded will do.
serve::EngineSlot& UnloadedSlot() {
  static serve::EngineSlot slot("/nonexistent-kb", "");
  return slot;
}

// mcp_handler: "jsonrpc" holding a number made Handle throw nlohmann's
// type_error (value() with a string default), which ended `kedb mcp`.
TEST(FuzzRegression, McpJsonrpcOfTheWrongTypeIsAnInvalidRequest) {
  const serve::McpServer server(UnloadedSlot());
  const std::string crash =
      R"({"jsonrpc":4,"method":"tools/call","params":{"name":"batch_lookup","arguments":{"error_messages":)"
      R"(["CUDA_HOME enviobjectt variable is not set","cuDNN error: CUDNN_STATUS_NOT_INITIALImetENITIALImetEhodZED"]}}})";
  std::optional<std::string> reply;
  ASSERT_NO_THROW(reply = server.Handle(crash));
  ASSERT_TRUE(reply.has_value());
  json r = json::parse(*reply);
  EXPECT_EQ(r["jsonrpc"], "2.0");
  EXPECT_EQ(r["error"]["code"], -32600);

  // Over stdio the next message is still answered.
  std::istringstream in(crash + "\n" + R"({"jsonrpc":"2.0","id":1,"method":"ping"})" + "\n");
  std::ostringstream out;
  ASSERT_NO_THROW(serve::RunMcpStdio(server, in, out));
  std::istringstream lines(out.str());
  std::string first, second;
  ASSERT_TRUE(std::getline(lines, first) && std::getline(lines, second));
  EXPECT_EQ(json::parse(second)["id"], 1);
  EXPECT_TRUE(json::parse(second).contains("result"));
}

// mcp_handler, the same mistake one call further: initialize with a
// protocolVersion that is not a string.
TEST(FuzzRegression, McpInitializeWithANumericVersionGetsTheLatest) {
  const serve::McpServer server(UnloadedSlot());
  std::optional<std::string> reply;
  ASSERT_NO_THROW(reply = server.Handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2025}})"));
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(json::parse(*reply)["result"]["protocolVersion"], serve::kMcpLatestVersion);
}

// mcp_handler: a float argument beyond long long's range, checked against
// an "integer" schema, was cast to long long (undefined behaviour). It is
// refused as not an integer. Only a sanitizer build sees the old code fail.
TEST(FuzzRegression, SchemaRefusesAnIntegerBeyondLongLong) {
  const json crash = json::parse(
      R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search_errors","arguments":)"
      R"({"query":"量归一化 etsilo~","domain":"cuda","limit":33333333333333333333331}}})");
  const Json args = Json::parse(crash["params"]["arguments"].dump());
  const Json* schema = serve::ToolSchema("search_errors");
  ASSERT_NE(schema, nullptr);
  Status error = serve::CheckAgainstSchema(args, *schema);
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.message().find("\"limit\": must be an integer"), std::string::npos) << error.message();
  // Integral doubles in range still count as integers.
  Json three = args;
  three["limit"] = 3.0;
  EXPECT_TRUE(serve::CheckAgainstSchema(three, *schema).ok());
}

// mcp_handler at start-up (reading the search index cache): an empty u32
// array was read with memcpy to an empty vector's null data(), undefined
// even for 0 bytes. Only a sanitizer build (KEDB_SANITIZE) sees it fail.
TEST(FuzzRegression, BinaryReaderReadsAnEmptyU32Array) {
  util::BinaryWriter w;
  w.U32s({});
  util::BinaryReader r(w.str());
  std::vector<uint32_t> v{7};
  ASSERT_TRUE(r.U32s(&v));
  EXPECT_TRUE(v.empty());
  EXPECT_TRUE(r.done());
}

// mine_thread: a post with a line of dashes alone ("-----", as people rule
// off an environment dump) made SectionName cut at npos and throw
// out_of_range, which ended `kedb mine`.
TEST(FuzzRegression, ALineOfDashesInAPostIsNoSectionHeader) {
  std::vector<mine::EnvFact> facts;
  EXPECT_NO_THROW(facts = mine::FindEnvironment("----\n-------\nPyTorch version: 2.2.1\n----\n", 0));
  bool torch = false;
  for (const auto& f : facts) torch |= f.value == "2.2.1";
  EXPECT_TRUE(torch);
}

}  // namespace
}  // namespace kedb
