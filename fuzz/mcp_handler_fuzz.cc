// Feeds the input as one MCP message (JSON-RPC 2.0) to McpServer::Handle
// over the bundled knowledge base (loaded once), as `kedb mcp` does for
// each line it reads.
//
// A bug is a crash, a sanitizer report, an exception out of Handle (the
// stdio loop does not catch one: it would end `kedb mcp`), or a reply that
// is not a JSON-RPC 2.0 response: valid JSON, "jsonrpc":"2.0", an "id"
// that echoes the request's when it had a usable one, and exactly one of
// "result" or "error" (with an integer code and a string message). No reply
// is due only to notifications and to replies from the client.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bundled_slot.h"
#include "fuzz_check.h"
#include "serve/mcp.h"

namespace {

using nlohmann::json;

void CheckReply(const std::string& reply, const json& request) {
  const json r = json::parse(reply, nullptr, /*allow_exceptions=*/false);
  FUZZ_CHECK(!r.is_discarded() && r.is_object());
  FUZZ_CHECK(r.contains("jsonrpc") && r["jsonrpc"] == "2.0");
  FUZZ_CHECK(r.contains("id"));
  FUZZ_CHECK(r.contains("result") != r.contains("error"));
  if (r.contains("error")) {
    const json& e = r["error"];
    FUZZ_CHECK(e.is_object() && e.contains("code") && e["code"].is_number_integer());
    FUZZ_CHECK(e.contains("message") && e["message"].is_string());
  }
  const bool usable_id = request.is_object() && request.contains("id") &&
                         (request["id"].is_string() || request["id"].is_number_integer());
  if (usable_id && request.value("jsonrpc", json()) == "2.0") FUZZ_CHECK(r["id"] == request["id"]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kedb::serve::McpServer server(kedb::fuzz::BundledSlot());
  const std::string_view message(reinterpret_cast<const char*>(data), size);
  const std::optional<std::string> reply = server.Handle(message);
  const json request = json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (!reply) {
    FUZZ_CHECK(request.is_object() && (!request.contains("id") || !request.contains("method")));
    return 0;
  }
  CheckReply(*reply, request);
  return 0;
}
