#include "serve/mcp.h"

#include <array>
#include <charconv>

#include <fmt/format.h>

#include "app/queries.h"
#include "serve/json_schema.h"
#include "serve/mcp_tools.h"
#include "util/json_writer.h"

namespace kedb::serve {
namespace {

constexpr std::array<std::string_view, 4> kVersions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
constexpr const char* kResourcePrefix = "kedb://errors/";
constexpr std::size_t kResourcePage = 500;

// A JSON-RPC failure: the error object to send.
struct RpcError {
  int code;
  std::string message;
};

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string ErrorMessage(const Json& id, const RpcError& e) {
  return Dump(Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", e.code}, {"message", e.message}}}});
}

Json Initialize(const Json& params) {
  // value() throws when the field is there but not a string: check first.
  const bool has_version = params.is_object() && params.contains("protocolVersion") &&
                           params["protocolVersion"].is_string();
  std::string asked = has_version ? params["protocolVersion"].get<std::string>() : "";
  return Json{{"protocolVersion", IsSupportedMcpVersion(asked) ? asked : kMcpLatestVersion},
              {"capabilities", {{"tools", {{"listChanged", false}}}, {"resources", {{"listChanged", false}}}}},
              {"serverInfo", {{"name", "kedb"}, {"title", "kedb known-error database"}, {"version", "0.1.0"}}},
              {"instructions",
               "Call lookup_error with an error message (or scan_log with a whole log) before trying to fix an "
               "error: it names the known error, the workarounds that work and the dead ends to skip."}};
}

Json ResourcesList(const Engine& engine, const Json& params) {
  std::size_t start = 0;
  if (params.is_object() && params.contains("cursor")) {
    const Json& c = params["cursor"];
    std::string s = c.is_string() ? c.get<std::string>() : "";
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), start);
    if (ec != std::errc() || end != s.data() + s.size()) throw RpcError{-32602, "cursor: not one this server gave"};
  }
  const auto& records = engine.kb().records();
  Json resources = Json::array();
  for (std::size_t i = start; i < records.size() && i < start + kResourcePage; ++i) {
    resources.push_back({{"uri", kResourcePrefix + records[i].id},
                         {"name", records[i].id},
                         {"title", records[i].signature},
                         {"mimeType", "application/json"}});
  }
  Json out{{"resources", std::move(resources)}};
  if (start + kResourcePage < records.size()) out["nextCursor"] = std::to_string(start + kResourcePage);
  return out;
}

Json ResourcesRead(const Engine& engine, const Json& params) {
  if (!params.is_object() || !params.contains("uri") || !params["uri"].is_string()) {
    throw RpcError{-32602, "\"uri\": is required and must be a string"};
  }
  std::string uri = params["uri"].get<std::string>();
  std::string_view prefix = kResourcePrefix;
  app::Answer record = uri.rfind(prefix, 0) == 0
                          ? app::RecordById(engine, uri.substr(prefix.size()), Lang::kEn)
                          : app::Answer::Error(app::Answer::Kind::kNotFound, "");
  // -32002 is the protocol's "resource not found".
  if (record.kind != app::Answer::Kind::kOk) throw RpcError{-32002, fmt::format("resource not found: {}", uri)};
  return Json{{"contents", {{{"uri", uri}, {"mimeType", "application/json"}, {"text", std::move(record.json)}}}}};
}

// The result object as text: the tool's structured answer comes as text
// from the query layer and is spliced in, not parsed back.
std::string ToolsCall(const Engine& engine, const ToolContext& context, bool may_write, const Json& params) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    throw RpcError{-32602, "\"name\": is required and must be a string"};
  }
  std::string name = params["name"].get<std::string>();
  const Json* schema = ToolSchema(name);
  if (!schema) throw RpcError{-32602, fmt::format("unknown tool \"{}\"", name)};
  Json args = params.contains("arguments") ? params["arguments"] : Json::object();
  if (args.is_null()) args = Json::object();
  if (Status err = CheckAgainstSchema(args, *schema); !err.ok()) {
    throw RpcError{-32602, fmt::format("{}: {}", name, err.message())};
  }
  if (IsWriteTool(name) && !may_write) throw RpcError{-32602, fmt::format("{}: writing needs the server's token", name)};
  ToolResult r = CallTool(engine, context, name, args);
  util::JsonWriter w;
  w.BeginObject().Key("content").BeginArray();
  w.BeginObject().Field("type", "text").Field("text", r.text).EndObject();
  w.EndArray().Field("isError", r.is_error);
  if (!r.is_error) w.Key("structuredContent").Raw(r.structured);
  w.EndObject();
  return w.Take();
}

}  // namespace

bool IsSupportedMcpVersion(std::string_view version) {
  for (auto v : kVersions) {
    if (v == version) return true;
  }
  return false;
}

bool McpServer::WantsWrite(std::string_view message) {
  Json msg = Json::parse(message.begin(), message.end(), nullptr, /*allow_exceptions=*/false);
  if (!msg.is_object() || !msg.contains("method") || msg["method"] != "tools/call" || !msg.contains("params")) {
    return false;
  }
  const Json& params = msg["params"];
  return params.is_object() && params.contains("name") && params["name"].is_string() &&
         IsWriteTool(params["name"].get<std::string>());
}

std::optional<std::string> McpServer::Handle(std::string_view message, bool may_write) const {
  Json msg = Json::parse(message.begin(), message.end(), nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) return ErrorMessage(nullptr, {-32700, "parse error: the message is not valid JSON"});
  if (msg.is_array()) {
    return ErrorMessage(nullptr, {-32600, "JSON-RPC batches are not supported; send one message at a time"});
  }
  // Not msg.value("jsonrpc", ""): it throws on a non-string ("jsonrpc":2),
  // and nothing above catches it (`kedb mcp` would end).
  if (!msg.is_object() || !msg.contains("jsonrpc") || msg["jsonrpc"] != "2.0") {
    return ErrorMessage(nullptr, {-32600, "invalid request: expected a JSON-RPC 2.0 object"});
  }
  const bool has_id = msg.contains("id");
  Json id = has_id ? msg["id"] : Json(nullptr);
  if (has_id && !id.is_string() && !id.is_number_integer()) {
    return ErrorMessage(nullptr, {-32600, "invalid request: id must be a string or an integer"});
  }
  if (!msg.contains("method")) {
    // A reply from the client (we never ask it anything): nothing to say.
    if (msg.contains("result") || msg.contains("error")) return std::nullopt;
    return ErrorMessage(id, {-32600, "invalid request: no method"});
  }
  if (!msg["method"].is_string()) return ErrorMessage(id, {-32600, "invalid request: method must be a string"});
  const std::string method = msg["method"].get<std::string>();
  const Json params = msg.contains("params") ? msg["params"] : Json::object();
  if (!has_id) return std::nullopt;  // notifications: initialized, cancelled, ... need no reply

  try {
    Json result;
    std::string result_text;  // when the result comes as text already
    if (method == "initialize") {
      result = Initialize(params);
    } else if (method == "ping") {
      result = Json::object();
    } else if (method == "tools/list") {
      result = Json{{"tools", ToolList()}};
    } else if (method == "tools/call" || method == "resources/list" || method == "resources/read") {
      std::shared_ptr<const Engine> engine = slot_.Get();
      if (!engine) throw RpcError{-32603, "the knowledge base is still loading"};
      if (method == "tools/call") {
        result_text = ToolsCall(*engine, ToolContext{slot_.store(), slot_.record_hits()}, may_write, params);
      } else {
        result = method == "resources/list" ? ResourcesList(*engine, params) : ResourcesRead(*engine, params);
      }
    } else if (method == "resources/templates/list") {
      result = Json{{"resourceTemplates",
                     {{{"uriTemplate", std::string(kResourcePrefix) + "{id}"},
                       {"name", "known-error"},
                       {"title", "A known error record"},
                       {"mimeType", "application/json"}}}}};
    } else if (method == "prompts/list") {
      result = Json{{"prompts", Json::array()}};
    } else {
      throw RpcError{-32601, fmt::format("method not found: {}", method)};
    }
    util::JsonWriter w;
    w.BeginObject().Field("jsonrpc", "2.0").Key("id").Raw(Dump(id));
    w.Key("result").Raw(result_text.empty() ? Dump(result) : result_text).EndObject();
    return w.Take();
  } catch (const RpcError& e) {
    return ErrorMessage(id, e);
  }
}

}  // namespace kedb::serve
